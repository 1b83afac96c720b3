from rest_framework.permissions import SAFE_METHODS, BasePermission

from .access import Capability, can, membership_of


class IsMember(BasePermission):
    """Authenticated and a member of an organisation."""

    def has_permission(self, request, view):
        return membership_of(request.user) is not None


def capability_for_writes(capability: Capability) -> type[BasePermission]:
    """Reads need membership; writes need `capability` from the member's role."""

    class _Permission(IsMember):
        def has_permission(self, request, view):
            if not super().has_permission(request, view):
                return False
            return request.method in SAFE_METHODS or can(request.user, capability)

    _Permission.__name__ = f"CanWrite_{capability.value}"
    return _Permission
