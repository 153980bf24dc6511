# conv2d -> bias_add? -> relu?, spelled as in TVM's Python API
is_op("nn.conv2d")(wildcard(), wildcard()).optional(lambda x: is_op("nn.bias_add")(x, wildcard())).optional(is_op("nn.relu"))
