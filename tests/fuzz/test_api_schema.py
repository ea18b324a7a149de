"""Property-based run of the whole API against its own OpenAPI schema (Tests): schemathesis (4.x)
generates requests for every operation, valid and
invalid ones, sent in-process through Django's WSGI app as the demo club's secretary, and
with fewer examples as a member or a guest (each operation as one of them; token); no
response may be a 5xx, and every response must conform to the schema. Half the generated
object ids are replaced by ids of the demo's real objects, so that detail endpoints are
exercised beyond 404. Every write
that takes an `Idempotency-Key` is also sent twice with one key: the second answer must be
the first one again when that succeeded, and neither may be a 5xx."""

import os
import uuid
import zlib

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from games.evenings.models import Evening, Game
from league.club.models import Season

# One xdist worker runs the group "demo" (`make test`: --dist loadgroup): tests/fuzz,
# tests/pages/demo and the backup's round trip of the demo, so the demo is built once
# there (tests/pages/demo/demo_rows.py), and first, as the largest group.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("demo")]

# CI runs a fixed, derandomised set (reproducible); explore more with e.g.
#   FUZZ_MAX_EXAMPLES=200 FUZZ_RANDOM=1 .venv/bin/python -m pytest tests/fuzz
MAX_EXAMPLES = int(os.environ.get("FUZZ_MAX_EXAMPLES", "4"))
# The member's and guest's runs and the key replays: fewer, they add to CI's time.
ROLE_EXAMPLES = int(os.environ.get("FUZZ_ROLE_EXAMPLES", "1"))
REPLAY_EXAMPLES = int(os.environ.get("FUZZ_REPLAY_EXAMPLES", "1"))
DERANDOMIZE = not os.environ.get("FUZZ_RANDOM")


@pytest.fixture
def api_schema(raw_api_schema, wsgi_app):
    schema = schemathesis.openapi.from_dict(raw_api_schema)
    schema.app = wsgi_app
    return schema


def _without_coverage_phase(schema):
    """`schema` without schemathesis's coverage phase, which sends every boundary and
    negative case the schema defines for each operation, whatever max_examples says: the
    secretary's run sends them all; the runs below keep the examples and the fuzzing."""
    schema.config.phases.coverage.enabled = False
    return schema


@pytest.fixture
def role_api_schema(raw_api_schema, wsgi_app):
    """The whole schema for the member's and guest's run, without the coverage phase:
    their writes are refused (403, league/club/api_common.py ClubRolePermission) before a
    body is read, and their reads and the POSTs that only compute parse the query and the
    body by the same code as the secretary's, whose run sends every boundary case; the
    permission matrix (tests/api/test_permissions.py) has every operation as every role."""
    schema = _without_coverage_phase(schemathesis.openapi.from_dict(raw_api_schema))
    schema.app = wsgi_app
    return schema


@pytest.fixture
def idempotent_api_schema(raw_api_schema, wsgi_app):
    """The schema's writes that document the Idempotency-Key header, and nothing else."""
    paths = {}
    for path, item in raw_api_schema["paths"].items():
        kept = {
            method: operation
            for method, operation in item.items()
            if isinstance(operation, dict)
            and any(p.get("name") == IDEMPOTENCY_KEY for p in operation.get("parameters", []))
        }
        if kept:
            paths[path] = kept
    assert len(paths) >= 8  # the API's creating writes take a key
    # Without the coverage phase: its cases are the invalid bodies the secretary's run
    # sends already, answered 400, and only a write that succeeded is compared here.
    schema = _without_coverage_phase(
        schemathesis.openapi.from_dict({**raw_api_schema, "paths": paths})
    )
    schema.app = wsgi_app
    return schema


IDEMPOTENCY_KEY = "Idempotency-Key"
schema = schemathesis.pytest.from_fixture("api_schema")
role_schema = schemathesis.pytest.from_fixture("role_api_schema")
idempotent_schema = schemathesis.pytest.from_fixture("idempotent_api_schema")


def _real_id(demo, path: str) -> int | None:
    """The id of a real object of the demo club behind a detail path, if it has one (one
    query, for the path's kind of object only)."""
    club = demo.club
    objects = [
        ("/api/v1/clubs/", lambda: club.pk),
        (
            "/api/v1/seasons/",
            lambda: Season.objects.filter(club=club).values_list("pk", flat=True).last(),
        ),
        ("/api/v1/members/", lambda: demo.member.pk),
        (
            "/api/v1/evenings/",
            lambda: Evening.objects.filter(club=club).values_list("pk", flat=True).last(),
        ),
        (
            "/api/v1/games/",
            lambda: Game.objects.filter(evening__club=club).values_list("pk", flat=True).last(),
        ),
    ]
    for prefix, pk in objects:
        if path.startswith(prefix):
            return pk()
    return None


def _with_real_id(case, demo) -> None:
    if case.path_parameters and "id" in case.path_parameters:
        real = _real_id(demo, case.path)
        if real is not None and zlib.crc32(str(case.path_parameters["id"]).encode()) % 2 == 0:
            case.path_parameters["id"] = real


def _call_and_check(case, headers: dict[str, str]):
    response = case.call(headers=headers)
    # Raises with schemathesis's own report on a 5xx or a response the schema does not allow.
    case.validate_response(response, checks=[not_a_server_error, response_schema_conformance])
    assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.text}"
    return response


# The secretary's run in two tests, the reads and the writes (each operation in one of
# them): with every case of the coverage phase, one test of all took over a minute.
@schema.include(method="GET").parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=DERANDOMIZE,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_reads_conform_to_its_schema_and_never_fail(case, demo_club, secretary_read_headers):
    _with_real_id(case, demo_club)
    _call_and_check(case, dict(secretary_read_headers))


@schema.exclude(method="GET").parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=DERANDOMIZE,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_writes_conform_to_its_schema_and_never_fail(case, demo_club, secretary_headers):
    _with_real_id(case, demo_club)
    _call_and_check(case, secretary_headers())


@role_schema.parametrize()
@settings(
    max_examples=ROLE_EXAMPLES,
    derandomize=DERANDOMIZE,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_as_a_member_or_a_guest_never_fails(case, demo_club, role_headers):
    # Each operation as one of the two, by turns (fixed by its path): both roles cover half
    # the operations each for the cost of one run.
    role = ("member", "guest")[zlib.crc32(f"{case.method} {case.path}".encode()) % 2]
    _with_real_id(case, demo_club)
    _call_and_check(case, role_headers(role))


@idempotent_schema.parametrize()
@settings(
    max_examples=REPLAY_EXAMPLES,
    derandomize=DERANDOMIZE,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_a_write_sent_twice_with_one_key_answers_the_same(case, demo_club, secretary_headers):
    _with_real_id(case, demo_club)
    key = {IDEMPOTENCY_KEY: str(uuid.uuid4())}
    first = _call_and_check(case, {**secretary_headers(), **key})
    again = _call_and_check(case, {**secretary_headers(), **key})
    if 200 <= first.status_code < 300:
        assert (again.status_code, again.content) == (first.status_code, first.content)
