"""Pure rules more than one app uses (no Django, no I/O, like every ``*/engine/``):
the CNY <-> USD conversion and its default rate (`currency`), the platform limits
(`limits`) and how money and numbers are shown (`numbers`). The sizing, TCO and
vendors engines import them; nothing here imports an app."""
