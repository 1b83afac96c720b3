"""Pure rules more than one app shares (no Django, no I/O)."""
