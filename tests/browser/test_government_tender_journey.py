"""A 政府采购 tender a 评标委员会 can sign (issue 25), in a real browser, in Chinese and in
English, each person in their own browser and login:

1. The buyer sets the regime: 政府采购, 综合评分法, goods; a 20 % price weight is refused
   with 87号令 第五十五条's floor and what was typed is kept; 30 %, a 39 M CNY 最高限价
   and a 15 % small-enterprise deduction are saved.
2. Four bids (seeded, as the other journeys seed theirs): Aurora 30 M, Borealis 32 M
   (a small enterprise: it declared so with its 中小企业声明函 attached, as the portal
   carries them into the bid at the opening), Cirrus 36 M and Orion 39.5 M, over the
   最高限价: an 无效投标 with its reason, out of the ranking. The buyer ticks Aurora's
   small-enterprise box too: refused (no declaration attached), nothing saved; then
   accepts Borealis's alone, its evidence named on the page.
3. Aurora and Cirrus give the same phone in their 投标函: recorded through the contact
   API (the portal's submission form takes it from vendors; these bids are seeded),
   shown to the committee as a collusion signal with its evidence.
4. The committee: six members are refused (a complex project of 10 M CNY or more needs
   seven, 87号令 第四十七条); seven are seated — the officer and the manager as 采购人代表,
   five 评审专家, the first expert the chair. Each member logs in and scores alone
   (nobody sees another's marks before submitting); the chair's submission, the last,
   sums the marks. One expert records dissent; the chair changes a mark after the
   summation, refused without and recorded with a lawful reason (87号令 第六十四条).
5. The tender review prices Borealis after its deduction and ranks on the committee's
   mean; the buyer issues the 评标报告, downloads it as PDF in the page's language and
   reads it with pdftotext.

Hand-computed figures (price weight 30 %; the technical sections weigh 85 in all,
architecture 20 of it over three criteria; a uniform mark p scores 20 x p of 100):
- Borealis: 32,000,000 x 15 % = 4,800,000 deducted, evaluated 27,200,000, the lowest
  valid evaluated price: the base. Price scores (base / price x 30): Borealis 30.00,
  Aurora 27.2 / 30 x 30 = 27.20, Cirrus 27.2 / 36 x 30 = 22.67 (22.666...).
- Marks (officer, manager, expert 1-5): Aurora 4,4,4,3,5,4,4 -> 80, 80, 80, 60, 100,
  80, 80; mean 80.00. After the chair (expert 1) raises Aurora's first architecture
  criterion 4 -> 5: (20 x 13/3 + 65 x 4) / 85 x 20 = 81.57, mean 561.57 / 7 = 80.22.
  Borealis 3,3,3,3,4,3,2 -> mean 60.00; Cirrus 4,4,5,4,4,4,4 -> 580 / 7 = 82.86.
- Totals (technical x 70 % + price): Aurora 80.22 x 0.7 + 27.2 = 83.35; Cirrus
  82.86 x 0.7 + 22.67 = 80.67; Borealis 60 x 0.7 + 30 = 72.00: Aurora, Cirrus,
  Borealis.

Every page is checked for console errors (CSP violations included), a page wider than
its viewport and text of the other language; screenshots under
test-artifacts/gov-tender-<lang>/.
"""

from __future__ import annotations

import re
import subprocess
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from clusterbuy.models import Role
from tests.browser.test_decision_journey import t
from tests.browser.test_journeys import log_in
from tests.browser.test_tender_journeys import Watch
from tests.factories import member
from tests.vendors import tender_support
from tests.vendors.tender_support import priced_bid

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

h200_plan = tender_support.h200_plan  # fixtures
tender_world = tender_support.tender_world

AURORA, BOREALIS, CIRRUS, ORION = (
    "Aurora Compute",
    "Borealis Systems",
    "Cirrus Cloud",
    "Orion Tech",
)
PRICES_CNY = {AURORA: 30_000_000, BOREALIS: 32_000_000, CIRRUS: 36_000_000}
SME_LETTER = "borealis-sme-declaration.pdf"
#: Seat order: the officer, the manager, expert 1 (the chair) .. expert 5.
MARKS = {
    AURORA: [4, 4, 4, 3, 5, 4, 4],
    BOREALIS: [3, 3, 3, 3, 4, 3, 2],
    CIRRUS: [4, 4, 5, 4, 4, 4, 4],
}
#: The phone Aurora and Cirrus both give, as each wrote it.
PHONES = {AURORA: "+86 138 0013 8000", CIRRUS: "138 0013 8000"}
DISSENT = {
    "en": "Cirrus's delivery plan has no proof of the 400 Gb/s fabric.",
    "zh-hans": "Cirrus 的交付计划没有证明 400 Gb/s 网络。",
}
EXPLANATION = {
    "en": "The first architecture mark was typed one point low.",
    "zh-hans": "架构第一项分数录入时少了一分。",
}


@pytest.fixture
def gov_tender(tender_world, org):
    procurement = tender_world
    bids = {
        name: priced_bid(procurement, org, name, p) for name, p in PRICES_CNY.items()
    }
    bids[ORION] = priced_bid(procurement, org, ORION, 39_500_000)
    borealis = bids[BOREALIS]
    borealis.sme_claimed = True  # what the opening copies from the portal
    borealis.save(update_fields=["sme_claimed"])
    tender_support.attach_evidence(borealis, "sme", SME_LETTER)
    return procurement, bids


@pytest.fixture
def experts(org):
    return [member(org, Role.EXPERT, f"expert-{i}") for i in range(1, 6)]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_government_tender_evaluated_by_a_committee_of_seven(
    browser, base_url, language, gov_tender, buyer, manager, experts, tmp_path
):
    watch = Watch(browser, base_url, language, "tender", prefix="gov")
    procurement, bids = gov_tender
    people = [buyer, manager, *experts]
    watch.run(government_journey, language, procurement, bids, people, tmp_path)


def government_journey(watch, language, procurement, bids, people, tmp_path):
    buyer = watch.page("buyer")
    log_in(buyer, people[0].username, submit=t(language, "Log in"))
    tender_settings(watch, buyer, language, procurement)
    accept_declaration(watch, buyer, language, procurement, bids)
    record_phones(buyer, procurement, bids)
    review_before_committee(watch, buyer, language, procurement, bids)
    seat_committee(watch, buyer, language, procurement, people)
    score_alone(watch, language, procurement, people)
    after_summation(watch, language, procurement, bids, people)
    ranked_review(watch, buyer, language, procurement, bids)
    report(watch, buyer, language, procurement, people, tmp_path)


# ------------------------------------------------------------ 1. the tender settings


def tender_settings(watch, page, language, procurement):
    from vendors.models import TenderSettings

    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    page.goto(f"/procurements/{procurement.pk}/tender/")
    expect(page.locator("#tender-unsaved")).to_be_visible()
    page.locator("#id_regime").select_option("gov_procurement")
    page.locator("#id_method").select_option("comprehensive")
    page.locator("#id_subject").select_option("goods")
    page.locator("#id_price_weight_pct").fill("20")
    page.locator("#id_ceiling_cny").fill("39000000")
    page.locator("#id_sme_deduction_pct").fill("15")
    page.locator("#save-tender").click()
    floor = _(
        "The price weight must be at least %(floor)s %% (given %(weight)s %%).",
        floor="30",
        weight="20",
    )
    expect(page.locator("#field-price_weight_pct .field-error")).to_have_text(
        f"{floor} (《政府采购货物和服务招标投标管理办法》第五十五条)"
    )
    # What was typed is kept, and nothing is saved.
    expect(page.locator("#id_regime")).to_have_value("gov_procurement")
    expect(page.locator("#id_price_weight_pct")).to_have_value("20")
    expect(page.locator("#id_ceiling_cny")).to_have_value("39000000")
    expect(page.locator("#id_sme_deduction_pct")).to_have_value("15")
    assert not TenderSettings.objects.exists()
    watch.step("buyer", "price weight under the floor")
    page.locator("#id_price_weight_pct").fill("30")
    page.locator("#save-tender").click()
    expect(page.locator("main")).to_contain_text(_("Tender settings saved."))
    row = TenderSettings.objects.get(procurement=procurement)
    assert (row.regime, row.method, row.subject) == (
        "gov_procurement",
        "comprehensive",
        "goods",
    )
    assert row.price_weight_pct == Decimal(30)
    assert row.ceiling_cny == Decimal(39_000_000)
    assert row.sme_deduction_pct == Decimal(15)
    watch.step("buyer", "tender settings saved")


def accept_declaration(watch, page, language, procurement, bids):
    borealis, aurora = bids[BOREALIS], bids[AURORA]
    declarations = page.locator("#tender-declarations")
    expect(declarations).to_contain_text(SME_LETTER)
    # Aurora attached no declaration: ticking it is refused and nothing is saved.
    declarations.locator(f'input[name="sme_{borealis.pk}"]').check()
    declarations.locator(f'input[name="sme_{aurora.pk}"]').check()
    page.locator("#save-declarations").click()
    expect(page.locator("#tender-declarations")).to_contain_text(
        t(
            language,
            "The small-enterprise declaration cannot be accepted: no small-enterprise "
            "declaration is attached to the bid.",
        )
    )
    borealis.refresh_from_db()
    assert not borealis.sme_declared
    watch.step("buyer", "declaration without evidence refused")
    declarations = page.locator("#tender-declarations")
    declarations.locator(f'input[name="sme_{aurora.pk}"]').uncheck()
    declarations.locator(f'input[name="sme_{borealis.pk}"]').check()
    page.locator("#save-declarations").click()
    expect(page.locator("main")).to_contain_text(
        t(language, "Policy declarations saved.")
    )
    expect(
        page.locator(f'#tender-declarations input[name="sme_{borealis.pk}"]')
    ).to_be_checked()
    borealis.refresh_from_db()
    assert borealis.sme_declared
    assert not any(b.sme_declared for n, b in bids.items() if n != BOREALIS)
    watch.step("buyer", "small enterprise declaration accepted")


def record_phones(page, procurement, bids):
    """Through the contact API with the buyer's session: vendors give them in the
    portal's submission form, and these bids are seeded, not submitted."""
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    for name, phone in PHONES.items():
        response = page.request.put(
            f"/api/v1/procurements/{procurement.pk}/bids/{bids[name].pk}/contact/",
            data={"phone": phone},
            headers={"X-CSRFToken": csrf, "Referer": page.url},
        )
        assert response.status == 200, response.text()
        assert response.json()["phone"] == phone


# ------------------------------------------------------------------- 2. the review


def _row(page, bid):
    return page.locator(f'#tender-bids tr[data-bid="{bid.pk}"]')


def review_before_committee(watch, page, language, procurement, bids):
    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    page.goto(f"/procurements/{procurement.pk}/comparison/")
    review = page.locator("#tender-review")
    expect(review).to_contain_text(
        _(
            "Price weight %(weight)s %%. %(valid)s of %(total)s bids valid.",
            weight="30",
            valid=3,
            total=4,
        )
    )
    orion = _row(page, bids[ORION])
    expect(orion).to_have_attribute("data-valid", "no")
    expect(orion).to_contain_text(_("invalid bid"))
    expect(orion).to_contain_text(
        _(
            "Price %(offered)s above the maximum price %(required)s.",
            offered="39,500,000.00",
            required="39,000,000.00",
        )
    )
    expect(orion).to_contain_text("《政府采购货物和服务招标投标管理办法》第六十三条")
    expect(orion.locator("td").nth(5)).to_have_text("—")  # no price score
    expect(orion.locator("td").last).to_have_text("—")  # no rank
    borealis = _row(page, bids[BOREALIS])
    expect(borealis.locator("td").nth(3)).to_have_text(
        f"{_('small enterprise')} 15 %: −4800000 ({_('evidence attached')})"
    )
    expect(borealis.locator("td").nth(4)).to_have_text("27200000")
    prices = {AURORA: "27.20", BOREALIS: "30.00", CIRRUS: "22.67"}
    for name, points in prices.items():
        expect(_row(page, bids[name]).locator("td").nth(5)).to_have_text(points)
    watch.step("buyer", "tender review", check_width=False)


# -------------------------------------------------------------- 3. the committee


def seat_committee(watch, page, language, procurement, people):
    from vendors.models import CommitteeMember

    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    officer, manager, *experts = people
    page.goto(f"/procurements/{procurement.pk}/committee/")
    roster = page.locator("#roster-form")
    page.get_by_text(_("Change the committee")).click()

    def seat(users, chair):
        for user in people:
            role = ""
            if user in users:
                role = "buyer_rep" if user in (officer, manager) else "expert"
            roster.locator(f'select[name="seat-{user.pk}"]').select_option(role)
        roster.locator(f'input[name="chair"][value="{chair.pk}"]').check()
        roster.locator('input[name="complex_project"]').check()
        roster.get_by_role("button", name=_("Save")).click()

    seat([officer, manager, *experts[:4]], experts[0])
    members = page.locator("#committee-members")
    too_small = _(
        "The committee has %(size)s members; at least %(min_size)s are required "
        "(budget of 10 M CNY or more, complex or high-impact project).",
        size=6,
        min_size=7,
    )
    expect(page.locator("main")).to_contain_text(
        f"{too_small} (《政府采购货物和服务招标投标管理办法》第四十七条)"
    )
    assert not CommitteeMember.objects.exists()
    # The refused roster comes back open, as typed: six seats, the chair, the flag.
    for user in people:
        chosen = roster.locator(f'select[name="seat-{user.pk}"]')
        expected = ""
        if user in (officer, manager):
            expected = "buyer_rep"
        elif user in experts[:4]:
            expected = "expert"
        expect(chosen).to_have_value(expected)
    expect(
        roster.locator(f'input[name="chair"][value="{experts[0].pk}"]')
    ).to_be_checked()
    expect(roster.locator('input[name="complex_project"]')).to_be_checked()
    watch.step("buyer", "six members refused")
    seat(people, experts[0])
    expect(page.locator("main")).to_contain_text(_("Committee saved."))
    expect(members.locator("#committee-valid")).to_have_text(
        _("The committee meets the regime's rules.")
    )
    expect(members.locator("tr[data-member]")).to_have_count(7)
    chair = members.locator(f'tr[data-member="{experts[0].username}"]')
    expect(chair.locator("td").nth(2)).to_have_text(_("yes"))
    seats = dict(CommitteeMember.objects.values_list("user__username", "role"))
    assert sorted(seats.values()) == ["buyer_rep"] * 2 + ["expert"] * 5
    watch.step("buyer", "committee of seven")


def _score(page, language, points_by_bid):
    """Fill and save each bid's form, every criterion with the same mark."""
    for label, points in points_by_bid.items():
        form = page.locator(f'#my-scores form[data-bid="{label}"]')
        inputs = form.locator('input[type="number"]')
        for i in range(inputs.count()):
            inputs.nth(i).fill(str(points))
        form.get_by_role("button", name=t(language, "Save scores")).click()
        expect(page.locator("main")).to_contain_text(
            t(language, "Your scores are saved.")
        )


def score_alone(watch, language, procurement, people):
    """Each member in their own browser; the chair (expert 1) submits last."""
    from vendors.models import Committee

    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    officer, manager, chair, *others = people
    order = [officer, manager, *others, chair]
    seat_of = {u.pk: i for i, u in enumerate(people)}
    submitted = []
    for user in order:
        persona = user.username
        page = watch.page(persona) if user is not officer else watch.pages["buyer"]
        if user is not officer:
            log_in(page, user.username, submit=_("Log in"))
        page.goto(f"/procurements/{procurement.pk}/committee/")
        scores = page.locator("#committee-scores")
        # Before their own marks: no one else's column, no one else's total.
        expect(page.locator("#my-scores")).to_contain_text(
            _("Automatic pre-score (advice)")
        )
        heads = scores.locator("thead th")
        expect(heads).to_have_text([_("Bid"), user.username])
        for other in submitted:
            expect(scores).not_to_contain_text(other.username)
        expect(scores.locator("td.num")).to_have_text(["—"] * 3)
        marks = {label: MARKS[label][seat_of[user.pk]] for label in MARKS}
        _score(page, language, marks)
        # Their own totals as they go: a uniform mark p scores 20 x p.
        for label, points in marks.items():
            expect(scores.locator(f'tr[data-bid="{label}"] td.num')).to_have_text(
                f"{20 * points}.00"
            )
        if user is others[0]:
            watch.step(persona, "scoring alone")
        page.locator("#submit-scores").click()
        expect(page.locator("main")).to_contain_text(_("Your scores are submitted."))
        submitted.append(user)
        if user is not chair:
            # After submitting: the submitted members' columns, no mean yet.
            expect(heads).to_have_count(1 + len(submitted))
            expect(scores).not_to_contain_text(_("Committee (mean)"))
    committee = Committee.objects.get(procurement=procurement)
    assert committee.summed_by == chair and committee.summed_at is not None
    page = watch.pages[chair.username]
    expect(page.locator("#committee-scores thead th").last).to_have_text(
        _("Committee (mean)")
    )
    means = {AURORA: "80.00", BOREALIS: "60.00", CIRRUS: "82.86"}
    for label, mean in means.items():
        row = page.locator(f'#committee-scores tr[data-bid="{label}"]')
        expect(row.locator("td").last).to_have_text(mean)
    watch.step(chair.username, "the chair's submission sums the marks")


def after_summation(watch, language, procurement, bids, people):
    from vendors.models import ScoreChange

    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    chair, dissenter = people[2], people[6]
    page = watch.pages[dissenter.username]
    page.reload()
    page.locator('#dissent textarea[name="dissent"]').fill(DISSENT[language])
    page.locator("#dissent").get_by_role("button", name=_("Record my dissent")).click()
    expect(page.locator("main")).to_contain_text(_("Your dissent is recorded."))
    expect(page.locator('#dissent textarea[name="dissent"]')).to_have_value(
        DISSENT[language]
    )
    watch.step(dissenter.username, "dissent recorded")

    page = watch.pages[chair.username]
    change = page.locator("#score-change form")
    change.locator('select[name="bid"]').select_option(str(bids[AURORA].pk))
    change.locator('select[name="criterion"]').select_option("arch_scenario")
    change.locator('input[name="points"]').fill("5")
    change.locator('input[name="explanation"]').fill(EXPLANATION[language])
    change.get_by_role("button", name=_("Record the change")).click()
    lawful = _(
        "After summation a mark changes only for one of the lawful reasons: a "
        "summation error, a score outside the range, inconsistent objective scores "
        "or an abnormal score."
    )
    expect(page.locator("main")).to_contain_text(
        f"{lawful} (《政府采购货物和服务招标投标管理办法》第六十四条)"
    )
    assert not ScoreChange.objects.exists()
    watch.step(chair.username, "a change needs a lawful reason")
    # What was typed is kept: only the reason is left to choose.
    change = page.locator("#score-change form")
    expect(change.locator('select[name="bid"]')).to_have_value(str(bids[AURORA].pk))
    expect(change.locator('select[name="criterion"]')).to_have_value("arch_scenario")
    expect(change.locator('input[name="points"]')).to_have_value("5")
    expect(change.locator('input[name="explanation"]')).to_have_value(
        EXPLANATION[language]
    )
    change.locator('select[name="reason"]').select_option("summation_error")
    change.get_by_role("button", name=_("Record the change")).click()
    expect(page.locator("main")).to_contain_text(_("The change is recorded."))
    row = page.locator("#changes tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(2)).to_have_text("4")
    expect(row.locator("td").nth(3)).to_have_text("5")
    expect(row.locator("td").nth(4)).to_have_text(_("Error in summing the scores"))
    aurora = page.locator(f'#committee-scores tr[data-bid="{AURORA}"]')
    expect(aurora.locator("td").nth(3)).to_have_text("81.57")  # the chair's column
    expect(aurora.locator("td").last).to_have_text("80.22")
    change_row = ScoreChange.objects.get()
    assert (change_row.reason, change_row.explanation) == (
        "summation_error",
        EXPLANATION[language],
    )
    # The collusion pair, with its evidence, for the committee to judge.
    signal = page.locator('#collusion tr[data-signal="same_phone"]')
    expect(signal).to_have_count(1)
    expect(signal.locator("td").nth(0)).to_have_text(_("Same phone number"))
    expect(signal.locator("td").nth(1)).to_have_text(f"{AURORA}, {CIRRUS}")
    expect(signal.locator("td").nth(2)).to_have_text(PHONES[AURORA])
    # The phone is not in 87号令 第三十七条's list: the engine cites the 实施条例's.
    expect(signal.locator("td").nth(3)).to_have_text("《招标投标法实施条例》第四十条")
    watch.step(chair.username, "change recorded and the collusion signal")


# ------------------------------------------------------------ 4. ranking and report


def ranked_review(watch, page, language, procurement, bids):
    page.goto(f"/procurements/{procurement.pk}/comparison/")
    expect(page.locator("#tender-technical-source")).to_have_attribute(
        "data-source", "committee"
    )
    totals = {AURORA: ("83.35", "1"), CIRRUS: ("80.67", "2"), BOREALIS: ("72.00", "3")}
    for name, (total, rank) in totals.items():
        cells = _row(page, bids[name]).locator("td")
        expect(cells.nth(6)).to_have_text(total)
        expect(cells.nth(7)).to_have_text(rank)
    watch.step("buyer", "ranked on the committee's marks", check_width=False)


def report(watch, page, language, procurement, people, tmp_path):
    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    page.goto(f"/procurements/{procurement.pk}/committee/")
    page.locator("#issue-report").click()
    expect(page.locator("main")).to_contain_text(_("The evaluation report is issued."))
    watch.step("buyer", "report issued")
    link = page.locator("#report-zh" if language.startswith("zh") else "#report-en")
    with page.expect_download() as info:
        link.click()
    path = tmp_path / f"report-{language}.pdf"
    info.value.save_as(path)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True
    ).stdout.decode()
    (watch.dir / "report.txt").write_text(text, encoding="utf-8")
    flat = " ".join(text.split())
    assert _("Evaluation report") in flat
    for user in people:
        assert user.username in flat, user.username
    over = _(
        "Price %(offered)s above the maximum price %(required)s.",
        offered="39,500,000.00",
        required="39,000,000.00",
    )
    assert over in flat and ORION in flat and "第六十三条" in flat
    assert "−4,800,000.00" in flat and "27,200,000.00" in flat
    ranking = [flat.index(total) for total in ("83.35", "80.67", "72.00")]
    assert ranking == sorted(ranking)
    assert " ".join(DISSENT[language].split()) in flat
    assert _("Error in summing the scores") in flat
    assert _("Same phone number") in flat
    signatures = re.findall(re.escape(_("Signatures")), flat)
    assert signatures, "no signature block"
