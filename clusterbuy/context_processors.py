from .access import ROLE_CAPABILITIES, membership_of


def membership(request):
    m = membership_of(getattr(request, "user", None))
    caps = ROLE_CAPABILITIES.get(m.role, frozenset()) if m else frozenset()
    return {"membership": m, "caps": {c.value for c in caps}}
