"""API fuzzing: schemathesis generates requests from our own OpenAPI schema.

Every generated request (valid and invalid bodies, odd ids) must answer without a 5xx
and conform to the schema. Bounded: a fixed number of examples per operation and a
deadline, so the suite stays fast.

The schema's own examples stay inside the bounds it states, and its random ids rarely
name a stored bid; so the two bodies issue 10 poisoned (a bid PATCH, the sizing
estimate) are also fuzzed with hostile numbers (1e308, 2**70, "NaN") against a real
bid, and whatever a PATCH accepted must leave the bid and the comparison readable.
"""

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis import checks
from schemathesis.config import SchemathesisConfig

from clusterbuy.models import Role
from tests.factories import OrganisationFactory, ProcurementFactory, member
from tests.vendors.test_support import make_bid, make_vendor

# Operations whose bodies are files or which start background work are fuzzed
# elsewhere (uploads: tests/vendors; TCO runs: tests/tco).
EXCLUDED_PATHS = r"(import|report\.pdf|attachments)"


@pytest.fixture(autouse=True)
def _keep_test_connection():
    """As Django's test client does: keep the test's transaction open across requests."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def fuzz_token(db):
    organisation = OrganisationFactory(name="Fuzz Org")
    user = member(organisation, Role.ADMIN, "fuzz-admin")
    ProcurementFactory(organisation=organisation, name="Fuzzed procurement")
    return Token.objects.create(user=user).key


def _load_schema():
    from clusterbuy.wsgi import application

    # The fuzzing phase only: the coverage phase enumerates every boundary of every
    # field (hundreds of cases for the sizing body) and would dominate the suite's time.
    config = SchemathesisConfig.from_dict({"phases": {"coverage": {"enabled": False}}})
    return schemathesis.openapi.from_wsgi("/api/v1/schema/", application, config=config)


schema = _load_schema()


@schema.exclude(path_regex=EXCLUDED_PATHS).parametrize()
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_api_never_answers_5xx_and_follows_its_schema(case, fuzz_token):
    case.call_and_validate(
        headers={"Authorization": f"Token {fuzz_token}"},
        # No 5xx, and every answer (status, content type, body) is one the schema lists.
        # DRF's lenient parsing of e.g. "0" as a boolean is not counted as a failure.
        checks=[
            checks.not_a_server_error,
            checks.status_code_conformance,
            checks.content_type_conformance,
            checks.response_schema_conformance,
        ],
    )


# --- hostile numbers in the bodies issue 10 found poisoned ---------------------------

HOSTILE_NUMBERS = st.one_of(
    st.sampled_from([1e308, 1e30, 1e15, 2**31, 2**40, 2**63, 0, -1, "NaN", "1e400"]),
    st.floats(allow_nan=False, allow_infinity=False),  # up to 1.8e308
    st.integers(min_value=-(2**70), max_value=2**70),
)
HOSTILE_SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
BID_PATCH = schema["/api/v1/procurements/{procurement_pk}/bids/{id}/"]["PATCH"]
BID_GET = schema["/api/v1/procurements/{procurement_pk}/bids/{id}/"]["GET"]
COMPARISON_GET = schema["/api/v1/procurements/{procurement_pk}/comparison/"]["GET"]
ESTIMATE = schema["/api/v1/sizing/estimate"]["POST"]


def _number_fields(operation) -> list[str]:
    body = operation.definition.raw["requestBody"]["content"]["application/json"]
    ref = body["schema"]["$ref"].rsplit("/", 1)[-1]
    properties = operation.schema.raw_schema["components"]["schemas"][ref]
    return sorted(
        name
        for name, spec in properties["properties"].items()
        if spec.get("type") in ("number", "integer")
    )


@pytest.fixture
def fuzz_bid(fuzz_token):
    token = Token.objects.get(key=fuzz_token)
    procurement = ProcurementFactory(
        organisation=token.user.membership.organisation, name="Bid fuzz"
    )
    return make_bid(procurement, make_vendor(procurement.organisation, "Fuzz Ltd"))


@given(
    case=BID_PATCH.as_strategy(),
    hostile=st.dictionaries(
        st.sampled_from(_number_fields(BID_PATCH)),
        HOSTILE_NUMBERS,
        min_size=1,
        max_size=2,
    ),
)
@HOSTILE_SETTINGS
def test_a_bid_patch_with_hostile_numbers_never_answers_5xx(
    case, hostile, fuzz_bid, fuzz_token
):
    headers = {"Authorization": f"Token {fuzz_token}"}
    case.path_parameters = {
        "procurement_pk": fuzz_bid.procurement_id,
        "id": fuzz_bid.pk,
    }
    # Only the hostile numbers: the schema's other generated fields (a random vendor
    # id) would stop the PATCH at a 400 before a number is ever stored.
    case.body = hostile
    case.call_and_validate(headers=headers, checks=[checks.not_a_server_error])
    for read in (
        BID_GET.Case(path_parameters=case.path_parameters),
        COMPARISON_GET.Case(
            path_parameters={"procurement_pk": fuzz_bid.procurement_id}
        ),
    ):
        assert read.call(headers=headers).status_code == 200, read.path


_SERVE = {"kind": "inference", "context_tokens": 2048, "concurrent_requests": 8}
_TRAIN = {"kind": "training", "tokens_b": 100, "target_days": 30}
_CUSTOM_MODEL = {"layers": 32, "hidden_size": 4096, "attention_heads": 32}
_CUSTOM_MODEL["vocab_size"] = 32000
# Where a hostile number goes: one field of a sound body at a time, so the number
# reaches the arithmetic instead of stopping at another field's 400.
_MODEL_NUMBERS = (*_CUSTOM_MODEL, "kv_heads", "head_dim", "ffn_hidden_size")
_MODEL_NUMBERS += ("moe_experts", "params_b", "max_context_tokens", "kv_lora_rank")
_WORKLOAD_NUMBERS = ("seq_len", "tokens_b", "target_days", "gpu_count", "mfu")
_WORKLOAD_NUMBERS += ("micro_batch", "global_batch_tokens", "context_tokens")
_WORKLOAD_NUMBERS += ("output_tokens", "concurrent_requests", "tokens_per_second")
_WORKLOAD_NUMBERS += ("requests_per_second", "ttft_ms", "tpot_ms", "dataset_tb")
_CONSTRAINT_NUMBERS = ("rack_power_limit_kw", "budget_usd", "pue")
_CONSTRAINT_NUMBERS += ("fx_cny_per_usd", "electricity_usd_per_kwh")
TARGETS = [
    *(("model", name) for name in _MODEL_NUMBERS),
    *(("workload", name) for name in _WORKLOAD_NUMBERS),
    *(("constraints", name) for name in _CONSTRAINT_NUMBERS),
]


def _estimate_body(base: dict, where: str, name: str, value) -> dict:
    model = dict(_CUSTOM_MODEL)
    workload = {**base, "model": model}
    constraints: dict = {}
    parts = {"model": model, "workload": workload, "constraints": constraints}
    parts[where][name] = value
    body = {"workload": workload, "constraints": constraints}
    return {**body, "accelerator": "h100-sxm-80gb"}


@pytest.fixture
def reference_catalog(db):
    from sizing.services import load_reference_catalog

    load_reference_catalog()


@given(
    case=ESTIMATE.as_strategy(),
    base=st.sampled_from([_SERVE, _TRAIN]),
    target=st.sampled_from(TARGETS),
    value=HOSTILE_NUMBERS,
)
@settings(HOSTILE_SETTINGS, max_examples=60)
def test_a_sizing_estimate_with_hostile_numbers_never_answers_5xx(
    case, base, target, value, reference_catalog
):
    case.body = _estimate_body(base, *target, value)
    # An infinity in the answer would be a 500 too: DRF's strict renderer refuses it.
    case.call_and_validate(checks=[checks.not_a_server_error])
