"""The blinded-evaluator walk (issue 10): blind grading and the sealed envelope hold on
every route, every API endpoint and every export, not only on the pages someone
thought of.

The demo procurement (``load_catalog`` + ``load_demo``: a sizing plan, a TCO run,
three bids) gets two more bids from vendors whose names and prices are easy to spot
(``tests.vendors.blind_support``: "Zebracorp", "Quokka Systems", unit prices such as
7,777,777 and 3,141,592, names in proposal texts, line items, case studies, file names,
score notes and the decision's rationale), then blind grading and the sealed envelope.

The IT lead (a technical evaluator who has not submitted) then GETs every URL pattern
of the project (found through ``django.urls.get_resolver()``, parameters filled with
the procurement's objects, each export format, each tab, with and without the htmx
header, in English and Chinese, plus the htmx weights form) and every path of the
OpenAPI schema, and nothing they receive -- HTML, JSON, XLSX cells and comments, PDF
text, CSV, headers -- may hold:

- a fragment of a bidder's name (the names, their Chinese halves and the spotted
  short names);
- a bid's price, TCO or hidden cost (from 10,000 CNY, not a round 10,000: see
  MIN_PRICE_CNY), plain, with thousands separators, with or without cents, in 万;
- a price ratio ("97% of the hardware cost", "占硬件成本的 97%");
- in API JSON, a bidder's vendor id under a vendor key, case-study ids on a bid, or a
  vendor's ``bid_ids``.

It cannot pass vacuously: the detector is shown finding planted leaks; the buyer's
walk over the same URLs must find the names, the prices and the ratio on the pages
that would leak them; and a walk with the visibility rule switched off must fail.
The manager (blind, prices visible) walks too, for names and ids.
"""

from __future__ import annotations

import io
import json
import os
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal

import docx
import openpyxl
import pypdf
import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from clusterbuy import registry
from clusterbuy.models import Procurement
from tests.vendors.blind_support import QUOKKA, ZEBRA, blind_sealed_bids

pytestmark = pytest.mark.django_db  # every test reads the module's world

LANGUAGES = ("en", "zh-hans")
FORMATS = ("xlsx", "pdf", "csv")
SKIPPED_ROUTES = {"logout", "set_language"}  # they change the session, not data shown
# Prices looked for: from 10,000 CNY, and not round to 10,000 CNY (the demo's round
# prices, 400,000 or 1,500,000, are also catalogue prices and TCO defaults). The
# spotted bids' prices and every total, TCO and hidden cost derived from them are not
# round.
MIN_PRICE_CNY = 10_000
ROUND_CNY = 10_000
# Short names a reader would recognise, beyond the names themselves.
SPOTTED = ("Zebracorp", "Quokka")

# Which object a path parameter names (`pk` / `id` by the collection before it).
OBJECT_KWARGS = {
    "procurement_pk": "procurement",
    "bid_pk": "bid",
    "vendor_pk": "vendor",
    "item_pk": "line_item",
    "attachment_pk": "attachment",
    "workload_id": "workload",
    "scenario_id": "scenario",
    "run_id": "run",
    "inv_pk": "invitation",
    "q_pk": "question",
}
# The supplier portal's routes take a vendor's signed link, not a buyer's session: a
# vendor sees its own submission there (tests/vendors/test_portal_*.py).
PORTAL_KWARG = "token"
COLLECTIONS = {
    "procurements": "procurement",
    "bids": "bid",
    "vendors": "vendor",
    "case-studies": "case_study",
    "checklists": "checklist_template",
    "checklist-templates": "checklist_template",
    "workloads": "workload",
    "sizing-plans": "sizing_plan",
    "scenarios": "scenario",
    "tco-scenarios": "scenario",
    "runs": "run",
    "accelerators": "accelerator_key",
    "model-presets": "model_preset_key",
    "invitations": "invitation",
    "questions": "question",
}
PK_BY_URL_NAME = {  # `pk` of routes whose path does not say what it names
    "api-procurement-stage": "procurement",
    "tco-api-scenarios": "procurement",
}


# --- the world -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The demo plus two spotted bids, loaded once, rolled back at the end."""
    media = override_settings(MEDIA_ROOT=os.environ["MEDIA_ROOT"])
    with django_db_blocker.unblock(), media:
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield _load_world()
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def _load_world() -> dict:
    from sizing.models import ModelPreset, SizingPlan, Workload
    from tco.models import TcoRun, TcoScenario
    from vendors.models import Bid, ChecklistTemplate, Invitation, RfpQuestion
    from vendors.portal import invitations

    call_command("load_catalog", verbosity=0)
    call_command("load_demo", verbosity=0)
    procurement = Procurement.objects.get(organisation__name__startswith="演示科技")
    users = {
        m.user.username: m.user for m in procurement.organisation.memberships.all()
    }
    spotted = blind_sealed_bids(
        procurement=procurement,
        buyer=users["demo-buyer"],
        admin=users["demo-admin"],
    )
    # An RFP invitation of a spotted vendor, whose question names it: the buyer's
    # invitations page, questions and their API must not name it to a blind viewer.
    zebra = next(b.vendor for b in spotted["bids"] if b.vendor.name == ZEBRA)
    invitation = Invitation.objects.create(
        procurement=procurement,
        vendor=zebra,
        email="bids@zebracorp.example",
        expires_at=timezone.now() + timedelta(days=30),
    )
    question = RfpQuestion.objects.create(
        procurement=procurement,
        invitation=invitation,
        question=f"{ZEBRA} asks: may {ZEBRA} offer liquid cooling?",
    )
    # An invited vendor with no bid, whose name the leak detector knows (SPOTTED):
    # the vendor directory must not list it to a blind viewer either.
    invitations.invite(
        procurement,
        users["demo-admin"],
        vendor_name="Quokka Invited Ltd",
        email="rfp@invited.example",
        request_base_url="http://testserver/",
    )
    common = {
        "procurement": procurement,
        "invitation": invitation,
        "question": question,
        "workload": Workload.objects.filter(procurement=procurement).first(),
        "sizing_plan": SizingPlan.objects.filter(procurement=procurement).first(),
        "scenario": TcoScenario.objects.filter(procurement=procurement).first(),
        "run": TcoRun.objects.filter(scenario__procurement=procurement).first(),
        "checklist_template": ChecklistTemplate.objects.filter(
            organisation=procurement.organisation
        ).first(),
        "accelerator_key": "h100-sxm-80gb",
        "model_preset_key": ModelPreset.objects.order_by("key").first().key,
    }
    # One set of consistent objects per spotted bid (its vendor, line, file, study).
    contexts = [
        common
        | {
            "bid": bid,
            "vendor": bid.vendor,
            "line_item": bid.line_items.first(),
            "attachment": bid.attachments.first(),
            "case_study": bid.case_studies.first(),
        }
        for bid in spotted["bids"]
    ]
    missing = [k for c in contexts for k, v in c.items() if v is None]
    assert not missing, f"the world lacks {missing}"
    bids = list(Bid.objects.filter(procurement=procurement).select_related("vendor"))
    return {
        "procurement": procurement,
        "contexts": contexts,
        "it_lead": users["demo-it"],
        "manager": users["demo-manager"],
        "buyer": users["demo-buyer"],
        "vendor_names": sorted({b.vendor.name for b in bids}),
        "vendor_ids": {b.vendor_id for b in bids},
        "case_study_ids": {c.pk for c in spotted["case_studies"]},
        "bid_ids": {b.pk for b in bids},
    }


# --- what counts as a leak ------------------------------------------------------------


def _has_cjk(text: str) -> bool:
    return re.search(r"[\u3400-\u9fff]", text) is not None


def name_fragments(names: list[str]) -> list[str]:
    """Each name, its Chinese half (the demo's names are bilingual) and SPOTTED."""
    fragments = set(SPOTTED)
    for name in names:
        fragments.add(name)
        fragments.update(w for w in name.split() if _has_cjk(w))
    return sorted(fragments, key=len, reverse=True)


def price_forms(amounts: set[Decimal]) -> tuple[set[str], set[str]]:
    """How a page could print each amount (see MIN_PRICE_CNY): its whole CNY (cents cut or rounded; with
    or without thousands separators, with or without cents) and its 万 (0-2 decimals,
    3 digits at least: 777.78万, 778万, 24.7万)."""
    wholes: set[str] = set()
    wans: set[str] = set()
    for amount in amounts:
        if amount < MIN_PRICE_CNY or amount % ROUND_CNY == 0:
            continue
        wholes |= {
            str(int(amount)),
            str(int(amount.quantize(Decimal(1), ROUND_HALF_UP))),
        }
        shown = {f"{amount / 10_000:.{digits}f}" for digits in (0, 1, 2)}
        wans |= {w for w in shown if len(w.replace(".", "")) >= 3}  # not 25万
    return wholes, wans


# A number as a page prints it (never a piece of a longer one), and a number of 万.
NUMBER = re.compile(r"(?<![\d,.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d,])")
WAN = re.compile(r"(?<![\d,.])(\d+(?:\.\d+)?)\s?万")


# A share of a bid's cost, as the detectors word one ("97% of the hardware cost",
# "占硬件成本的 97%"); ClusterBuy's own rules ("19 per cent of total cluster cost",
# "约占集群总成本的 19%") are general figures, not a bid's.
PRICE_RATIO = re.compile(
    r"\d+(?:\.\d+)?\s?%\s*of (?:the )?(?:\w+ )?(?:cost|price|TCO)"
    r"|占(?:硬件|总)?(?:成本|报价|价格|总价)的\s*\d+(?:\.\d+)?\s?%",
    re.IGNORECASE,
)


@dataclass
class Detector:
    names: list[str]
    wholes: set[str]  # price_forms
    wans: set[str]
    vendor_ids: set[int]
    case_study_ids: set[int]
    bid_ids: set[int]
    _names: re.Pattern = field(init=False)

    def __post_init__(self):
        self._names = re.compile(
            "|".join(
                re.escape(n) if _has_cjk(n) else rf"(?<![^\W\d_]){re.escape(n)}"
                for n in self.names
            ),
            re.IGNORECASE,
        )

    def in_text(self, text: str) -> list[str]:
        found = [f"name {m.group(0)!r}" for m in self._names.finditer(text)]
        found += [
            f"price {m.group(0)!r}"
            for m in NUMBER.finditer(text)
            if m.group(1).replace(",", "") in self.wholes
        ]
        found += [
            f"price {m.group(0)!r}"
            for m in WAN.finditer(text)
            if m.group(1) in self.wans
        ]
        found += [f"ratio {m.group(0)!r}" for m in PRICE_RATIO.finditer(text)]
        return found

    def in_json(self, value, path: str = "$") -> list[str]:
        """Vendor ids, case-study ids on bids and bid ids of vendors, by key."""
        found: list[str] = []
        if isinstance(value, dict):
            for key, item in value.items():
                where = f"{path}.{key}"
                if "vendor" in key:
                    ids = item.get("id") if isinstance(item, dict) else item
                    if isinstance(ids, int) and ids in self.vendor_ids:
                        found.append(f"vendor id at {where}")
                if key == "case_studies" and set(_ints(item)) & self.case_study_ids:
                    found.append(f"case-study ids at {where}")
                if key in ("bid_ids", "bids") and set(_ints(item)) & self.bid_ids:
                    found.append(f"bid ids at {where}")
                found += self.in_json(item, where)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                found += self.in_json(item, f"{path}[{index}]")
        return found


def _ints(value) -> list[int]:
    return [v for v in value if isinstance(v, int)] if isinstance(value, list) else []


def file_texts(body: bytes) -> list[str]:
    """A body as text: XLSX cells and comments, DOCX paragraphs and table cells, PDF
    text, a ZIP's member names and each member's text, anything else decoded."""
    texts: list[str] = []
    if body.startswith(b"PK\x03\x04"):
        archive = zipfile.ZipFile(io.BytesIO(body))
        names = archive.namelist()
        if "xl/workbook.xml" in names:
            workbook = openpyxl.load_workbook(io.BytesIO(body))
            for sheet in workbook.worksheets:
                texts.append(sheet.title)
                for row in sheet.iter_rows():
                    for cell in row:
                        texts.append("" if cell.value is None else str(cell.value))
                        if cell.comment is not None:
                            texts.append(cell.comment.text)
        elif "word/document.xml" in names:
            document = docx.Document(io.BytesIO(body))
            texts += [p.text for p in document.paragraphs]
            texts += [
                cell.text
                for table in document.tables
                for row in table.rows
                for cell in row.cells
            ]
        else:
            for name in names:
                texts.append(name)
                texts += file_texts(archive.read(name))
    elif body.startswith(b"%PDF"):
        reader = pypdf.PdfReader(io.BytesIO(body))
        texts += [page.extract_text() or "" for page in reader.pages]
    else:
        texts.append(body.decode("utf-8", errors="replace"))
    return texts


def texts_of(response) -> list[str]:
    """Everything a response shows: headers, and the body as text (`file_texts`:
    XLSX, DOCX, ZIP members, PDF; JSON, HTML, CSV)."""
    texts = [f"{k}: {v}" for k, v in response.items()]
    body = (
        b"".join(response.streaming_content) if response.streaming else response.content
    )
    kind = response.get("Content-Type", "")
    texts += file_texts(body)
    if "json" in kind and body:
        texts.append(json.dumps(json.loads(body), ensure_ascii=False))
    return texts


def leaks_in(response, detector: Detector) -> list[str]:
    found = [f for text in texts_of(response) for f in detector.in_text(text)]
    if "json" in response.get("Content-Type", "") and response.content:
        found += detector.in_json(json.loads(response.content))
    return found


# --- the routes ----------------------------------------------------------------------


def _kwargs_of(pattern) -> list[str]:
    if getattr(pattern, "converters", None):
        return list(pattern.converters)
    regex = getattr(pattern, "regex", None)
    return list(regex.groupindex) if regex is not None else []


def _patterns(resolver, prefix="", namespace=None, inherited=()) -> Iterator:
    for entry in resolver.url_patterns:
        kwargs = [*inherited, *_kwargs_of(entry.pattern)]
        if isinstance(entry, URLResolver):
            ns = entry.namespace
            ns = f"{namespace}:{ns}" if ns and namespace else ns or namespace
            yield from _patterns(entry, prefix + str(entry.pattern), ns, kwargs)
        elif isinstance(entry, URLPattern) and entry.name:
            name = f"{namespace}:{entry.name}" if namespace else entry.name
            yield prefix + str(entry.pattern), name, kwargs


def _object_of(route: str, name: str, kwarg: str) -> str:
    if kwarg in OBJECT_KWARGS:
        return OBJECT_KWARGS[kwarg]
    if name in PK_BY_URL_NAME:
        return PK_BY_URL_NAME[name]
    segments = [s for s in re.split(r"[/.]", route) if s]
    named = re.compile(rf"[<:{{]{kwarg}[>}}]")
    before = segments[next(i for i, s in enumerate(segments) if named.search(s)) - 1]
    if before in COLLECTIONS:
        return COLLECTIONS[before]
    raise LookupError(f"{route} ({name}): say what {kwarg!r} names in the walk")


def _values(kwarg: str, obj: str, context: dict) -> list:
    if kwarg == "fmt":
        return list(FORMATS)
    if kwarg == "slug":
        return [slug for slug, _label, _url in registry.tabs()]
    value = context[obj]
    return [value if isinstance(value, str) else value.pk]


def page_urls(world) -> list[str]:
    """Every named URL pattern but the admin's, filled from each context."""
    urls: dict[str, None] = {}
    for route, name, kwargs in _patterns(get_resolver()):
        if route.startswith(("admin/", "api/")) or name in SKIPPED_ROUTES:
            continue
        if "format" in kwargs or PORTAL_KWARG in kwargs:
            continue  # `.json` suffixes repeat a route; the portal is a vendor's
        for context in world["contexts"]:
            choices = [[{}]]
            for kwarg in kwargs:
                obj = (
                    None if kwarg in ("fmt", "slug") else _object_of(route, name, kwarg)
                )
                choices.append([{kwarg: v} for v in _values(kwarg, obj, context)])
            for combination in _product(choices):
                urls[reverse(name, kwargs=combination)] = None
    return list(urls)


def _product(choices: list[list[dict]]) -> list[dict]:
    combos = [{}]
    for options in choices:
        combos = [c | o for c in combos for o in options]
    return combos


def api_urls(world, schema: dict) -> list[str]:
    """Every path of the OpenAPI schema with a GET, filled from each context."""
    urls: dict[str, None] = {}
    for path, operations in schema["paths"].items():
        if "get" not in operations or f"{{{PORTAL_KWARG}}}" in path:
            continue
        params = re.findall(r"{(\w+)}", path)
        for context in world["contexts"]:
            url = path
            for param in params:
                obj = _object_of(path, path, param)
                url = url.replace(f"{{{param}}}", str(_values(param, obj, context)[0]))
            urls[url] = None
    return list(urls)


# --- walking -------------------------------------------------------------------------


# Files (exports, templates, attachments, reports): no htmx variant of a download.
DOWNLOAD = re.compile(r"\.\w+$|/attachments/\d+/$")


@dataclass
class Walk:
    answers: dict[str, int] = field(default_factory=dict)
    leaks: dict[str, list[str]] = field(default_factory=dict)


def walk(client, world, detector: Detector) -> Walk:
    schema = client.get("/api/v1/schema/", {"format": "json"}).json()
    pages, apis = page_urls(world), api_urls(world, schema)
    result = Walk()
    procurement = world["procurement"]
    requests = [
        (url, language, htmx)
        for url in pages
        for language in LANGUAGES
        for htmx in ((False,) if DOWNLOAD.search(url) else (False, True))
    ] + [(url, language, False) for url in apis for language in LANGUAGES]
    for url, language, htmx in requests:
        headers = {"HTTP_ACCEPT_LANGUAGE": language}
        if htmx:
            headers["HTTP_HX_REQUEST"] = "true"
        _record(
            result,
            f"GET {url} [{language}{' htmx' if htmx else ''}]",
            client.get(url, **headers),
            detector,
        )
    weights = reverse("vendors:comparison-weights", args=[procurement.pk])
    for language in LANGUAGES:
        response = client.post(
            weights,
            {"w_price": "30"},
            HTTP_HX_REQUEST="true",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        _record(result, f"POST {weights} [{language} htmx]", response, detector)
    return result


def _record(result: Walk, label: str, response, detector: Detector) -> None:
    result.answers[label] = response.status_code
    assert response.status_code < 500, f"{label}: {response.status_code}"
    found = leaks_in(response, detector)
    if found:
        result.leaks[label] = sorted(set(found))


def _amounts(client, world) -> set[Decimal]:
    """Every price the buyer sees: unit prices, line amounts, quoted totals, TCOs,
    hidden costs."""
    procurement = world["procurement"]
    base = f"/api/v1/procurements/{procurement.pk}"
    amounts: set[Decimal] = set()
    for bid in client.get(f"{base}/bids/").json()["results"]:
        amounts.add(Decimal(bid["quoted_total"]))
        for line in bid["line_items"]:
            amounts.update({Decimal(line["unit_price"]), Decimal(line["amount"])})
    for entry in client.get(f"{base}/comparison/").json():
        amounts.update(
            {Decimal(entry["quoted_total"]), Decimal(entry["normalized_tco"])}
        )
        amounts.update(Decimal(h["amount"]) for h in entry["hidden_costs"])
    return amounts


@pytest.fixture(scope="module")
def detector(world, django_db_blocker) -> Detector:
    from django.test import Client

    client = Client()
    client.force_login(world["buyer"])
    with django_db_blocker.unblock():
        amounts = _amounts(client, world)
    wholes, wans = price_forms(amounts)
    return Detector(
        names=name_fragments(world["vendor_names"]),
        wholes=wholes,
        wans=wans,
        vendor_ids=world["vendor_ids"],
        case_study_ids=world["case_study_ids"],
        bid_ids=world["bid_ids"],
    )


@pytest.fixture(scope="module")
def buyer_walk(world, detector, django_db_blocker) -> Walk:
    from django.test import Client

    client = Client()
    client.force_login(world["buyer"])
    with django_db_blocker.unblock():
        return walk(client, world, detector)


# --- the tests -----------------------------------------------------------------------


def test_the_detector_finds_planted_leaks(world, detector):
    zebra_vendor = world["contexts"][0]["vendor"]
    planted = {
        "name": f"Proposal by {ZEBRA}",
        "name, lower case": "zebracorp_quote.xlsx",
        "short name": "Quokka's team",
        "full name": QUOKKA,
        "Chinese half of a demo name": "卡多多服务器",
        "price": "GPU servers 7777777.00",
        "price with separators": "CNY 7,777,777",
        "price in 万": "777.78万",
        "price in a sentence": "quoted 3,141,592 for the servers",
        "ratio": "GPU servers are 97% of the hardware cost",
        "ratio in Chinese": "GPU 服务器占硬件成本的 97%",
    }
    for what, text in planted.items():
        assert detector.in_text(text), f"the detector misses a {what}: {text!r}"
    assert detector.in_json({"vendor": {"id": zebra_vendor.pk, "name": "Vendor 1"}})
    assert detector.in_json({"results": [{"vendor": zebra_vendor.pk}]})
    case_study = world["contexts"][0]["case_study"]
    assert detector.in_json({"case_studies": [case_study.pk]})
    assert detector.in_json({"bid_ids": [world["contexts"][0]["bid"].pk]})
    # and not on what a blind evaluator may see
    harmless = (
        "Vendor 1",
        "[vendor] proposes",
        "Recompute ranking",
        "77,777,771",
        "CNY 400,000",  # round: a catalogue price as much as a bid's
        "约 25 万",  # two digits of 万 stand for any of 10,000 prices
        "集群互联约占集群总成本的 19%",  # a general rule, not a bid's share
    )
    for text in harmless:
        assert not detector.in_text(text), text
    assert not detector.in_json({"vendor": {"id": None, "name": "Vendor 1"}})


def test_the_buyer_walk_sees_names_and_prices(world, buyer_walk):
    """The positive control: the walk reaches the pages that would leak."""
    procurement = world["procurement"]
    bid = world["contexts"][0]["bid"]
    must_leak = [
        reverse("vendors:comparison", args=[procurement.pk]),
        reverse("vendors:bids", args=[procurement.pk]),
        reverse("vendors:bid-detail", args=[procurement.pk, bid.pk]),
        reverse("vendors:vendor-detail", args=[bid.vendor_id]),
        reverse("vendors:comparison-export", args=[procurement.pk, "xlsx"]),
        reverse("vendors:comparison-export", args=[procurement.pk, "pdf"]),
        reverse(
            "vendors:attachment-download",
            args=[procurement.pk, bid.pk, bid.attachments.first().pk],
        ),
        f"/api/v1/procurements/{procurement.pk}/bids/",
        f"/api/v1/procurements/{procurement.pk}/comparison/",
        f"/api/v1/vendors/{bid.vendor_id}/case-studies/",
    ]
    for url in must_leak:
        label = f"GET {url} [en]"
        assert buyer_walk.answers[label] == 200, label
        assert buyer_walk.leaks.get(label), f"{label}: the buyer should see names"
    everything = " ".join(f for found in buyer_walk.leaks.values() for f in found)
    for expected in (
        "Zebracorp",
        "Quokka",
        "7,777,777",
        "3,141,592",
        # No ratio: the world has a sizing plan, so gpu_only reasons from the plan's
        # bill of materials (prices, caught above); the "97% of the hardware cost"
        # share is its no-plan fallback, and the ratio pattern is proven on that
        # wording in test_the_detector_finds_planted_leaks.
    ):
        assert expected in everything, expected


@pytest.mark.parametrize("persona", ["it_lead", "manager"])
def test_a_blinded_evaluator_walks_every_route_and_finds_nothing(
    world, detector, buyer_walk, persona, client_for, db
):
    user = world[persona]
    walked = walk(client_for(user), world, detector)
    if persona == "manager":  # blind, but the manager may see prices
        walked.leaks = {
            k: [f for f in v if f.startswith(("name", "vendor", "case", "bid"))]
            for k, v in walked.leaks.items()
        }
        walked.leaks = {k: v for k, v in walked.leaks.items() if v}
    report = "\n".join(f"{k}: {v}" for k, v in sorted(walked.leaks.items()))
    assert not walked.leaks, f"{len(walked.leaks)} responses leak:\n{report}"
    # Coverage: the same requests as the buyer's, most of them answered.
    assert walked.answers.keys() == buyer_walk.answers.keys()
    reached = [k for k, status in walked.answers.items() if status == 200]
    leaky_for_buyer = [k for k in buyer_walk.leaks if walked.answers[k] == 200]
    print(
        f"{persona}: {len(walked.answers)} requests, {len(reached)} answered 200, "
        f"{len(leaky_for_buyer)} of them leak to nobody but the buyer"
    )
    assert len(leaky_for_buyer) >= 20


def test_the_walk_fails_when_the_visibility_rule_is_off(
    world, detector, client_for, db, monkeypatch
):
    from vendors import visibility

    monkeypatch.setattr(visibility, "viewer_variant", lambda *args: (False, False))
    walked = walk(client_for(world["it_lead"]), world, detector)
    everything = " ".join(f for found in walked.leaks.values() for f in found)
    assert "Zebracorp" in everything and "7,777,777" in everything
    assert len(walked.leaks) >= 20
