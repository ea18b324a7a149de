"""The OpenAPI schema's error answers, documented in one place (REST_FRAMEWORK
["DEFAULT_SCHEMA_CLASS"]).

Each package's `schema.py` documents what is particular to its operations (the 400s of its
input, a 412/428 of a versioned write, a 429 of the login). What follows from how every
endpoint works is added here to every operation that lacks it, with the shared bodies and
examples of `league.club.api_common.error_responses`:

- 401 and 403 when the operation needs a login: not logged in; logged in but not allowed
  (not the secretary, not this member, a login without a club, a failed CSRF check of a
  session).
- 404 when the path names an object (`{id}`): unknown, or of another club.
- 409 for every write of the books: every books writer ends with the books-changed event,
  which refuses a closed season (`season_closed`), and the database's refusals map to 409
  (league/club/errors.py). A view whose writes are not the books (logins, a computation,
  queueing a report) says so with `writes_books = False`; a viewset's `read_actions` (POSTs
  that compute and write nothing) count as reads.
- 429 when the view throttles requests.
- 304 for a GET whose view method is marked `answers_not_modified`: it sends an ETag and
  answers a repeat carrying it with 304 Not Modified (league/club/caching.py).
- The `Idempotency-Key` header, and its 409 (the same key still being processed) and 422
  (the same key with another body), on every operation whose view method is
  `idempotent` (league/club/idempotency.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework.permissions import AllowAny

from league.club.api_common import error_responses
from league.club.idempotency import IDEMPOTENCY_KEY_PARAMETER
from league.club.scoping import across_clubs

F = TypeVar("F", bound=Callable[..., Any])

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

NOT_MODIFIED = OpenApiResponse(
    None,
    description="Not Modified: the `If-None-Match` sent carries the ETag of this read, "
    "nothing it shows has changed since. No body.",
)


def answers_not_modified(method: F) -> F:
    """Marks a view's GET handler (`get`, `list`, an action) that sends an ETag and
    answers a repeat with it in `If-None-Match` by 304: the schema documents the 304."""
    method.answers_not_modified = True  # type: ignore[attr-defined]
    return method


class ClubAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema, adding the error answers every endpoint can give
    (see the module) to the responses the operation documents itself."""

    def get_override_parameters(self) -> list[Any]:
        parameters = list(super().get_override_parameters())
        if self._idempotent():
            parameters.append(IDEMPOTENCY_KEY_PARAMETER)
        return parameters

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for status, response in self._implied_responses().items():
            code = str(status)
            if code not in responses:
                responses[code] = self._get_response_for_code(response, code, None, direction)
        return dict(sorted(responses.items()))

    def _implied_responses(self) -> dict[int, OpenApiResponse]:
        statuses: list[int] = []
        if self._needs_login():
            statuses += [401, 403]
        if "{" in self.path:
            statuses.append(404)
        if self._writes_books() or self._idempotent():
            statuses.append(409)
        if self._idempotent():
            statuses.append(422)
        if self.view.get_throttles():
            statuses.append(429)
        implied = error_responses(*statuses) if statuses else {}
        implied = {status: implied[status] for status in statuses}
        if self.method == "GET" and self._answers_not_modified():
            implied[304] = NOT_MODIFIED
        return implied

    def _needs_login(self) -> bool:
        return not any(isinstance(p, AllowAny) for p in self.view.get_permissions())

    def _handler(self) -> Any:
        action = getattr(self.view, "action", None)
        return getattr(self.view, action or self.method.lower(), None)

    def _writes_books(self) -> bool:
        if self.method not in WRITE_METHODS or not getattr(self.view, "writes_books", True):
            return False
        action = getattr(self.view, "action", None)
        return action not in getattr(self.view, "read_actions", ())

    def _idempotent(self) -> bool:
        return bool(getattr(self._handler(), "idempotent", False))

    def _answers_not_modified(self) -> bool:
        return bool(getattr(self._handler(), "answers_not_modified", False))


class ClubSchemaGenerator(SchemaGenerator):
    """drf-spectacular's generator, run across clubs: it asks each view's `get_queryset`
    for its model only (no row is read), and the club-owned models' querysets need a
    scope (league/club/scoping.py). The schema view, `manage.py spectacular` and
    drf-spectacular's check (`check --deploy`) all use it."""

    def get_schema(self, request=None, public=False):
        with across_clubs():
            return super().get_schema(request=request, public=public)
