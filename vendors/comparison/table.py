"""The comparison table as the page, the PDF and the workbook show it: vendors as
columns, rows in groups, the best and worst value of a row marked."""

from __future__ import annotations

from decimal import Decimal
from functools import partial

from django.utils.translation import gettext as _

from clusterbuy.engine.numbers import money, number

from ..engine.detectors import below_floor, delivery_floor
from ..models import MONITORING_ITEMS, SUPPORT_CHANNELS
from . import prescores
from .budget import budget_row
from .cells import MONEY, PERCENT, Cell, Detail, Group, Row
from .claims import claims_cell
from .delivered_rows import delivered_row_specs
from .labels import (
    COMPLIANCE_ITEMS,
    compliance_label,
    current_language,
    fill_in_help,
    pitfall_label,
    shown_value,
)
from .result import Column, Comparison, SectionInfo, offered_figure

__all__ = [
    "MONEY",
    "PERCENT",
    "Cell",
    "Detail",
    "Group",
    "Row",
    "comparison_groups",
    "weight_free_groups",
    "weighted_groups",
]


#: A cell's figure: one decimal unless said (the rule: clusterbuy.engine.numbers).
_one_decimal = partial(number, digits=1)


#: The workbook's number format for each of the page's formats.
_NUMBER_FORMATS = {money: MONEY, number: "#,##0.00"}


def _highlight(
    values: list[float | Decimal | None], *, higher_is_better: bool
) -> list[str]:
    present = [v for v in values if v is not None]
    if len(present) < 2 or min(present) == max(present):
        return ["" for _ in values]
    best = max(present) if higher_is_better else min(present)
    worst = min(present) if higher_is_better else max(present)
    return ["best" if v == best else "worst" if v == worst else "" for v in values]


def _invalid_cell() -> Cell:
    """A figure stored past validation, or a price computed from one (Column.invalid)."""
    return Cell(_("invalid"), "invalid")


def _numeric_row(
    label: str,
    values: list,
    *,
    higher: bool | None,
    fmt=_one_decimal,
    invalid: list[bool] | None = None,
    number_format: str = "",
) -> Row:
    """One value per column, best and worst marked (unless ``higher`` is None); a
    cell flagged in ``invalid`` reads "invalid" and takes no part in the marking."""
    flags = invalid or [False] * len(values)
    values = [None if bad else v for v, bad in zip(values, flags, strict=True)]
    classes = (
        [""] * len(values)
        if higher is None
        else _highlight(values, higher_is_better=higher)
    )
    return Row(
        label,
        [
            _invalid_cell() if bad else Cell(fmt(v), css, value=v)
            for v, css, bad in zip(values, classes, flags, strict=True)
        ],
        number_format=number_format or _NUMBER_FORMATS.get(fmt, "General"),
    )


def _flags(cols: list[Column], figure: str) -> list[bool]:
    return [figure in c.invalid for c in cols]


def _hours(bid, severity: str) -> float | None:
    value = bid.checked("response_hours")
    if not value or value.get(severity) is None:
        return None
    return float(value[severity])


def _price_group(comparison: Comparison) -> Group:
    cols = comparison.columns
    quoted = [c.quoted_total for c in cols]
    tco = [c.normalized_tco for c in cols]
    hidden_values = [
        None
        if comparison.prices_hidden
        else sum((h["amount"] for h in c.hidden_costs), Decimal(0))
        for c in cols
    ]
    hidden_row = _numeric_row(
        _("Hidden costs added by ClusterBuy"),
        hidden_values,
        higher=False,
        fmt=money,
        invalid=_flags(cols, "normalized_tco"),
    )
    hidden_row.help = fill_in_help()
    for cell, c in zip(hidden_row.cells, cols, strict=True):
        cell.detail = [
            Detail(
                f"{h['label']}: {money(h['amount'])}",
                title=f"{h['source']} ({h['basis']})" if h["basis"] else h["source"],
            )
            for h in c.hidden_cost_list
        ]
    rows = [
        _numeric_row(
            _("Quoted price"),
            quoted,
            higher=False,
            fmt=money,
            invalid=_flags(cols, "quoted_total"),
        ),
        _numeric_row(
            _("Normalised TCO"),
            tco,
            higher=False,
            fmt=money,
            invalid=_flags(cols, "normalized_tco"),
        ),
        hidden_row,
        _breakdown_row(cols),
    ]
    rows[0].code, rows[1].code = "quoted_total", "normalized_tco"
    budget = budget_row(cols, comparison.procurement.currency)
    if budget is not None and not comparison.prices_hidden:
        rows.insert(2, budget)
    return Group(_("Price"), rows, "price")


def _breakdown_row(cols: list[Column]) -> Row:
    """The normalised TCO item by item (quoted, added, operating costs, residual):
    the items shown add up to the normalised TCO above, to the cent."""
    cells = []
    for c in cols:
        items = c.tco_breakdown_list
        if "normalized_tco" in c.invalid:
            cells.append(_invalid_cell())
            continue
        total = sum((Decimal(i["amount"]) for i in items), Decimal(0))
        cell = Cell(money(total), value=total) if items else Cell("—")
        cell.detail = [
            Detail(
                f"{i['label']}: {money(Decimal(i['amount']))}",
                title=f"{i['source']}: {i['basis']}",
            )
            for i in items
        ]
        cells.append(cell)
    return Row(
        _("Normalised TCO, item by item"),
        cells,
        help=_(
            "Every item of the normalised TCO: the bid's quoted prices, the costs "
            "ClusterBuy adds, energy, staff, failures and support over the horizon, "
            "less the residual value. The items add up to the normalised TCO."
        ),
        expandable=True,
        number_format=MONEY,
    )


def _compliance_cell(column: Column, index: int, lang: str) -> Cell:
    entry = column.compliance[index] if index < len(column.compliance) else None
    if entry is None:
        return Cell("—")
    offered = _one_decimal(shown_value(entry.offered))
    if offered_figure(entry.item) in column.invalid:
        offered = _("invalid")
    text = f"{offered} / {_one_decimal(shown_value(entry.required))}"
    if entry.unit:
        text += f" {entry.unit}"
    note = entry.note_for(lang)
    cell = Cell(text, f"status-{entry.status}", [Detail(note)] if note else [])
    figure = shown_value(entry.offered)
    if offered != _("invalid") and type(figure) in (int, float, Decimal):
        # the workbook keeps the offered figure a number, the rest of the text its format
        cell.value = figure
        rest = text[len(offered) :].replace('"', "")
        cell.number_format = f'General"{rest}"'
    return cell


def _compliance_group(cols: list[Column], lang: str) -> Group:
    rows = [
        Row(compliance_label(item), [_compliance_cell(c, index, lang) for c in cols])
        for index, item in enumerate(COMPLIANCE_ITEMS)
    ]
    passed = [sum(1 for i in c.compliance if i.status == "pass") for c in cols]
    rows.append(_numeric_row(_("Items passed"), passed, higher=True))
    return Group(_("Compliance with the sizing plan"), rows, "compliance")


def _delivered_group(cols: list[Column]) -> Group:
    """What each bid's GPUs deliver for the planned workloads (`delivered_rows`)."""
    rows = []
    for spec in delivered_row_specs(cols):
        if spec.text:
            row = Row(spec.label, [Cell(text) for text in spec.values])
        else:
            row = _numeric_row(
                spec.label,
                spec.values,
                higher=spec.higher,
                fmt=spec.fmt or _one_decimal,
                number_format=spec.number_format,
            )
        for cell, lines in zip(row.cells, spec.details, strict=False):
            cell.detail = [Detail(line) for line in lines]
        rows.append(row)
    return Group(_("Delivered capability (sizing engine)"), rows, "delivered")


def _figure_row(label: str, cols: list[Column], figure: str, **options) -> Row:
    """A row of one bid figure, read through `Bid.checked`."""
    return _numeric_row(
        label,
        [c.bid.checked(figure) for c in cols],
        invalid=_flags(cols, figure),
        **options,
    )


def _delivery_row(cols: list[Column]) -> Row:
    """Delivery (weeks): shorter is better, but only above the physical floor for
    the bid's GPU count (`detectors.delivery`): a delivery below it is marked, never
    best (issue 24: 1 week for 96 GPUs is not the best cell, it is impossible)."""
    weeks = [c.bid.checked("delivery_weeks") for c in cols]
    below = [
        w is not None
        and bool(c.bid.checked("gpu_count"))
        and below_floor(
            w,
            delivery_floor(c.bid.checked("gpu_count"), nodes=c.bid.checked("nodes")),
        )
        for w, c in zip(weeks, cols, strict=True)
    ]
    row = _numeric_row(
        _("Delivery (weeks)"),
        [None if low else w for w, low in zip(weeks, below, strict=True)],
        higher=False,
        invalid=_flags(cols, "delivery_weeks"),
    )
    for cell, w, low in zip(row.cells, weeks, below, strict=True):
        if low:
            cell.text, cell.value, cell.css = _one_decimal(w), w, "below-floor worst"
            cell.detail = [Detail(_("Below the physical floor for this GPU count"))]
    return row


def _service_group(cols: list[Column]) -> Group:
    bids = [c.bid for c in cols]
    channels = [
        len([x for x in b.checked("support_channels") or [] if x in SUPPORT_CHANNELS])
        for b in bids
    ]
    warranty = [b.checked("warranty_years") for b in bids]
    hours_invalid = _flags(cols, "response_hours")
    rows = [
        _numeric_row(
            _("Response time, severity 1 (h)"),
            [_hours(b, "sev1") for b in bids],
            higher=False,
            invalid=hours_invalid,
        ),
        _numeric_row(
            _("Response time, severity 2 (h)"),
            [_hours(b, "sev2") for b in bids],
            higher=False,
            invalid=hours_invalid,
        ),
        _figure_row(_("On-site arrival (h)"), cols, "onsite_hours", higher=False),
        _figure_row(
            _("Availability (%)"),
            cols,
            "availability_pct",
            higher=True,
            fmt=number,
            number_format=PERCENT,
        ),
        _numeric_row(
            _("Support channels"),
            channels,
            higher=True,
            invalid=_flags(cols, "support_channels"),
        ),
        _delivery_row(cols),
        _numeric_row(
            _("Warranty (years)"),
            [None if w is None else float(w) for w in warranty],
            higher=True,
            invalid=_flags(cols, "warranty_years"),
        ),
    ]
    return Group(_("Service level"), rows, "service")


def _monitoring_group(cols: list[Column]) -> Group:
    bids = [c.bid for c in cols]
    monitoring = _numeric_row(
        _("Monitoring items covered"),
        [
            len([m for m in b.checked("monitoring") or [] if m in MONITORING_ITEMS])
            for b in bids
        ],
        higher=True,
        fmt=lambda v: f"{v} / {len(MONITORING_ITEMS)}",
        invalid=_flags(cols, "monitoring"),
        number_format=f'0" / {len(MONITORING_ITEMS)}"',
    )
    alerts = Row(
        _("Configurable alert rules"),
        [
            Cell(
                _("yes") if b.configurable_alerts else _("no"),
                "" if b.configurable_alerts else "worst",
            )
            for b in bids
        ],
    )
    return Group(_("Monitoring"), [monitoring, alerts], "monitoring")


def _evidence_group(cols: list[Column]) -> Group:
    rows = [
        _numeric_row(label, [c.evidence[key] for c in cols], higher=True)
        for key, label in (
            ("case_studies", _("Case studies")),
            ("measured_outcomes", _("Measured outcomes")),
            ("site_visits", _("Site visits")),
            ("demos", _("Remote demos")),
            ("references", _("References contacted")),
        )
    ]
    return Group(_("Case-study evidence"), rows, "evidence")


def _pitfall_group(cols: list[Column], lang: str) -> Group:
    pitfalls = _numeric_row(
        _("Pitfall flags"), [len(c.pitfalls) for c in cols], higher=False
    )
    pitfalls.code = "pitfall_flags"
    for cell, c in zip(pitfalls.cells, cols, strict=True):
        cell.detail = [
            Detail(p.reason(lang), badge=pitfall_label(p.code)) for p in c.pitfalls
        ]
    return Group(_("Pitfalls"), [pitfalls], "pitfalls")


def _spec_claims_group(cols: list[Column]) -> Group:
    """Each bid's claims against the datasheet (comparison.claims), mismatches first."""
    cells = []
    for c in cols:
        text, css, lines = claims_cell(c.spec_claims)
        cells.append(Cell(text, css, [Detail(*line) for line in lines]))
    row = Row(
        _("Spec claims"),
        cells,
        help=_(
            "Memory, HBM type, TFLOPS (dense or sparse), server power, NVLink and NIC "
            "speed stated in the bid, compared with the catalog's datasheet figures; "
            "hover a claim for its source."
        ),
    )
    return Group(_("Spec claims checked against datasheets"), [row], "spec_claims")


def _section_row(section: SectionInfo, cols: list[Column]) -> Row:
    """A section's points per bid, with the criteria the evaluators disagree on."""
    row = _numeric_row(
        f"{section.title} (×{section.weight:g})",
        [c.sections.get(section.code) for c in cols],
        higher=True,
        fmt=number,
    )
    codes = {cr.code for cr in section.criteria}
    texts = {cr.code: cr.display_text for cr in section.criteria}
    for cell, c in zip(row.cells, cols, strict=True):
        cell.detail = [
            Detail(
                _("Evaluators disagree on %(criterion)s")
                % {"criterion": texts.get(code, code)}
            )
            for code, agg in c.criteria.items()
            if code in codes and agg.disagreement
        ]
        if cell.detail:
            cell.css += " disagreement"
        cell.detail += _automatic_details(c, section, texts)
    return row


def _automatic_details(
    column: Column, section: SectionInfo, texts: dict[str, str]
) -> list[Detail]:
    """The automatic scores counted in the section, their evidence as the tooltip."""
    lang = current_language()
    return [
        Detail(
            _("%(criterion)s: %(points)s/5 (automatic)")
            % {"criterion": texts[cr.code], "points": f"{auto.points:g}"},
            title=" · ".join(prescores.evidence_lines(auto, lang)),
        )
        for cr in section.criteria
        if (auto := column.automatic.get(cr.code)) and cr.code not in column.criteria
    ]


def _scored_row(comparison: Comparison) -> Row:
    """Before the rank: how complete the scores behind it are."""
    cols = comparison.columns
    row = Row(_("Scores behind the rank"), [])
    for c in cols:
        notice = prescores.provisional_notice(c, comparison)
        cell = Cell(notice or _("complete"), "provisional" if notice else "")
        cell.detail = [
            Detail(t) for t in prescores.unscored_titles(c, comparison.sections)
        ]
        row.cells.append(cell)
    return row


def _result_group(cols: list[Column], comparison: Comparison) -> Group:
    total = _numeric_row(
        _("Weighted total (0–100)"),
        [c.weighted_total for c in cols],
        higher=True,
        fmt=_one_decimal,
        number_format="0.0",
    )
    rank = _numeric_row(_("Rank"), [c.rank for c in cols], higher=False)
    total.code, rank.code = "weighted_total", "rank"
    for cell, c in zip(rank.cells, cols, strict=True):
        if c.excluded:
            cell.text = _("excluded (below technical threshold)")
            cell.css, cell.value = "worst", None
        elif c.tender is not None and not c.tender.valid:
            cell.text = _("invalid bid")
            cell.css, cell.value = "worst", None
            cell.detail = [Detail(r["message"]) for r in c.tender.reasons]
    return Group(_("Result"), [_scored_row(comparison), total, rank], "result")


def comparison_groups(comparison: Comparison) -> list[Group]:
    """The comparison table: vendors as columns, rows grouped, best/worst marked."""
    return weight_free_groups(comparison) + weighted_groups(comparison)


def weight_free_groups(comparison: Comparison) -> list[Group]:
    """The table's groups that no section weight changes (prices, delivered capacity,
    compliance, service, monitoring, evidence, pitfalls, spec claims): drawn from what
    a column holds before ranking, so `cache.reweighted_context` keeps them rendered."""
    cols = comparison.columns
    lang = current_language()
    return [
        _price_group(comparison),
        _delivered_group(cols),
        _compliance_group(cols, lang),
        _service_group(cols),
        _monitoring_group(cols),
        _evidence_group(cols),
        _pitfall_group(cols, lang),
        _spec_claims_group(cols),
    ]


def weighted_groups(comparison: Comparison) -> list[Group]:
    """The groups the section weights change: the section scores and the result."""
    cols = comparison.columns
    scores = [_section_row(section, cols) for section in comparison.sections]
    return [
        Group(_("Checklist scores (0–5)"), scores, "scores"),
        _result_group(cols, comparison),
    ]
