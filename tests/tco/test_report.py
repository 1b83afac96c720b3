"""The PDF: key numbers present as text, in Chinese and in English, fonts embedded;
the sizing plan it shows is the one the run was requested from."""

import subprocess

import pytest

from tco import services
from tco.models import RunStatus, TcoRun
from tco.report import render_report_html

#: Two workloads of the sizing tests: the second needs more GPUs than the first.
TRAIN_7B = {
    "name": "7B pre-training",
    "kind": "training",
    "model_preset": "llama-2-7b",
    "seq_len": 4096,
    "tokens_b": 100,
    "target_days": 30,
}
SERVE_70B = {
    "name": "70B chat",
    "kind": "inference",
    "model_preset": "llama-2-70b",
    "context_tokens": 2048,
    "output_tokens": 256,
    "concurrent_requests": 16,
}


def pdf_text(path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


@pytest.fixture
def pdf_run(scenario, it_lead, few_draws):
    def make(lang):
        run = services.request_tco_run(
            scenario=scenario, user=it_lead, lang=lang, enqueue=False
        )
        return services.execute_tco_run(run_id=run.pk)

    return make


def test_english_pdf_holds_the_key_numbers(pdf_run):
    run = pdf_run("en")

    assert run.status == RunStatus.SUCCEEDED, run.error_message
    text = pdf_text(run.pdf.path)
    assert "Total cost of ownership" in text
    assert "LLM training cluster" in text and "Acme AI" in text
    assert "1,595,180" in text  # total, hand-computed in test_api.py
    assert "1,564,875" in text  # NPV 1,564,874.98 rounded
    assert "15.17" in text  # per GPU-hour
    assert "2,102,400" in text  # cloud on-demand
    assert "Executive summary" in text and "Methodology" in text
    assert "Hidden-cost check" in text
    assert "1 / " in text  # page numbers


def test_chinese_pdf_holds_the_key_numbers_in_chinese(pdf_run):
    run = pdf_run("zh-hans")

    assert run.status == RunStatus.SUCCEEDED, run.error_message
    assert run.pdf.name.endswith("-zh-hans.pdf")
    text = pdf_text(run.pdf.path)
    assert "总拥有成本" in text
    assert "1,595,180" in text and "1,564,875" in text
    fonts = subprocess.run(
        ["pdffonts", run.pdf.path], check=True, capture_output=True, text=True
    ).stdout
    assert "Noto-Sans-SC-Subset" in fonts
    assert "NotoSansCJK" not in fonts.replace("-", "")  # no 19 MB system fallback


def _sizing_table(html: str) -> str:
    start = html.index("<h3>Sizing plan</h3>")
    return html[start : html.index("</table>", start)]


def test_the_report_shows_the_sizing_plan_the_run_was_made_from(
    procurement, it_lead, scenario, fake_pdf, few_draws
):
    from sizing import services as sizing

    sizing.load_reference_catalog()
    procurement.region = "global"  # the procurement's fact (issue 12)
    procurement.save()
    sizing.save_requirement(
        procurement=procurement,
        user=it_lead,
        accelerator_key="h100-sxm-80gb",
        data_tb=3.0,
    )
    sizing.create_workload(procurement=procurement, **TRAIN_7B)
    first = sizing.compute_sizing_plan(procurement=procurement, user=it_lead)
    run = services.request_tco_run(
        scenario=scenario, user=it_lead, lang="en", enqueue=False
    )
    run = services.execute_tco_run(run_id=run.pk)
    sizing.create_workload(procurement=procurement, **SERVE_70B)
    second = sizing.compute_sizing_plan(procurement=procurement, user=it_lead)
    assert second.result["gpu_count"] > first.result["gpu_count"]

    run = TcoRun.objects.with_related().get(pk=run.pk)
    table = _sizing_table(render_report_html(run=run, analysis=run.result))

    assert run.sizing_plan["plan_id"] == first.pk
    assert f"<td>{first.result['gpu_count']}</td>" in table
    assert f"<td>{first.result['nodes']}</td>" in table
    assert f"<td>{second.result['gpu_count']}</td>" not in table


def test_chart_labels_are_text_in_the_pdf(pdf_run):
    run = pdf_run("zh-hans")

    text = pdf_text(run.pdf.path)
    # titles and a break-even label of the charts (tco.engine.palette), not glyph paths
    assert "累计成本：自建与云" in text
    assert "蒙特卡洛：自建总成本分布" in text
    assert "盈亏平衡 第31月" in text  # on-demand break-even, by hand in test_api.py


def test_the_page_shows_the_charts_rendered_for_the_pdf(
    pdf_run, client_for, it_lead, monkeypatch
):
    from django.core.cache import cache
    from django.urls import reverse

    from tco import report

    cache.clear()
    rendered = []
    render = report._render_charts
    monkeypatch.setattr(
        report,
        "_render_charts",
        lambda analysis, lang: rendered.append(lang) or render(analysis, lang),
    )
    run = pdf_run("zh-hans")
    url = reverse("tco:run", args=[run.scenario.procurement_id, run.pk])

    page = client_for(it_lead).get(url)  # a zh-hans page, as the run

    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg"') == 4
    assert "累计成本：自建与云" in html
    assert rendered == ["zh-hans"]  # once, for the PDF; the page reused them
    english = client_for(it_lead)
    english.cookies["django_language"] = "en"
    for _ in range(2):
        assert "Cumulative cost: on-prem vs cloud" in english.get(url).content.decode()
    assert rendered == ["zh-hans", "en"]  # the other language: once, on first view
