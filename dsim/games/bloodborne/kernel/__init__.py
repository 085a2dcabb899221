"""The Bloodborne kernel: layout (named columns), rules (one small step function per rule), batch entry."""
