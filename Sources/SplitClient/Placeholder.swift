// SplitClient
