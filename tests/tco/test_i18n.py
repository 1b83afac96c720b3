"""The TCO pages and PDF in Chinese: the engine's English texts are replaced."""

import html as html_lib
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tco import services
from tco.engine import CONVENTIONS, CONVENTIONS_ZH, DEFAULTS, REASONS_ZH
from tco.report import name_keys, render_report_html


@pytest.fixture
def done_run(scenario, it_lead, fake_pdf, few_draws):
    def make(lang):
        run = services.request_tco_run(
            scenario=scenario, user=it_lead, lang=lang, enqueue=False
        )
        return services.execute_tco_run(run_id=run.pk)

    return make


def _english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _text(response) -> str:
    return html_lib.unescape(response.content.decode())


def test_chinese_form_explains_every_default_in_chinese(
    client_for, it_lead, procurement
):
    page = _text(client_for(it_lead).get(reverse("tco:tab", args=[procurement.pk])))

    assert "默认值 5：" in page or "默认值 5:" in page
    for name, default in DEFAULTS.items():
        if name == "capex":
            continue
        assert REASONS_ZH[name] in page, name
        assert default.reason not in page, name


def test_english_form_keeps_the_english_reasons(client_for, it_lead, procurement):
    client = _english(client_for(it_lead))
    page = _text(client.get(reverse("tco:tab", args=[procurement.pk])))

    assert DEFAULTS["pue"].reason in page
    assert REASONS_ZH["pue"] not in page


def test_chinese_pdf_html_has_chinese_reasons_sources_and_conventions(done_run):
    run = done_run("zh-hans")
    page = html_lib.unescape(render_report_html(run=run, analysis=run.result))

    # hand_inputs give every scalar input, so only defaults nobody gave are listed
    # as defaults; the reasons of those shown are Chinese, the English ones absent.
    for name, default in DEFAULTS.items():
        assert default.reason not in page, name
    # The conventions cite inputs by their names, not their keys (issue 20, item 4).
    for english, chinese in zip(CONVENTIONS, CONVENTIONS_ZH, strict=True):
        with translation.override("zh-hans"):
            assert name_keys(chinese) in page
        assert english not in page and name_keys(english) not in page


def test_chinese_results_page_shows_chinese_default_reasons(
    client_for, manager, procurement, scenario, it_lead, fake_pdf, few_draws
):
    inputs = {"gpu_count": 8, "pue": 1.2}
    partial = services.save_scenario(
        procurement=procurement, user=it_lead, name="Partial", inputs=inputs
    )
    run = services.request_tco_run(
        scenario=partial, user=it_lead, lang="zh-hans", enqueue=False
    )
    run = services.execute_tco_run(run_id=run.pk)

    page = _text(
        client_for(manager).get(reverse("tco:run", args=[procurement.pk, run.pk]))
    )
    assert REASONS_ZH["electricity_price_per_kwh"] in page  # a default
    assert REASONS_ZH["pue"] not in page  # the user gave it
    assert DEFAULTS["electricity_price_per_kwh"].reason not in page
    with translation.override("zh-hans"):
        assert name_keys(CONVENTIONS_ZH[0]) in page
    assert (
        "fx_usd_cny" not in page
        and "All amounts are in the scenario currency" not in page
    )
    html = render_report_html(run=run, analysis=run.result)
    assert REASONS_ZH["staff_cost_per_fte_year"] in html_lib.unescape(html)


def test_english_pdf_html_keeps_the_english_texts(done_run):
    run = done_run("en")
    page = html_lib.unescape(render_report_html(run=run, analysis=run.result))

    with translation.override("en"):
        assert name_keys(CONVENTIONS[0]) in page
    assert "fx_usd_cny" not in page and "默认值以人民币存储" not in page


def test_tab_renders_the_live_estimate_on_page_load(
    client_for, it_lead, procurement, scenario
):
    response = client_for(it_lead).get(
        reverse("tco:tab", args=[procurement.pk]) + f"?scenario={scenario.pk}"
    )
    page = response.content.decode()
    total = services.estimate(inputs=scenario.inputs)["result"]["total_cost"]

    assert 'id="preview-total"' in page
    assert f"{total:,.0f} CNY" in page  # 1,595,180: hand-computed in test_api.py
    assert f"{total:,.0f}" == "1,595,180"


def test_runs_table_names_the_language_instead_of_its_code(
    client_for, it_lead, procurement, done_run
):
    done_run("zh-hans")
    done_run("en")
    page = client_for(it_lead).get(reverse("tco:tab", args=[procurement.pk]))
    text = page.content.decode()

    assert "<td>简体中文</td>" in text and "<td>English</td>" in text
    assert "<td>zh-hans</td>" not in text and "<td>en</td>" not in text


def test_capex_inputs_fill_their_column(client_for, it_lead, procurement):
    text = client_for(it_lead).get(reverse("tco:tab", args=[procurement.pk]))
    page = text.content.decode()

    assert 'class="table capex-rows" style="table-layout:fixed"' in page
    assert 'name="capex-0-amount" style="width:100%;box-sizing:border-box"' in page


def test_preview_names_missing_costs_in_chinese(client_for, it_lead, procurement):
    response = client_for(it_lead).post(
        reverse("tco:preview", args=[procurement.pk]),
        {
            "capex-TOTAL_FORMS": "1",
            "capex-INITIAL_FORMS": "0",
            "capex-0-category": "gpu_servers",
            "capex-0-amount": "1000000",
        },
    )
    page = response.content.decode()

    assert "Installation and commissioning" not in page
    # each ⚠ says what it means (the check's message, shown and as the title)
    assert '<span aria-hidden="true">⚠</span> 安装与调试</span>' in page
    assert "No installation cost" not in page
    assert page.count("上架、布线、老化测试和验收通常不是免费的") == 2


def test_a_derived_default_is_said_in_words_with_its_symbols_on_hover(
    client_for, it_lead, procurement
):
    page = client_for(it_lead).get(reverse("tco:tab", args=[procurement.pk]))
    html = page.content.decode()
    assert 'placeholder="GPU 数量 × 1.275 kW"' in html
    assert "默认值 GPU 数量 × 1.275 kW：GPU 数量 × 10.2/8 kW" in html_lib.unescape(html)
    assert (
        '<code class="formula-symbols" translate="no" title="gpu_count × 1.275" '
        'tabindex="0">ƒ</code>'
    ) in html
    # the key is shown nowhere but in that hover
    outside_code = re.sub(r"<code[^>]*>.*?</code>", "", html)
    assert "gpu_count ×" not in outside_code
    assert "China Briefing" not in html  # the reason cites its source; see the run


def test_a_sources_latin_names_are_marked_english_on_a_chinese_page():
    from django.utils import translation

    from clusterbuy.templatetags.citations import citation

    with translation.override("zh-hans"):
        assert citation("China Briefing 2024；国家电网电价表") == (
            '<cite><span lang="en">China Briefing 2024</span>；国家电网电价表</cite>'
        )
        assert citation("<表>") == "<cite>&lt;表&gt;</cite>"  # escaped
    with translation.override("en"):
        assert citation("China Briefing 2024") == "<cite>China Briefing 2024</cite>"
