// SplitStore
