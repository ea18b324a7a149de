"""Stateful fuzzing of the API: schemathesis (4.x) infers the links
between operations from the OpenAPI schema (an id one answer gives is the path parameter of
the next call: a season's evenings, an evening's games, a member's statement, a payment to
cancel...) and chains them into random workflows on the demo club's data, as its secretary.
No step may answer a 5xx, and every answer must conform to the schema."""

import os

import pytest
import schemathesis
from django.db import transaction
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

# One xdist worker runs the group "demo" (`make test`: --dist loadgroup): tests/fuzz,
# tests/pages/demo and the backup's round trip of the demo, so the demo is built once
# there (tests/pages/demo/demo_rows.py), and first, as the largest group.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("demo")]

MAX_EXAMPLES = int(os.environ.get("FUZZ_MAX_EXAMPLES", "8"))
DERANDOMIZE = not os.environ.get("FUZZ_RANDOM")
STEPS = 6


def test_api_workflows_on_the_demo_data_never_fail(raw_api_schema, wsgi_app, secretary_headers):
    schema = schemathesis.openapi.from_dict(raw_api_schema)
    schema.app = wsgi_app
    machine = schema.as_state_machine()
    assert schema.statistic.transitions.total > 50  # the links were found: this is stateful

    calls: list[tuple[str, int]] = []

    class SecretaryWorkflows(machine):  # type: ignore[misc, valid-type]
        def after_call(self, response, case):
            super().after_call(response, case)
            calls.append((f"{case.method} {case.path}", response.status_code))

        def setup(self):
            # every workflow starts from the demo data: its writes are rolled back after it
            self.savepoint = transaction.atomic()
            self.savepoint.__enter__()

        def teardown(self):
            transaction.set_rollback(True)
            self.savepoint.__exit__(None, None, None)

        def get_call_kwargs(self, case):
            return {"headers": secretary_headers()}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(
                response, checks=[not_a_server_error, response_schema_conformance]
            )

    SecretaryWorkflows.run(
        settings=settings(
            max_examples=MAX_EXAMPLES,
            stateful_step_count=STEPS,
            derandomize=DERANDOMIZE,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    assert len(calls) > MAX_EXAMPLES  # workflows of several steps ran
    answered = [status for _op, status in calls]
    assert answered.count(401) == 0  # every step ran as the secretary
    assert sum(status < 300 for status in answered) >= len(answered) // 4
