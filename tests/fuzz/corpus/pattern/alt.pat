x = wildcard()
(is_op("add")(x, x) | is_tuple_get_item(is_tuple([x, is_var("w")]), 0).has_shape([1, 3, ?, 8]).has_dtype("float32"))
