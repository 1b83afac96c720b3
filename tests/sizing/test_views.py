import re

import pytest
from django.conf import settings

from clusterbuy import services as core_services
from sizing import services
from sizing.engine import ENGINE_VERSION
from sizing.models import Requirement, SizingPlan, Workload

TRAIN_7B = {
    "name": "7B pre-training",
    "kind": "training",
    "model_preset": "llama-2-7b",
    "seq_len": 4096,
    "tokens_b": 100,
    "target_days": 30,
}
REQUIREMENT_POST = {
    "scenario": "training",
    "data_tb": "5",
    "growth_per_year": "20",
    "rack_power_limit_kw": "",
    "preferred_ecosystem": "",
    "accelerator_key": "h100-sxm-80gb",
}


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


@pytest.fixture
def procurement(procurement):
    """Bought outside China, where the H100 these tests pin can be bought; the region
    is the procurement's (issue 12)."""
    procurement.region = "global"
    procurement.save()
    return procurement


def _errors(response) -> dict[str, list[str]]:
    """field name -> error texts, from the rendered form."""
    html = response.content.decode()
    out: dict[str, list[str]] = {}
    for name, body in re.findall(r'id="field-([a-z_]+)">(.*?)</div>', html, flags=re.S):
        found = re.findall(r'class="field-error"[^>]*>([^<]*)<', body)
        if found:
            out[name] = found
    return out


def _english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_quick_calculator_answers_anonymous_visitors(client, catalog):
    assert client.get("/quick/").status_code == 200
    response = client.post(
        "/quick/",
        {
            "kind": "inference",
            "model_preset": "llama-2-70b",
            "accelerator": "h100-sxm-80gb",
            "gpu_count": "8",
            "context_tokens": "2048",
            "output_tokens": "256",
            "concurrent_requests": "16",
        },
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="preview-body"' in html and "<html" not in html
    assert "<strong>8</strong> × <code>h100-sxm-80gb</code>" in html
    assert 'class="explain"' in html


def test_quick_calculator_training_needs_tokens(client, catalog):
    response = client.post(
        "/quick/",
        {
            "kind": "training",
            "model_preset": "llama-2-7b",
            "accelerator": "h100-sxm-80gb",
            "gpu_count": "8",
        },
    )
    assert "tokens_b" in _errors(response)


def test_requirements_page_has_live_preview(client_for, it_lead, procurement, catalog):
    html = client_for(it_lead).get(f"/procurements/{procurement.pk}/requirements/")
    text = html.content.decode()
    assert html.status_code == 200
    assert f'hx-post="/procurements/{procurement.pk}/requirements/preview/"' in text
    # Triggered by the form's input, not by the form (issue 13: htmx would hold the
    # request back until the browser's checks of the form pass).
    assert 'hx-trigger="input from:#requirement-form delay:400ms"' in text


def test_workload_form_shows_engine_and_form_errors_on_their_fields(
    client_for, it_lead, procurement, catalog
):
    client = client_for(it_lead)
    url = f"/procurements/{procurement.pk}/requirements/workloads/new/"
    odd = client.post(
        url,
        {
            "name": "odd",
            "kind": "inference",
            "precision": "bf16",
            "layers": "2",
            "hidden_size": "100",
            "attention_heads": "3",
            "vocab_size": "1000",
        },
    )
    assert odd.status_code == 200
    # The engine's code, said in the page's language (Chinese by default).
    assert _errors(odd)["hidden_size"] == [
        "隐藏层维度必须能被注意力头数整除（或给出每头维度）。"
    ]
    english = _english(client).post(
        url,
        {
            "name": "odd",
            "kind": "inference",
            "precision": "bf16",
            "layers": "2",
            "hidden_size": "100",
            "attention_heads": "3",
            "vocab_size": "1000",
        },
    )
    assert _errors(english)["hidden_size"] == [
        "The hidden size must be divisible by the number of attention heads (or "
        "give the head dimension)."
    ]
    missing = client.post(
        url, {"name": "t", "kind": "training", "precision": "bf16", "model_preset": ""}
    )
    errors = _errors(missing)
    assert {"tokens_b", "target_days", "layers", "hidden_size"} <= set(errors)
    assert not Workload.objects.exists()


def test_requirement_form_errors_are_inline(client_for, it_lead, procurement, catalog):
    response = client_for(it_lead).post(
        f"/procurements/{procurement.pk}/requirements/",
        {**REQUIREMENT_POST, "data_tb": "-1", "rack_power_limit_kw": "-3"},
    )
    errors = _errors(response)
    assert response.status_code == 200
    assert {"data_tb", "rack_power_limit_kw"} <= set(errors)
    assert not Requirement.objects.exists()


def test_workload_preview_renders_the_partial(
    client_for, it_lead, procurement, catalog
):
    response = client_for(it_lead).post(
        f"/procurements/{procurement.pk}/requirements/workloads/preview/",
        {**TRAIN_7B, "precision": "bf16"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div class="preview" id="preview-body">')
    assert "<code>" in html and "<html" not in html


def test_requirements_preview_shows_the_engine_error(
    client_for, it_lead, procurement, catalog
):
    response = client_for(it_lead).post(
        f"/procurements/{procurement.pk}/requirements/preview/", REQUIREMENT_POST
    )
    assert response.status_code == 200
    html = response.content.decode()
    # None yet: the field is named by its label, not its key.
    assert "<p>工作负载：请至少添加一个工作负载。</p>" in html
    assert "<code>" not in html


def test_save_stores_a_plan_and_the_sizing_tab_explains_it(
    client_for, it_lead, procurement, catalog
):
    services.create_workload(procurement=procurement, **TRAIN_7B)
    client = _english(client_for(it_lead))
    response = client.post(
        f"/procurements/{procurement.pk}/requirements/", REQUIREMENT_POST
    )
    assert response.status_code == 302
    assert response["Location"] == f"/procurements/{procurement.pk}/sizing/"
    plan = SizingPlan.objects.get()
    assert plan.engine_version == ENGINE_VERSION
    assert plan.created_by == it_lead
    assert plan.result["accelerator"] == "h100-sxm-80gb"
    assert plan.inputs["constraints"]["region"] == "global"
    html = client.get(response["Location"]).content.decode()
    assert f'id="gpu-count">{plan.result["gpu_count"]}<' in html
    assert '<details class="explain">' in html
    assert "total_flops" in html  # every number explained
    assert 'class="table bottlenecks"' in html or "No bottleneck found." in html
    assert ENGINE_VERSION in html
    assert "Plan history" in html


def test_sizing_tab_shows_the_layout_and_what_would_make_a_workload_fit(
    client_for, it_lead, procurement, catalog
):
    # Llama 2 70B on one 8-GPU node does not fit (16 B per parameter of model states
    # alone is 138 GB per GPU): the tab says so and lists the changes that would
    services.create_workload(
        procurement=procurement,
        name="70B on one node",
        kind="training",
        model_preset="llama-2-70b",
        seq_len=4096,
        tokens_b=10,
        gpu_count=8,
    )
    client = _english(client_for(it_lead))
    client.post(f"/procurements/{procurement.pk}/requirements/", REQUIREMENT_POST)
    result = SizingPlan.objects.get().result["workloads"][0]
    assert not result["training"]["fits"]
    html = client.get(f"/procurements/{procurement.pk}/sizing/").content.decode()
    assert "does not fit: changes that would make it fit" in html
    assert 'id="remedies-1"' in html and "More GPUs" in html
    assert "platform: 8 × 400 Gbit/s at most" in html
    assert "at most 50 kW per rack" in html


def test_sizing_tab_empty_state(client_for, viewer, procurement):
    html = _english(client_for(viewer)).get(f"/procurements/{procurement.pk}/sizing/")
    assert html.status_code == 200
    assert "No sizing plan yet." in html.content.decode()


def test_outsider_gets_404_on_every_sizing_page_and_changes_nothing(
    client_for, outsider, procurement, catalog
):
    workload = services.create_workload(procurement=procurement, **TRAIN_7B)
    client = client_for(outsider)
    base = f"/procurements/{procurement.pk}"
    for url in (
        f"{base}/requirements/",
        f"{base}/sizing/",
        f"{base}/requirements/workloads/new/",
        f"{base}/requirements/workloads/{workload.pk}/",
    ):
        assert client.get(url).status_code == 404, url
    assert client.post(f"{base}/requirements/", REQUIREMENT_POST).status_code == 404
    assert (
        client.post(f"{base}/requirements/workloads/{workload.pk}/delete/").status_code
        == 404
    )
    assert client.post(f"{base}/requirements/preview/", {}).status_code == 404
    assert Workload.objects.count() == 1
    assert not Requirement.objects.exists() and not SizingPlan.objects.exists()


def test_viewer_reads_but_cannot_save(client_for, viewer, procurement, catalog):
    workload = services.create_workload(procurement=procurement, **TRAIN_7B)
    client = client_for(viewer)
    base = f"/procurements/{procurement.pk}"
    page = client.get(f"{base}/requirements/").content.decode()
    assert "7B pre-training" in page and "workloads/new/" not in page
    assert client.post(f"{base}/requirements/", REQUIREMENT_POST).status_code == 403
    assert client.get(f"{base}/requirements/workloads/new/").status_code == 403
    assert (
        client.post(f"{base}/requirements/workloads/{workload.pk}/delete/").status_code
        == 403
    )
    assert Workload.objects.count() == 1 and not SizingPlan.objects.exists()


def test_it_lead_edits_and_deletes_a_workload_in_the_ui(
    client_for, it_lead, procurement, catalog
):
    workload = services.create_workload(procurement=procurement, **TRAIN_7B)
    client = client_for(it_lead)
    base = f"/procurements/{procurement.pk}/requirements/workloads/{workload.pk}"
    edited = client.post(
        f"{base}/", {**TRAIN_7B, "precision": "bf16", "target_days": "45"}
    )
    assert edited.status_code == 302
    workload.refresh_from_db()
    assert workload.target_days == 45
    assert client.post(f"{base}/delete/").status_code == 302
    assert not Workload.objects.exists()


def test_stage_one_check_needs_a_workload_and_a_plan(it_lead, procurement, catalog):
    def ours():
        return [
            c
            for c in core_services.stage_checklist(procurement)
            if "1–3" in str(c.label) or "1-3" in str(c.label) or "1–3" in c.label
        ][0]

    assert ours().ok is False
    services.create_workload(procurement=procurement, **TRAIN_7B)
    assert ours().ok is False
    services.compute_sizing_plan(procurement=procurement, user=it_lead)
    assert ours().ok is True


def test_requirements_page_in_english_and_chinese(client_for, it_lead, procurement):
    client = client_for(it_lead)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(f"/procurements/{procurement.pk}/requirements/")
    assert "Save and compute sizing" in english.content.decode()
    assert "Business scenario" in english.content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    chinese = client.get(f"/procurements/{procurement.pk}/requirements/")
    text = chinese.content.decode()
    assert "保存并计算配置" in text
    assert "业务场景" in text
    assert "Save and compute sizing" not in text


SERVE_DEEPSEEK = {
    "name": "DeepSeek-V3 chat",
    "kind": "inference",
    "model_preset": "deepseek-v3",
    "precision": "fp8",
    "context_tokens": 31744,
    "output_tokens": 1024,
    "concurrent_requests": 64,
    "kv_cache_precision": "fp8",
}


def test_sizing_tab_shows_expert_parallelism_dp_attention_and_kv_precision(
    client_for, it_lead, procurement, catalog
):
    services.create_workload(procurement=procurement, **SERVE_DEEPSEEK)
    post = {**REQUIREMENT_POST, "scenario": "inference"}
    post["accelerator_key"] = "h200-sxm-141gb"
    client = _english(client_for(it_lead))
    assert client.post(f"/procurements/{procurement.pk}/requirements/", post)
    plan = SizingPlan.objects.get()
    served = plan.result["workloads"][0]
    assert served["inference"]["kv_precision"] == "fp8"
    # FP8 latents halve the cache: one node, experts over all 8 GPUs, attention split
    # into data-parallel ranks (TP2 x DP4 wins on TPOT at the same GPU count)
    layout = served["parallelism"]
    assert (plan.result["gpu_count"], layout["expert"]) == (8, 8)
    ranks, striped = layout["attention_data"], layout["decode_context"]
    assert ranks * layout["tensor"] == 8
    html = client.get(f"/procurements/{procurement.pk}/sizing/").content.decode()
    assert f"expert parallel 8 · data-parallel attention {ranks}" in html
    assert "KV cache FP8" in html
    assert (f"decode context parallel {striped}" in html) == (striped > 1)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    zh = client.get(f"/procurements/{procurement.pk}/sizing/").content.decode()
    assert f"专家并行 8 · 注意力数据并行 {ranks}" in zh
    assert (f"解码上下文并行 {striped}" in zh) == (striped > 1)
    assert "KV 缓存 FP8" in zh


def test_workload_form_offers_the_kv_cache_precision(
    client_for, it_lead, procurement, catalog
):
    html = (
        _english(client_for(it_lead))
        .get(f"/procurements/{procurement.pk}/requirements/workloads/new/")
        .content.decode()
    )
    assert 'name="kv_cache_precision"' in html
    assert '<option value="fp8">FP8</option>' in html


def test_alternatives_are_priced_in_the_procurements_currency_with_the_rate(
    client_for, it_lead, procurement, catalog
):
    """The engine prices in USD; a CNY procurement sees CNY, converted at the rate
    shown under the table (issue 13)."""
    from django.contrib.humanize.templatetags.humanize import intcomma

    assert procurement.currency == "CNY"
    services.create_workload(procurement=procurement, **TRAIN_7B)
    client = _english(client_for(it_lead))
    client.post(f"/procurements/{procurement.pk}/requirements/", REQUIREMENT_POST)
    plan = SizingPlan.objects.get()
    first = plan.alternatives[0]
    html = client.get(f"/procurements/{procurement.pk}/sizing/").content.decode()
    assert "GPU capex + energy (CNY)" in html
    assert "GPU capex + energy (USD)" not in html
    assert "Converted from the catalogue's USD prices at 7.2 CNY per USD." in html
    cny = intcomma(f"{round(first['total_usd'] * 7.2):d}")
    assert f'<td class="num">{cny}</td>' in html


def test_workload_form_offers_the_memory_fraction_and_load_balancing(
    client_for, it_lead, procurement, catalog
):
    client = client_for(it_lead)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    html = client.get(
        f"/procurements/{procurement.pk}/requirements/workloads/new/"
    ).content.decode()
    assert 'name="gpu_memory_fraction"' in html
    assert 'name="expert_load_balancing"' in html
    assert "推理引擎显存占用比例" in html
    assert "专家并行负载均衡" in html
    assert 'name="arrival"' in html and "突发：全部同时到达" in html
    assert 'name="output_lengths"' in html and "围绕均值变化" in html
