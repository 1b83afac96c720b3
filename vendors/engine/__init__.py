"""Pure vendor judgement: no Django, no database, no other app (design.md)."""
