"""Optimistic concurrency for bids: one row lock per bid, one version number.

Every write to a bid or its line items (update, replace-all, import, one line added or
removed, deletion) first locks the bid's row, so two writes to one bid run one after
the other and a replace-all never interleaves with another (issue 10: a PATCH with
line items racing an import ended with both sets merged). A write that changes the
bid adds one to its `version` and records who made it; a caller that read version N
and names it is refused with `StaleBidError` once the bid is past N, instead of
silently overwriting what someone else saved.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from clusterbuy.services import ConflictError, ServiceError

from ..models import Bid
from .opened_bids import ensure_editable


class StaleBidError(ConflictError):
    """The caller's version of the bid is older than the stored one."""

    def __init__(self, bid: Bid):
        changed_by = _display_name(bid.updated_by) or _("another user")
        changed_at = timezone.localtime(bid.updated_at)
        super().__init__(
            _(
                "This bid was changed by %(user)s at %(time)s after you opened it. "
                "Reload it and make your changes again."
            )
            % {"user": changed_by, "time": changed_at.strftime("%Y-%m-%d %H:%M")},
            details={
                "version": bid.version,
                "changed_by": changed_by,
                "changed_at": changed_at.isoformat(),
            },
        )


def _display_name(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def lock_bid(bid: Bid, *, version: int | None = None, correction: bool = False) -> Bid:
    """Lock the bid's row until the transaction ends and reload it, so what the
    write compares against (its fields, its line items) is the committed state.
    `version`, when given, must be the stored one (None: the caller did not say
    which version it read, and the write goes ahead). A bid that can no longer be
    edited (`opened_bids`) is refused, unless the write is a ``correction`` the
    vendor confirmed."""
    locked = Bid.objects.select_for_update(of=("self",)).select_related(
        "procurement", "vendor"
    )
    try:
        bid.refresh_from_db(from_queryset=locked)
    except Bid.DoesNotExist as exc:
        raise ServiceError(_("This bid was deleted."), field=None) from exc
    if not correction:
        ensure_editable(bid)
    if version is not None and version != bid.version:
        raise StaleBidError(bid)
    return bid


def mark_changed(bid: Bid, *, user) -> None:
    """Count one change of a locked bid: next version, by `user`, now."""
    bid.version += 1
    bid.updated_by = user if getattr(user, "pk", None) else None
    bid.save(update_fields=["version", "updated_by", "updated_at"])
