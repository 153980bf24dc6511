# batch norm at inference, dividing last: (gamma * (x - mean)) / sqrt(var + eps) + beta
scaled = is_op("multiply")(wildcard(), is_op("subtract")(wildcard(), wildcard()))
is_op("add")(is_op("divide")(scaled, is_op("sqrt")(is_op("add")(wildcard(), wildcard()))), wildcard())
