"""The migration that drops the questionnaire's copies of the procurement's facts
carries what only the questionnaire knew to the procurement (and back)."""

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [
    ("sizing", "0003_workload_precision_published_default"),
    ("clusterbuy", "0003_procurement_region"),
]
AFTER = [("sizing", "0004_requirement_facts_from_procurement")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_region_budget_and_scheduler_move_to_the_procurement_and_back():
    apps = _migrate(BEFORE)
    Organisation = apps.get_model("clusterbuy", "Organisation")
    Procurement = apps.get_model("clusterbuy", "Procurement")
    Requirement = apps.get_model("sizing", "Requirement")
    org = Organisation.objects.create(name="Migrating Co.")
    empty = Procurement.objects.create(
        organisation=org, name="no budget yet", currency="CNY", horizon_years=5
    )
    Requirement.objects.create(
        procurement=empty,
        region="global",
        budget=Decimal("1000000"),
        budget_currency="USD",
        planning_years=3,
        scheduler_experience="both",
    )
    budgeted = Procurement.objects.create(
        organisation=org,
        name="has a budget",
        currency="CNY",
        horizon_years=4,
        budget_max=Decimal("30000000"),
    )
    Requirement.objects.create(
        procurement=budgeted,
        region="cn",
        budget=Decimal("99"),
        budget_currency="CNY",
        scheduler_experience="slurm",
    )
    try:
        apps = _migrate(AFTER)
        Procurement = apps.get_model("clusterbuy", "Procurement")
        moved = Procurement.objects.get(name="no budget yet")
        # 1,000,000 USD x 7.2 CNY per USD (the engine's rate) into the CNY procurement
        assert moved.budget_max == Decimal("7200000.00")
        assert moved.region == "global"
        assert (moved.slurm_experience, moved.kubernetes_experience) == (True, True)
        kept = Procurement.objects.get(name="has a budget")
        assert kept.budget_max == Decimal("30000000.00")  # the procurement's own wins
        assert kept.region == "cn" and kept.slurm_experience
        assert not kept.kubernetes_experience

        apps = _migrate(BEFORE)
        Requirement = apps.get_model("sizing", "Requirement")
        back = Requirement.objects.get(procurement__name="has a budget")
        assert back.budget == Decimal("30000000.00") and back.budget_currency == "CNY"
        assert (back.region, back.planning_years) == ("cn", 3)
        assert back.scheduler_experience == "slurm"
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
