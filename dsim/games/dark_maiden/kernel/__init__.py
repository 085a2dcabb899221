"""The Dark Maiden kernel: layout (named columns), state, rules (one small step function per rule), batch entry."""
