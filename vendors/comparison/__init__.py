"""The side-by-side comparison of a procurement's bids.

One module per seam, in the order the data flows:

- `pricing`: quoted total and normalised TCO of a bid (the TCO through tco.services);
- `checks`: compliance with the sizing plan, pitfall detectors, case-study evidence;
- `ranking`: section points, technical and price scores, ranks;
- `result`: the Comparison / Column / SectionInfo dataclasses;
- `build`: `build_comparison`, the one entry point that assembles them for a viewer;
- `table` (its pieces in `cells`), `radar`, `export`: the HTML table rows, the SVG
  radar, the API JSON; `summary`: the ranking summary a large comparison's PDF prints;
- `labels`: shown names of the codes the pure modules return;
- `cache`: `comparison_context`, the page's context read through the cache;
- `reweight`: `reweighted`, a built comparison ranked under other weights (no rebuild).

Callers import from here (`from vendors import comparison`).
"""

from .build import build_comparison
from .cache import (
    cached_export,
    comparison_context,
    export_cache_key,
    grid_html,
    reweighted_context,
)
from .checks import (
    bid_offer,
    compliance_for,
    evidence_kinds,
    no_plan_items,
    pitfalls_for,
    plan_needs,
    procurement_facts,
)
from .export import comparison_json
from .labels import (
    COMPLIANCE_ITEMS,
    ECOSYSTEM_NAMES,
    FILL_IN_SOURCES,
    PITFALL_LABELS,
    SEVERITY_LABELS,
    STATUS_LABELS,
    fill_in_help,
    pitfall_label,
    severity_label,
    status_label,
)
from .prescores import automatic_json, automatic_points, provisional_notices
from .pricing import CENT, Line, bid_lines, lines_are_valid, money, quoted_total
from .radar import RADAR_COLOURS, RADAR_MAX_WIDTH_PX, radar_svg
from .result import Column, Comparison, SectionInfo
from .reweight import reweighted
from .table import Cell, Detail, Group, Row, comparison_groups

__all__ = [
    "CENT",
    "COMPLIANCE_ITEMS",
    "ECOSYSTEM_NAMES",
    "FILL_IN_SOURCES",
    "PITFALL_LABELS",
    "RADAR_COLOURS",
    "RADAR_MAX_WIDTH_PX",
    "SEVERITY_LABELS",
    "STATUS_LABELS",
    "Cell",
    "Column",
    "Comparison",
    "Detail",
    "Group",
    "Line",
    "Row",
    "SectionInfo",
    "bid_lines",
    "automatic_json",
    "automatic_points",
    "bid_offer",
    "cached_export",
    "build_comparison",
    "comparison_context",
    "comparison_groups",
    "comparison_json",
    "compliance_for",
    "evidence_kinds",
    "export_cache_key",
    "fill_in_help",
    "lines_are_valid",
    "money",
    "no_plan_items",
    "pitfall_label",
    "pitfalls_for",
    "plan_needs",
    "procurement_facts",
    "provisional_notices",
    "quoted_total",
    "radar_svg",
    "reweighted",
    "grid_html",
    "reweighted_context",
    "severity_label",
    "status_label",
]
