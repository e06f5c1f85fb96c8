print("splitd")
