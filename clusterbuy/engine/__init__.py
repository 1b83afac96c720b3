"""Pure rules more than one app uses (no Django, no I/O, like every ``*/engine/``):
the CNY <-> USD conversion and its default rate (`currency`), and the platform limits
(`limits`). The sizing, TCO and vendors engines import them; nothing here imports an
app."""
