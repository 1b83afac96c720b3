"""Extension points the later apps plug into without the core importing them.

Apps depend one way (clusterbuy <- sizing <- tco <- vendors), so the core cannot
import the apps that provide a procurement's tabs or a stage's checks. Each app
registers them in its AppConfig.ready().
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Tab:
    slug: str
    label: str | Promise
    url_name: str  # reversed with the procurement's pk as `pk`


@dataclass(frozen=True)
class CheckResult:
    label: str | Promise
    ok: bool
    detail: str | Promise = ""


# The tabs of a procurement, in display order; `url_name` None until an app registers.
TAB_ORDER: list[tuple[str, str | Promise]] = [
    ("requirements", _("Requirements")),
    ("sizing", _("Sizing")),
    ("rfp", _("RFP")),
    ("bids", _("Vendors & bids")),
    ("comparison", _("Comparison")),
    ("tco", _("TCO")),
    ("acceptance", _("Acceptance")),
]
_tabs: dict[str, Tab] = {}
# stage number -> checks that must pass before leaving that stage.
_stage_checks: dict[int, list[Callable[[object], CheckResult]]] = {}


def register_tab(slug: str, url_name: str) -> None:
    label = dict(TAB_ORDER)[slug]
    _tabs[slug] = Tab(slug=slug, label=label, url_name=url_name)


def tabs() -> list[tuple[str, str | Promise, str | None]]:
    return [
        (slug, label, _tabs[slug].url_name if slug in _tabs else None)
        for slug, label in TAB_ORDER
    ]


def register_stage_check(stage: int, check: Callable[[object], CheckResult]) -> None:
    _stage_checks.setdefault(stage, []).append(check)


def stage_checks(stage: int) -> list[Callable[[object], CheckResult]]:
    return list(_stage_checks.get(stage, []))


@dataclass(frozen=True)
class OverviewEvent:
    """One line of a procurement's audit trail on its overview."""

    at: object  # an aware datetime
    actor: str
    text: str


# Providers of the overview's events besides the stage changes: (procurement, user)
# -> events that user may read.
_overview_events: list[Callable[[object, object], list[OverviewEvent]]] = []


def register_overview_events(
    provider: Callable[[object, object], list[OverviewEvent]],
) -> None:
    if provider not in _overview_events:
        _overview_events.append(provider)


def overview_events(procurement, user) -> list[OverviewEvent]:
    events: list[OverviewEvent] = []
    for provider in _overview_events:
        events.extend(provider(procurement, user))
    return events
