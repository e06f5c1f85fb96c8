// SplitWire
