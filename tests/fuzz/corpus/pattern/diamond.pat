conv = is_op("nn.conv2d")(wildcard(), wildcard())
elemwise = wildcard().has_attr({"TOpPattern": 0})(wildcard())
dominates(conv, elemwise, is_op("add")(wildcard(), wildcard()))
