from clusterbuy import demo as core_demo
from tco import demo
from tco.models import RunStatus, TcoRun, TcoScenario


def test_demo_has_a_scenario_and_a_succeeded_run_and_loads_idempotently(
    db, fake_pdf, few_draws
):
    context: dict = {}
    core_demo.load(context)
    demo.load(context)
    demo.load(context)

    scenario = TcoScenario.objects.get(procurement=context["procurement"])
    assert scenario.name == demo.SCENARIO_NAME
    run = TcoRun.objects.get(scenario=scenario)
    assert run.status == RunStatus.SUCCEEDED
    assert run.pdf.name == f"tco/run-{run.pk}-zh-hans.pdf"
    assert run.result["inputs"]["staff_fte"] == 2
