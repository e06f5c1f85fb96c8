// SplitServer
