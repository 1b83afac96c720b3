"""Demo data of the core: an organisation, its people and one procurement.

`manage.py load_demo` runs every app's `demo.load(context)` in INSTALLED_APPS order;
each app adds its part to the same procurement. Idempotent: run twice, nothing doubles.
"""

from decimal import Decimal

from . import services
from .models import Procurement, Role

DEMO_PASSWORD = "clusterbuy-demo"
DEMO_USERS = {
    "demo-admin": Role.ADMIN,
    "demo-it": Role.IT_LEAD,
    "demo-buyer": Role.PROCUREMENT,
    "demo-manager": Role.MANAGER,
    "demo-viewer": Role.VIEWER,
}


def load(context: dict) -> None:
    setup = services.create_organisation(
        name="演示科技有限公司 Demo AI Co.",
        admin_username="demo-admin",
        password=DEMO_PASSWORD,
    )
    organisation = setup.organisation
    users = {}
    for username, role in DEMO_USERS.items():
        users[username] = services.add_member(
            organisation=organisation,
            username=username,
            password=DEMO_PASSWORD,
            role=role,
        )
    procurement = Procurement.objects.filter(
        organisation=organisation, name="大模型训练与推理集群 LLM cluster 2027"
    ).first()
    if procurement is None:
        procurement = services.create_procurement(
            organisation=organisation,
            user=users["demo-it"],
            name="大模型训练与推理集群 LLM cluster 2027",
            description=(
                "继续预训练 70B 模型并部署推理服务；医疗影像数据须本地部署。"
                " Continued pre-training of a 70B model plus an inference service."
            ),
            currency="CNY",
            budget_min=Decimal("20000000"),
            budget_max=Decimal("35000000"),
            horizon_years=5,
            deployment_site="on_prem",
            city="上海 Shanghai",
            region="cn",
            data_sensitivity="medical_imaging",
            ops_staff_count=3,
            slurm_experience=True,
            kubernetes_experience=True,
        )
    context.update(organisation=organisation, users=users, procurement=procurement)
