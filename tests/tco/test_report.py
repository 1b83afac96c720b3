"""The PDF: key numbers present as text, in Chinese and in English, fonts embedded."""

import subprocess

import pytest

from tco import services
from tco.models import RunStatus


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
