print("splitbench")
