# one conv2d node read by both paths: a shared call pattern node, so both paths must reach the same conv
conv = is_op("nn.conv2d")(wildcard(), wildcard())
is_op("add")(is_op("nn.relu")(conv), is_op("nn.leaky_relu")(conv))
