"""Use cases: the only code that writes vendor models (design.md)."""
