"""API fuzzing: schemathesis generates requests from our own OpenAPI schema.

Every generated request (valid and invalid bodies, odd ids) must answer without a 5xx
and conform to the schema. Bounded: a fixed number of examples per operation and a
deadline, so the suite stays fast.
"""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis import checks
from schemathesis.config import SchemathesisConfig

from clusterbuy.models import Role
from tests.factories import OrganisationFactory, ProcurementFactory, member

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
