# a conv2d whose every path to the add runs through elementwise ops only
conv = is_op("nn.conv2d")(wildcard(), wildcard())
elemwise = wildcard().has_attr({"TOpPattern": 0})(wildcard())
dominates(conv, elemwise, is_op("add")(wildcard(), wildcard()))
