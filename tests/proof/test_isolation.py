"""Organisation isolation, proven route by route.

Every URL pattern with an object in its path is walked (UI and API, found through
``django.urls.get_resolver()``, so a new route is tested the day it is added). Its
parameters are filled with the demo organisation's objects (org B, from
``load_catalog`` + ``load_demo``), and org A's administrator, who may do everything in
org A, must get 404 for every method the route accepts -- not 403 (that would confirm
the object exists), not 200 -- and nothing in the database may change.

A positive control makes each 404 meaningful: org B's own administrator GETs the same
URL and must not get 404, which proves the parameters name real, consistent objects.

Unknown parameter names fail the test at collection: map them in OBJECT_KWARGS (or
PK_BY_URL_NAME for ``pk``) when adding a route.
"""

from __future__ import annotations

import os
import re

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from clusterbuy.models import Role
from tests.factories import OrganisationFactory, member, pdf_bytes
from tests.vendors.test_support import at_decision_stage

# Pages without organisation data: the public catalogue (keys, not ids).
PUBLIC = {"api-accelerator-detail", "api-model-preset-detail"}

# Path parameters that are not objects, and the value the walk uses for them.
NON_OBJECT_KWARGS = {"slug": "requirements", "fmt": "xlsx"}

# Which org-B object a parameter names. `pk` depends on the route, see below.
OBJECT_KWARGS = {
    "procurement_pk": "procurement",
    "workload_id": "workload",
    "scenario_id": "scenario",
    "scenario_pk": "scenario",
    "run_id": "run",
    "bid_pk": "bid",
    "item_pk": "line_item",
    "attachment_pk": "attachment",
    "vendor_pk": "vendor",
    "inv_pk": "invitation",
    "q_pk": "question",
}

# `pk` in routes that do not start with procurements/<pk>/ (the procurement's pages).
PK_BY_URL_NAME = {
    "api-procurement-detail": "procurement",
    "api-procurement-stage": "procurement",
    "api-workload-detail": "workload",
    "api-sizing-plan-detail": "sizing_plan",
    "tco-api-run-detail": "run",
    "tco-api-run-report": "run",
    "tco-api-run-cancel": "run",
    "tco-api-scenarios": "procurement",
    "tco-api-scenario-reconciliation": "procurement",
    "vendors:vendor-detail": "vendor",
    "vendors:checklist-edit": "checklist_template",
    "vendors:checklist-copy": "checklist_template",
    "vendors:checklist-delete": "checklist_template",
    "api-vendor-detail": "vendor",
    "api-checklist-detail": "checklist_template",
    "api-case-study": "case_study",
    "api-bid": "bid",
    "api-rfp-invitation": "invitation",
    "api-rfp-invitation-resend": "invitation",
    "api-rfp-question": "question",
    "api-rfp-question-redaction": "question",
}

# The supplier portal's credential is its signed link, not a membership: those routes
# are proven in tests/vendors/test_portal_*.py (another procurement's link, tampered,
# expired and revoked links).
TOKEN_KWARG = "token"

UNSAFE_BODY = {"name": "x"}
# Org A's own lazily created defaults (a GET may create them): made before the snapshot.
WARM_UP = ["/api/v1/checklist-templates/"]
APPS = ("clusterbuy", "sizing", "tco", "vendors", "authtoken", "auth")


def _kwargs_of(pattern) -> list[str]:
    if hasattr(pattern, "converters") and pattern.converters:
        return list(pattern.converters)
    regex = getattr(pattern, "regex", None)
    return list(regex.groupindex) if regex is not None else []


def _walk(resolver, prefix="", namespace=None, inherited=()):
    for entry in resolver.url_patterns:
        kwargs = [*inherited, *_kwargs_of(entry.pattern)]
        if isinstance(entry, URLResolver):
            ns = entry.namespace
            if ns and namespace:
                ns = f"{namespace}:{ns}"
            yield from _walk(
                entry, prefix + str(entry.pattern), ns or namespace, kwargs
            )
        elif isinstance(entry, URLPattern):
            name = (
                f"{namespace}:{entry.name}" if namespace and entry.name else entry.name
            )
            yield prefix + str(entry.pattern), name, entry.callback, kwargs


def _object_for(route: str, name: str, kwarg: str) -> str:
    if kwarg == "pk":
        if re.match(r"^procurements/<int:pk>/", route):
            return "procurement"
        if name in PK_BY_URL_NAME:
            return PK_BY_URL_NAME[name]
        raise LookupError(
            f"{route} ({name}): add the object `pk` names to PK_BY_URL_NAME"
        )
    if kwarg in OBJECT_KWARGS:
        return OBJECT_KWARGS[kwarg]
    raise LookupError(f"{route} ({name}): unknown path parameter {kwarg!r}")


def _methods(callback) -> tuple[list[str], bool]:
    """(methods to try, whether the view says exactly which it accepts)."""
    actions = getattr(callback, "actions", None)
    if actions:  # a DRF viewset route
        return sorted(m.upper() for m in actions), True
    cls = getattr(callback, "cls", None)
    if cls is not None:  # a DRF APIView
        names = ("get", "post", "put", "patch", "delete")
        return [m.upper() for m in names if hasattr(cls, m)], True
    return ["GET", "POST", "DELETE"], False


def _routes():
    routes = []
    for route, name, callback, kwargs in _walk(get_resolver()):
        if route.startswith("admin/") or "format" in kwargs:
            continue  # Django's admin is superuser-only; `.json` suffixes repeat a route
        objects = [k for k in kwargs if k not in NON_OBJECT_KWARGS]
        if not objects or name in PUBLIC or TOKEN_KWARG in kwargs:
            continue
        if not name:
            raise LookupError(f"{route}: name the route so the walk can reverse it")
        mapping = {k: _object_for(route, name, k) for k in objects}
        fixed = {k: NON_OBJECT_KWARGS[k] for k in kwargs if k in NON_OBJECT_KWARGS}
        routes.append(pytest.param(name, mapping, fixed, callback, id=name))
    return routes


ROUTES = _routes()


def test_the_walk_covers_every_app():
    names = [p.values[0] for p in ROUTES]
    assert len(names) == len(set(names)), "two routes share a name"
    for prefix in ("procurement-", "sizing:", "tco:", "vendors:", "api-", "tco-api-"):
        assert any(n.startswith(prefix) for n in names), prefix


# --- org B: the demo organisation ---------------------------------------------------


@pytest.fixture(scope="module")
def org_b(django_db_setup, django_db_blocker):
    """Load the demo once for the module, inside a transaction rolled back at the end."""
    media = override_settings(MEDIA_ROOT=os.environ["MEDIA_ROOT"])
    with django_db_blocker.unblock(), media:
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield _load_org_b()
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def _load_org_b() -> dict:
    from clusterbuy.models import Procurement
    from sizing.models import SizingPlan, Workload
    from tco.models import TcoRun, TcoScenario
    from vendors.models import (
        Bid,
        BidAttachment,
        CaseStudy,
        ChecklistTemplate,
        RfpQuestion,
    )
    from vendors.portal import invitations
    from vendors.services import attachments, checklists, decisions, suppliers

    call_command("load_catalog", verbosity=0)
    call_command("load_demo", verbosity=0)
    procurement = Procurement.objects.get(organisation__name__startswith="演示科技")
    organisation = procurement.organisation
    admin = organisation.memberships.get(role=Role.ADMIN).user
    bid = (
        Bid.objects.filter(procurement=procurement, line_items__isnull=False)
        .distinct()
        .first()
    )
    assert bid is not None, "load_demo should give the procurement a bid with lines"
    attachment = BidAttachment.objects.filter(bid=bid).first()
    if attachment is None:
        attachment = attachments.add_attachment(
            bid=bid,
            user=admin,
            upload=SimpleUploadedFile("quote.pdf", pdf_bytes()),
        )
    case_study = CaseStudy.objects.filter(vendor=bid.vendor).first()
    if case_study is None:
        case_study = suppliers.create_case_study(
            vendor=bid.vendor, client_industry="Isolation check"
        )
    template = ChecklistTemplate.objects.filter(organisation=organisation).first()
    if template is None:
        template = checklists.ensure_default_template(organisation=organisation)
    invitation = invitations.invite(
        procurement,
        admin,
        vendor_name="Isolation Check Vendor",
        email="bids@isolation.example",
        request_base_url="http://testserver/",
    )
    question = RfpQuestion.objects.create(
        procurement=procurement, invitation=invitation, question="Isolation check?"
    )
    objects = {
        "procurement": procurement,
        "invitation": invitation,
        "question": question,
        "workload": Workload.objects.filter(procurement=procurement).first(),
        "sizing_plan": SizingPlan.objects.filter(procurement=procurement).first(),
        "scenario": TcoScenario.objects.filter(procurement=procurement).first(),
        "run": TcoRun.objects.filter(scenario__procurement=procurement).first(),
        "bid": bid,
        "line_item": bid.line_items.first(),
        "attachment": attachment,
        "vendor": bid.vendor,
        "case_study": case_study,
        "checklist_template": template,
    }
    if not hasattr(procurement, "vendor_decision"):
        at_decision_stage(procurement)
        decisions.record_decision(
            procurement=procurement,
            user=admin,
            bid=bid,
            rationale="Isolation check",
            override_reason="Isolation check",  # whatever its rank
        )
    from vendors.services import acceptance

    if acceptance.plan_for(procurement) is None:  # the acceptance routes need one
        acceptance.create_acceptance_plan(procurement=procurement, user=admin)
    from vendors.services import tender

    if tender.stored_tender_settings(procurement) is None:  # the review needs them
        tender.update_tender_settings(procurement=procurement, user=admin)
    # The committee routes need a roster with the owner on it, summed marks and an
    # issued 评标报告 (the commercial regime: no statutory minimum size).
    from vendors.models import Bid as _Bid
    from vendors.services import committee, committee_scoring
    from vendors.services import evaluation_report as reports

    if committee.committee_of(procurement) is None:
        committee.set_committee(
            procurement=procurement,
            user=admin,
            seats=[committee.Seat(admin, "buyer_rep", True)],
        )
        criteria, _weights = committee_scoring.technical_criteria(procurement)
        for entry in committee_scoring.board(procurement=procurement, user=admin):
            committee_scoring.record_member_scores(
                procurement=procurement,
                user=admin,
                bid=_Bid.objects.get(pk=entry.bid_id),
                marks=[committee_scoring.Mark(c.code, 3) for c in criteria],
            )
        committee_scoring.submit_member_scores(procurement=procurement, user=admin)
    if reports.issued_report(procurement) is None:
        reports.issue_report(procurement=procurement, user=admin)
    # The price-justification route reads the bid's request (87号令 第六十条): one,
    # written directly (the demo's prices are not abnormally low).
    from vendors.models import PriceJustification

    PriceJustification.objects.get_or_create(
        bid=bid, defaults={"request_note": "Isolation check", "requested_by": admin}
    )
    # The reconciliation route needs a scenario that has a counterpart: the chosen
    # bid's own scenario beside the plan's (tco.reconciliation.pair_for).
    from sizing.models import SizingPlan
    from tco import reconciliation
    from tco import services as tco_services

    def paired():
        return next(
            (
                s
                for s in TcoScenario.objects.filter(procurement=procurement)
                if reconciliation.pair_for(scenario=s, user=admin) is not None
            ),
            None,
        )

    if paired() is None:
        plan = SizingPlan.objects.filter(procurement=procurement).latest("pk")
        for source in ({"sizing_plan": plan.pk}, {"bid": bid.pk}):
            tco_services.create_scenario_from_source(
                procurement=procurement, user=admin, **source
            )
    objects["scenario"] = paired() or objects["scenario"]
    missing = [k for k, v in objects.items() if v is None]
    assert not missing, f"load_demo created no {missing} for the demo procurement"
    return {"objects": objects, "admin": admin}


def _snapshot() -> dict:
    """Every row of our apps, as values: a denied request must change none of them."""
    rows = {}
    for label in APPS:
        for model in apps.get_app_config(label).get_models():
            rows[model._meta.label] = list(model.objects.order_by("pk").values())
    return rows


def _send(client, method: str, url: str):
    if method == "GET":
        return client.get(url)
    return getattr(client, method.lower())(
        url, UNSAFE_BODY, content_type="application/json"
    )


@pytest.mark.parametrize(("name", "mapping", "fixed", "callback"), ROUTES)
def test_another_organisations_object_is_404_for_every_method(
    name, mapping, fixed, callback, org_b, db, client_for
):
    objects = org_b["objects"]
    kwargs = {kwarg: objects[obj].pk for kwarg, obj in mapping.items()} | fixed
    url = reverse(name, kwargs=kwargs)
    methods, exact = _methods(callback)

    # Positive control: the owner reaches the object (so the ids are consistent).
    owner = client_for(org_b["admin"]).get(url)
    assert owner.status_code != 404, f"{url}: the owner gets 404, fix the fixture"

    org_a_admin = member(OrganisationFactory(name="Org A"), Role.ADMIN, "org-a-admin")
    client = client_for(org_a_admin)
    for warm_up in WARM_UP:
        assert client.get(warm_up).status_code == 200
    before = _snapshot()
    answers = {}
    for method in methods:
        answers[method] = _send(client, method, url).status_code

    allowed = {404} if exact else {404, 405}
    wrong = {m: s for m, s in answers.items() if s not in allowed}
    assert not wrong, f"{url}: expected 404, got {wrong}"
    assert 404 in answers.values(), f"{url}: no method reached the access check"
    assert _snapshot() == before, f"{url}: a denied request changed data"
