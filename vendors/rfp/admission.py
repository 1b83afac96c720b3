"""What a bid and its supplier must meet to be admitted, as the RFP pack prints it
(section 8): the ★ items (符合性审查), the 资格审查 requirements and the bid bond, from
`facts`' data in the active language."""

from __future__ import annotations

from django.utils.translation import gettext as _


def mandatory_rows(data: dict) -> list[dict]:
    """The ★ items (实质性要求): a bid that fails one is invalid. A version published
    before tender settings existed has none."""
    from clusterbuy.engine.numbers import number

    from ..comparison.tender import item_label, item_source, item_unit

    signs = {"gte": "≥", "lte": "≤", "eq": "="}
    rows = []
    for index, item in enumerate(data.get("mandatory") or [], start=1):
        if item["comparison"] == "true":
            required = _("required")
        else:
            value = number(float(item["required"]), 2)
            unit = item_unit(item.get("unit", ""))
            required = f"{signs[item['comparison']]} {value} {unit}"
        rows.append(
            {
                "number": index,
                "title": "★ " + item_label(item["key"]),
                "required": required.strip(),
                "source": item_source(item.get("source", "")),
            }
        )
    return rows


def qualification_rows(data: dict) -> list[dict]:
    """The 资格审查 requirements, beside the ★ items: a supplier that fails one makes
    its bid invalid. A version published before they existed has none."""
    from ..services.qualification_items import item_citation, item_label

    return [
        {
            "number": index,
            "title": item_label(item),
            "source": item_citation(item["key"]) or _("set by the buyer"),
        }
        for index, item in enumerate(data.get("qualification") or [], start=1)
    ]


def bid_bond_text(data: dict) -> str:
    from clusterbuy.engine.numbers import money

    bond = data.get("bid_bond_cny")
    return "" if bond is None else f"{money(bond)} CNY"


def admission_rows(data: dict) -> dict:
    return {
        "mandatory": mandatory_rows(data),
        "qualification": qualification_rows(data),
        "bid_bond": bid_bond_text(data),
    }
