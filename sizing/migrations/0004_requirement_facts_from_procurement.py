"""The questionnaire's copies of the procurement's facts go (issue 12).

Before the columns are dropped, what only the questionnaire knew is carried to the
procurement; the procurement's own value wins where it has one (it is the one home):
- region: the procurement had none, so it takes the questionnaire's;
- budget: becomes the procurement's ``budget_max`` when that is empty (converted at
  the engine's CNY 7.2 per USD when the currencies differ; skipped when it would fall
  below ``budget_min``);
- scheduler experience: Slurm / Kubernetes switch the procurement's flags on.
Planning years (1-3) and data location are dropped: the procurement always holds its
horizon (3-5 years) and deployment site. Stored sizing plans keep the constraints they
were computed with in ``SizingPlan.inputs``. Backwards, the columns come back filled
from the procurement.
"""

from decimal import Decimal

from django.db import migrations

FX_CNY_PER_USD = Decimal("7.2")  # sizing.services.requirements.FX_CNY_PER_USD
CENTS = Decimal("0.01")


def _budget_in(requirement, currency):
    budget = requirement.budget
    if requirement.budget_currency == currency:
        return budget
    if currency == "CNY":
        return (budget * FX_CNY_PER_USD).quantize(CENTS)
    return (budget / FX_CNY_PER_USD).quantize(CENTS)


def carry_to_procurement(apps, schema_editor):
    Requirement = apps.get_model("sizing", "Requirement")
    for requirement in Requirement.objects.select_related("procurement"):
        procurement = requirement.procurement
        procurement.region = requirement.region
        if requirement.budget is not None and procurement.budget_max is None:
            budget = _budget_in(requirement, procurement.currency)
            low = procurement.budget_min
            if low is None or low <= budget:
                procurement.budget_max = budget
        experience = requirement.scheduler_experience
        if experience in ("slurm", "both"):
            procurement.slurm_experience = True
        if experience in ("kubernetes", "both"):
            procurement.kubernetes_experience = True
        procurement.save(
            update_fields=[
                "region",
                "budget_max",
                "slurm_experience",
                "kubernetes_experience",
            ]
        )


SITES_BACK = {"on_prem": "on_prem", "colocation": "on_prem", "cloud": "cloud"}


def fill_from_procurement(apps, schema_editor):
    Requirement = apps.get_model("sizing", "Requirement")
    for requirement in Requirement.objects.select_related("procurement"):
        procurement = requirement.procurement
        slurm, k8s = procurement.slurm_experience, procurement.kubernetes_experience
        requirement.region = procurement.region
        requirement.budget = procurement.budget_max
        requirement.budget_currency = procurement.currency
        requirement.planning_years = min(procurement.horizon_years, 3)
        requirement.data_location = SITES_BACK.get(
            procurement.deployment_site, "multi_site"
        )
        requirement.scheduler_experience = (
            "both" if slurm and k8s else "slurm" if slurm else "kubernetes" if k8s
            else "none"
        )
        requirement.save()


class Migration(migrations.Migration):

    dependencies = [
        ('sizing', '0003_workload_precision_published_default'),
        ('clusterbuy', '0003_procurement_region'),
    ]

    operations = [
        migrations.RunPython(carry_to_procurement, fill_from_procurement),
        migrations.RemoveConstraint(
            model_name='requirement',
            name='sizing_requirement_planning_1_to_3_years',
        ),
        migrations.RemoveField(
            model_name='requirement',
            name='budget',
        ),
        migrations.RemoveField(
            model_name='requirement',
            name='budget_currency',
        ),
        migrations.RemoveField(
            model_name='requirement',
            name='data_location',
        ),
        migrations.RemoveField(
            model_name='requirement',
            name='planning_years',
        ),
        migrations.RemoveField(
            model_name='requirement',
            name='region',
        ),
        migrations.RemoveField(
            model_name='requirement',
            name='scheduler_experience',
        ),
    ]
