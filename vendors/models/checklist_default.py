"""The default evaluation checklist, built from the buyer's guide.

Seven sections: how the vendor designed for *our* workload, whether the cost is
transparent over the 3-5 year life, the evidence behind their case studies, service and
operations, the four pitfalls, price (scored from the normalised TCO with the
lowest-price baseline, MOF Order No. 87 art. 55) and team fit. Section weights sum to
100 so they read as percentages; each criterion weighs 1 within its section unless
stated. Edit the organisation's copy in the UI or the admin.

Source: ClusterBuy buyer's guide (issue 5 checklist), 2025.
"""

from django.utils.translation import gettext_noop as _

SOURCE = "ClusterBuy buyer's guide (issue 5), 2025"
TEMPLATE_NAME = _("Buyer's guide checklist")

# (code, title, weight, auto_price, [(criterion code, text, weight)])
SECTIONS = [
    (
        "architecture",
        _("Architecture"),
        20,
        False,
        [
            ("arch_scenario", _("Asked about our business scenario"), 1),
            ("arch_data", _("Asked about our data volume and where it lives"), 1),
            ("arch_balance", _("Balanced compute / network / storage design"), 1),
        ],
    ),
    (
        "cost",
        _("Cost transparency"),
        10,
        False,
        [
            ("cost_lifecycle", _("3–5 year lifecycle cost provided"), 1),
            ("cost_itemised", _("All service and software costs listed"), 1),
        ],
    ),
    (
        "cases",
        _("Case studies"),
        15,
        False,
        [
            # Was "Similar client and scenario": scoring a *similar client* makes the
            # client's kind stand in for a specific industry, which 政府采购法实施条例
            # 第二十条（四） forbids as a scoring condition (and （二）: a condition
            # unrelated to performing the contract). A comparable workload and
            # scale is what the contract needs, so the default asks for that.
            ("case_similar", _("Similar workload and scale"), 1),
            ("case_detail", _("Technical detail (network, storage choices)"), 1),
            ("case_outcome", _("Measurable outcome (before → after)"), 1),
            ("case_pitfalls", _("Pitfalls they hit and how they solved them"), 1),
            ("case_visit", _("Site visit or remote demo possible"), 1),
        ],
    ),
    (
        "service",
        _("Service and O&M"),
        20,
        False,
        [
            ("svc_channels", _("Support channels"), 1),
            ("svc_response", _("Response time by severity"), 1),
            ("svc_onsite", _("On-site arrival time"), 1),
            ("svc_monitoring", _("Monitoring from hardware to jobs"), 1),
            ("svc_alerts", _("Flexible alert rules"), 1),
            ("svc_team", _("Team knows DL frameworks and schedulers"), 1),
        ],
    ),
    (
        "pitfalls",
        _("The four pitfalls"),
        10,
        False,
        [
            ("pit_gpu_only", _("A complete cluster, not only GPU servers"), 1),
            ("pit_promises", _("No promises without evidence"), 1),
            ("pit_template", _("Proposal written for our case, not a template"), 1),
            ("pit_open", _("Open ecosystem (Slurm / Kubernetes)"), 1),
        ],
    ),
    (
        "price",
        _("Price"),
        15,
        True,
        [("price_tco", _("Normalised TCO (lowest-price baseline)"), 1)],
    ),
    (
        "team",
        _("Team fit"),
        10,
        False,
        [("team_fit", _("Fits our team's skills and way of working"), 1)],
    ),
]

DEFAULT_SECTION_TITLES: dict[str, str] = {s[0]: s[1] for s in SECTIONS}
DEFAULT_CRITERION_TEXTS: dict[str, str] = {
    code: text for s in SECTIONS for code, text, _weight in s[4]
}
#: Earlier default wordings, still stored in checklists saved before they changed:
#: shown translated (and flagged by the 第二十条 check where they restrict suppliers).
LEGACY_CRITERION_TEXTS: dict[str, str] = {
    "case_similar": _("Similar client and scenario"),
}


def section_title(code: str, title: str) -> str:
    """The title to show: translated while it is the default's, else as typed.

    The default titles are stored as their English msgids; a title a user edited is
    theirs and is never run through the catalog (it could collide with a msgid).
    """
    from django.utils.translation import gettext

    if DEFAULT_SECTION_TITLES.get(code) == title:
        return gettext(title)
    return title


def criterion_text(code: str, text: str) -> str:
    """As `section_title`, for a criterion."""
    from django.utils.translation import gettext

    if text in (DEFAULT_CRITERION_TEXTS.get(code), LEGACY_CRITERION_TEXTS.get(code)):
        return gettext(text)
    return text


def template_name(name: str) -> str:
    """The default checklist's name translated; any other name as typed."""
    from django.utils.translation import gettext

    return gettext(name) if name == TEMPLATE_NAME else name


def stored_template_name(shown: str) -> str:
    return TEMPLATE_NAME if shown.strip() == template_name(TEMPLATE_NAME) else shown


def stored_section_title(code: str, shown: str) -> str:
    """Inverse of `section_title` for a posted form: the translated default title is
    stored as the default msgid, so it stays translatable for every language."""
    default = DEFAULT_SECTION_TITLES.get(code)
    if default is not None and shown.strip() == section_title(code, default):
        return default
    return shown.strip()


def stored_criterion_text(code: str, shown: str) -> str:
    for default in (
        DEFAULT_CRITERION_TEXTS.get(code),
        LEGACY_CRITERION_TEXTS.get(code),
    ):
        if default is not None and shown.strip() == criterion_text(code, default):
            return default
    return shown.strip()
