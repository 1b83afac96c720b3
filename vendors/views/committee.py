"""The committee page (/procurements/<pk>/committee/): the roster and its validation,
the member's own scoring form with the automatic pre-scores as advice, submission, the
marks they may see, after summation the change form with its lawful reason, dissent,
the collusion signals and the 评标报告 (issue, download)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, access_procurement, can
from clusterbuy.models import Membership
from clusterbuy.services import ServiceError
from clusterbuy.views import render_procurement

from ..comparison import build_comparison
from ..models import Bid, ChangeReason, CommitteeMember, SeatRole
from ..services import committee, committee_collusion, committee_scoring
from ..services import evaluation_report as reports
from .price_justifications import justification_context


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _score_rows(procurement, user, member, criteria, result):
    board = committee_scoring.board(procurement=procurement, user=user, result=result)
    own = committee_scoring.member_scores(member, criteria) if member else {}
    return [
        {
            "bid": b,
            "rows": [
                {
                    "criterion": c,
                    "advice": b.advice.get(c.code),
                    "points": own.get(b.bid_id, {}).get(c.code),
                }
                for c in criteria
            ],
        }
        for b in board
    ]


def _score_table(procurement, user, scoring, members, member):
    """The members' totals ``user`` may see (their own as they go), per bid, and
    the committee's mean."""
    visible = {m.pk for m in committee_scoring.visible_members(procurement, user)}
    shown = [m for m in members if m.pk in visible]
    bids = [(s["bid"].bid_id, s["bid"].label) for s in scoring]
    results = committee_scoring.committee_results(
        procurement, [b for b, _l in bids], also=member
    )
    table = [
        {
            "label": label,
            "cells": [results[bid]["members"].get(m.pk) for m in shown],
            "mean": results[bid]["mean"],
        }
        for bid, label in bids
    ]
    return shown, table


@login_required
def committee_page(request, pk):
    return _page(request, access_procurement(request.user, pk))


def _roster_rows(procurement, members, posted) -> list[dict]:
    """Each user of the organisation with the seat the form shows: the one posted
    when a refused roster comes back, else the stored one."""
    seats = {m.user_id: m for m in members}
    rows = []
    for ms in Membership.objects.filter(
        organisation=procurement.organisation
    ).select_related("user"):
        seat = seats.get(ms.user_id)
        if posted is None:
            role, chair = (seat.role, seat.is_chair) if seat else ("", False)
        else:
            role = posted.get(f"seat-{ms.user_id}", "")
            chair = posted.get("chair") == str(ms.user_id)
        rows.append({"user": ms.user, "role": role, "is_chair": chair})
    return rows


def _page(request, procurement, *, form: str = ""):
    """The committee page; after a refused ``form`` ("roster", "change", "dissent")
    the form shows what was typed and nothing was saved (drawn again like any refused
    form of the app's pages, not redirected)."""
    posted = request.POST if form else None
    row = committee.committee_of(procurement)
    members = committee.members_of(row)
    member = committee.member_for(procurement, request.user)
    criteria, _weights = committee_scoring.technical_criteria(procurement)
    # One comparison for the board and the signals: both read it as this user sees it.
    result = build_comparison(procurement=procurement, user=request.user)
    scoring = _score_rows(procurement, request.user, member, criteria, result)
    visible, table = _score_table(procurement, request.user, scoring, members, member)
    context = {
        "committee": row,
        "members": members,
        "status": committee.committee_status(procurement),
        "member": member,
        "scoring": scoring,
        "visible": visible,
        "score_table": table,
        "org_users": _roster_rows(
            procurement, members, posted if form == "roster" else None
        ),
        "roster_flags": {
            "complex_project": bool(posted.get("complex_project"))
            if form == "roster"
            else bool(row and row.complex_project),
            "high_social_impact": bool(posted.get("high_social_impact"))
            if form == "roster"
            else bool(row and row.high_social_impact),
        },
        "typed": posted if form in ("change", "dissent") else {},
        "refused_form": form,
        "seat_choices": SeatRole.choices,
        "reasons": ChangeReason.choices,
        "criteria": criteria,
        "summed": bool(row and row.summed_at),
        "changes": committee_scoring.changes_of(procurement),
        "signals": committee_collusion.committee_signals(
            procurement=procurement, user=request.user, result=result
        ),
        **justification_context(procurement, request.user),
        "report": reports.issued_report(procurement),
        "can_issue": reports.can_issue(procurement, request.user),
        "can_configure": can(request.user, Capability.CONFIGURE_EVALUATION),
        "can_sum": bool(
            row
            and not row.summed_at
            and members
            and all(m.submitted_at for m in members)
            and (
                can(request.user, Capability.CONFIGURE_EVALUATION)
                or (member and member.is_chair)
            )
        ),
    }
    return render_procurement(
        request, procurement, "vendors/committee.html", context, active="comparison"
    )


def _refused(request, procurement, form: str, texts):
    """A refused form: its messages shown on the page drawn again with what was typed."""
    for text in texts:
        messages.error(request, text)
    return _page(request, procurement, form=form)


def _done(request, pk, error: ServiceError | None, success: str):
    if error is None:
        messages.success(request, success)
    else:
        messages.error(request, getattr(error, "message", str(error)))
    return redirect("vendors:committee", pk=pk)


@login_required
@require_POST
def committee_roster(request, pk):
    procurement = access_procurement(request.user, pk, Capability.CONFIGURE_EVALUATION)
    rows = []
    for ms in Membership.objects.filter(organisation=procurement.organisation):
        seat = request.POST.get(f"seat-{ms.user_id}", "")
        if seat:
            chair = request.POST.get("chair") == str(ms.user_id)
            rows.append({"user": ms.user_id, "role": seat, "is_chair": chair})
    try:
        committee.set_committee(
            procurement=procurement,
            user=request.user,
            seats=committee.seats_from_ids(procurement=procurement, rows=rows),
            complex_project=bool(request.POST.get("complex_project")),
            high_social_impact=bool(request.POST.get("high_social_impact")),
        )
    except committee.CommitteeInvalid as error:
        texts = [text for group in error.errors.values() for text in group]
        return _refused(request, procurement, "roster", texts)
    except ServiceError as error:
        return _refused(request, procurement, "roster", [error.message])
    return _done(request, pk, None, _("Committee saved."))


@login_required
@require_POST
def committee_scores(request, pk):
    procurement = access_procurement(request.user, pk, Capability.SCORE_COMMITTEE)
    bid = get_object_or_404(
        Bid.objects.for_procurement(procurement), pk=_int(request.POST.get("bid"))
    )
    criteria, _weights = committee_scoring.technical_criteria(procurement)
    marks = [
        committee_scoring.Mark(c.pk, _int(request.POST.get(f"points-{c.pk}")))
        for c in criteria
        if request.POST.get(f"points-{c.pk}", "") != ""
    ]
    try:
        committee_scoring.record_member_scores(
            procurement=procurement, user=request.user, bid=bid, marks=marks
        )
        if request.POST.get("submit"):
            committee_scoring.submit_member_scores(
                procurement=procurement, user=request.user
            )
    except ServiceError as error:
        return _done(request, pk, error, "")
    return _done(request, pk, None, _("Your scores are saved."))


@login_required
@require_POST
def committee_submit(request, pk):
    procurement = access_procurement(request.user, pk, Capability.SCORE_COMMITTEE)
    try:
        committee_scoring.submit_member_scores(
            procurement=procurement, user=request.user
        )
    except ServiceError as error:
        return _done(request, pk, error, "")
    return _done(request, pk, None, _("Your scores are submitted."))


@login_required
@require_POST
def committee_summation(request, pk):
    procurement = access_procurement(request.user, pk)
    try:
        committee_scoring.close_summation(procurement=procurement, user=request.user)
    except ServiceError as error:
        return _done(request, pk, error, "")
    return _done(request, pk, None, _("The marks are summed."))


@login_required
@require_POST
def committee_change(request, pk):
    procurement = access_procurement(request.user, pk, Capability.SCORE_COMMITTEE)
    member = get_object_or_404(
        CommitteeMember.objects.filter(committee__procurement=procurement),
        pk=_int(request.POST.get("member")),
    )
    bid = get_object_or_404(
        Bid.objects.for_procurement(procurement), pk=_int(request.POST.get("bid"))
    )
    try:
        committee_scoring.change_score(
            procurement=procurement,
            user=request.user,
            member=member,
            bid=bid,
            criterion=request.POST.get("criterion", ""),
            points=_int(request.POST.get("points")),
            reason=request.POST.get("reason", ""),
            explanation=request.POST.get("explanation", ""),
        )
    except ServiceError as error:
        return _refused(request, procurement, "change", [error.message])
    return _done(request, pk, None, _("The change is recorded."))


@login_required
@require_POST
def committee_dissent(request, pk):
    procurement = access_procurement(request.user, pk, Capability.SCORE_COMMITTEE)
    try:
        committee_scoring.record_dissent(
            procurement=procurement,
            user=request.user,
            text=request.POST.get("dissent", ""),
        )
    except ServiceError as error:
        return _refused(request, procurement, "dissent", [error.message])
    return _done(request, pk, None, _("Your dissent is recorded."))


@login_required
@require_POST
def committee_report(request, pk):
    procurement = access_procurement(request.user, pk)
    try:
        reports.issue_report(procurement=procurement, user=request.user)
    except ServiceError as error:
        return _done(request, pk, error, "")
    return _done(request, pk, None, _("The evaluation report is issued."))


@login_required
def committee_report_pdf(request, pk):
    procurement = access_procurement(request.user, pk)
    report = reports.issued_report(procurement)
    if report is None:
        raise Http404(_("No report issued yet."))
    language = request.GET.get("lang") or translation.get_language() or "en"
    response = HttpResponse(
        reports.report_pdf(report, language), content_type="application/pdf"
    )
    name = reports.report_filename(report, language)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


__all__ = [
    "committee_change",
    "committee_dissent",
    "committee_page",
    "committee_report",
    "committee_report_pdf",
    "committee_roster",
    "committee_scores",
    "committee_submit",
    "committee_summation",
]
