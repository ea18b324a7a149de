"""What every endpoint of the REST API shares: the error body and the exception handler,
the role permission and the club scoping, versions (optimistic locking), pagination, the
query parameters that name an object or a season by id, and the schema snippets for error
responses (`error_responses`, `api_example`) that each package's `schema.py` uses.

Error body of every refusal: ``{"code": str, "message": str, "field": str | null}``, plus
``errors`` (field -> messages) when a request had several invalid fields, and ``details``
when the refusal names what it is about (the game that took a number). ``code`` is
stable (a BooksError or RuleViolation code, or DRF's: ``required``, ``invalid``,
``not_authenticated``, ``permission_denied``, ``not_found``, ...); ``message`` is German
(LANGUAGE_CODE de).

Roles (league/club/access.py): anonymous -> 401; a logged-in user reads the own club; only
the club's secretary writes it (403 for other members); another club's objects do not
exist (404, querysets are scoped to the user's club).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, overload

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import exceptions, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

from games.rules import RuleViolation
from league.club.access import ClubSuspended, member_for_user
from league.club.caching import KeptRead, api_conditional, api_private
from league.club.errors import BooksError, books_error_from_integrity
from league.club.models import Club, Member, Season
from league.club.scoping import club_scope_enter
from league.club.selectors import (
    VERSION_MAX,
    club_latest_season,
    club_season_by_id,
    whole_number,
)

# --------------------------------------------------------------------------- error body


class ErrorSerializer(serializers.Serializer):
    """The body of every refused request."""

    code = serializers.CharField(help_text="Stable snake_case code, e.g. `unknown_person`.")
    message = serializers.CharField(help_text="German explanation for the user.")
    field = serializers.CharField(
        allow_null=True, help_text="The request field the error concerns, or null."
    )
    errors = serializers.DictField(  # type: ignore[assignment]  # the body's public field name
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="All invalid fields with their messages (validation errors only).",
    )
    details = serializers.DictField(
        required=False,
        help_text="What the refusal is about, when it names something: for "
        "`duplicate_game_number` the game that has the number (`id`, `number`, `loser`, "
        "`loser_name`, `schock_aus_names`, `entered_by`, `entered_at`).",
    )


def error_body(code: str, message: str, field: str | None = None) -> dict:
    return {"code": code, "message": str(message), "field": field}


def _flatten(detail, prefix: str = "") -> list[tuple[str | None, exceptions.ErrorDetail]]:
    """DRF's nested error detail as a list of (dotted field path or None, ErrorDetail)."""
    out: list = []
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = str(key)
            if name in (api_settings.NON_FIELD_ERRORS_KEY, "detail"):
                path = prefix or None
            elif isinstance(key, int):  # ListField errors are keyed by the item's index
                path = f"{prefix}[{key}]"
            else:
                path = f"{prefix}.{name}" if prefix else name
            out.extend(_flatten(value, path or ""))
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            if isinstance(value, (dict, list)):
                out.extend(_flatten(value, f"{prefix}[{index}]"))
            else:
                out.extend(_flatten(value, prefix))
    else:
        out.append((prefix or None, detail))
    return out


def rule_violation_field(exc: RuleViolation, *, turn: bool = False) -> str | None:
    """The request field a RuleViolation concerns (rules evaluate endpoint)."""
    if turn or exc.attempt is not None:
        return "attempts"
    return {
        "wrong_number_of_dice": "dice",
        "die_out_of_range": "dice",
        "attempts_out_of_range": "attempts",
        "too_many_attempts": "attempts",
        "collected_in_one_attempt": "natural",
        "collected_without_one": "natural",
        "natural_not_bool": "natural",
        "muss_regel_broken": "muss_regel",
    }.get(exc.code)


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    """REST_FRAMEWORK["EXCEPTION_HANDLER"]: every refusal becomes `{code, message, field}`.

    BooksError -> its own status (400, 404, 409, 412, 428); RuleViolation -> 400 with its
    code; IntegrityError (the database refused) -> 409 or 400 via the services' mapping;
    Django ValidationError -> 400; DRF exceptions keep their status and get DRF's code.
    Anything else is a bug and stays a 500.
    """
    if isinstance(exc, BooksError):
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, ClubSuspended):
        return Response(error_body(exc.code, str(exc)), status=403)
    if isinstance(exc, RuleViolation):
        return Response(error_body(exc.code, str(exc), rule_violation_field(exc)), status=400)
    if isinstance(exc, IntegrityError):
        err = books_error_from_integrity(exc)
        return Response(err.as_dict(), status=err.status)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    if isinstance(exc, ObjectDoesNotExist | Http404):
        # Django's Http404 names the model in English ("No Evening matches the given
        # query."): the API says DRF's German "not found" instead.
        exc = exceptions.NotFound()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.APIException):
        items = _flatten(exc.detail)
    else:  # Http404 / PermissionDenied already converted by DRF
        items = _flatten(response.data)
    field, first = items[0] if items else (None, exceptions.ErrorDetail(_("Error."), "error"))
    code = getattr(first, "code", None) or "error"
    if isinstance(exc, exceptions.NotFound) or isinstance(exc, Http404):
        code = "not_found"
    body = error_body(code, str(first), field)
    if isinstance(exc, exceptions.ValidationError):
        grouped: dict[str, list[str]] = {}
        for path, detail in items:
            grouped.setdefault(path or api_settings.NON_FIELD_ERRORS_KEY, []).append(str(detail))
        body["errors"] = grouped
    response.data = body
    return response


# --------------------------------------------------------------------------- roles


def request_member(request) -> Member | None:
    """The requesting user's Member (club loaded), cached on the request; None if none.

    Read first after DRF authenticated the login (a token is read inside the view, after
    the middleware): the request's scope becomes the person's club here
    (league.club.scoping.club_scope_enter), or a scope without a club for a login
    without one, where a club query raises."""
    if not hasattr(request, "_schock_member"):
        member = member_for_user(request.user)
        club_scope_enter(member.club_id if member is not None else None)
        request._schock_member = member
    return request._schock_member


def request_club(request) -> Club | None:
    member = request_member(request)
    return member.club if member else None


def member_of(request) -> Member:
    """The requesting user's Member, for an endpoint whose permission has let the request in;
    a user without a club is refused (403), never a 500."""
    member = request_member(request)
    if member is None:
        raise exceptions.PermissionDenied()
    return member


def club_of(request) -> Club:
    """The requesting user's club, for an endpoint whose permission has let the request in
    (ClubRolePermission: logged in); a user without a club is refused (403), never a 500."""
    club = request_club(request)
    if club is None:
        raise exceptions.PermissionDenied()
    return club


def is_secretary(request) -> bool:
    member = request_member(request)
    return bool(member and member.is_secretary)


def club_scope_open(request) -> None:
    """Runs the rest of the API request in the scope of its login's club (reads the
    person: `request_member`). A suspended club's person is refused where the view reads
    the person (403 `club_suspended`), as without scopes: here nothing is raised."""
    try:
        request_member(request)
    except ClubSuspended:
        pass


class ClubRolePermission(BasePermission):
    """Logged in to read (the own club only, by queryset scoping); the club's secretary to
    write. Collection writes are checked before, object writes after the lookup, so that an
    object of another club answers 404 and never reveals itself by a 403. A viewset's
    `read_actions` are POSTs that write nothing (open to every member)."""

    message = gettext_lazy("Only the club's secretary may change the books.")
    code = "secretary_required"

    def has_permission(self, request, view) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        club_scope_open(request)
        if request.method in SAFE_METHODS or getattr(view, "detail", False):
            return True
        if getattr(view, "action", None) in getattr(view, "read_actions", ()):
            return True  # a POST that computes and writes nothing
        return is_secretary(request)

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return is_secretary(request)


if TYPE_CHECKING:  # for the type checker only: DRF's settings import this module early
    from rest_framework.generics import GenericAPIView

    _ViewBase = GenericAPIView
else:
    _ViewBase = object


class ClubScopedMixin(_ViewBase):
    """A viewset whose rows belong to the requesting user's club. `club_field` is the
    lookup path from the model to its Club id (e.g. "club_id", "evening__club_id")."""

    club_field = "club_id"
    permission_classes = [ClubRolePermission]
    lookup_value_regex = "[0-9]+"

    def scope(self, queryset):
        club = request_club(self.request)
        if club is None:
            return queryset.none()
        return queryset.filter(**{self.club_field: club.pk})


# --------------------------------------------------------------------------- versions


def _parse_version(raw, field: str) -> int:
    text = str(raw).strip()
    if text.startswith("W/"):
        text = text[2:]
    version = whole_number(text.strip('"'), maximum=VERSION_MAX)
    if version is None:
        raise BooksError("invalid_version", _("The version must be a whole number."), field=field)
    return version


def expected_version(request, body_version: int | None) -> int:
    """The version the client last saw: the `If-Match` header (ETag `"3"` or plain `3`),
    the body's `version`, or (for DELETE) the query parameter `?version=`.

    Raises BooksError: `version_required` (428) when none is given, `invalid_version` (400),
    `version_mismatch` (400) when header and body disagree.
    """
    header = request.headers.get("If-Match")
    from_header = _parse_version(header, "If-Match") if header else None
    if body_version is None and request.method == "DELETE":
        raw = request.query_params.get("version")
        body_version = _parse_version(raw, "version") if raw is not None else None
    if from_header is not None and body_version is not None and from_header != body_version:
        raise BooksError(
            "version_mismatch",
            _("If-Match and version name different versions."),
            field="version",
        )
    version = from_header if from_header is not None else body_version
    if version is None:
        raise BooksError(
            "version_required",
            _("Send the version you last read (field version or header If-Match)."),
            field="version",
            status=428,
        )
    return version


def etag(version: int) -> dict[str, str]:
    """Response headers that carry an evening's or game's version as its ETag."""
    return {"ETag": f'"{version}"'}


# --------------------------------------------------------------------------- pagination


class ApiPagination(PageNumberPagination):
    """`?page=2&page_size=100` (default 50, at most 500)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


# --------------------------------------------------------------------------- schema


_ERROR_TEXT = {
    400: "Bad input: `{code, message, field}` (validation error, refused by the rules or the "
    "books).",
    401: "Not logged in (session or `Authorization: Token ...`).",
    403: "Logged in, but not allowed: not the club's secretary (writes), not this member "
    "(dues), a login without a club, or a session's request without its CSRF token.",
    404: "Unknown, or of another club: it does not exist for you.",
    409: "Conflict with the stored books: a duplicate, a record still in use, the season "
    "is closed (`season_closed`: reopen it first), or a request with the same "
    "Idempotency-Key is still being processed.",
    412: "`stale_version`: someone changed it since you read it. Reload and send again.",
    422: "`idempotency_key_reused`: this Idempotency-Key came with another request. Use a new key.",
    428: "`version_required`: send the version you last read (`version` or `If-Match`).",
    429: "`throttled`: too many requests; try again after `Retry-After` seconds.",
}

_ERROR_EXAMPLES = {
    400: {"code": "unknown_person", "message": "Unbekannte Person: 99.", "field": "loser"},
    401: {"code": "not_authenticated", "message": "Anmeldedaten fehlen.", "field": None},
    403: {
        "code": "secretary_required",
        "message": "Nur der Buchführer des Clubs darf die Bücher ändern.",
        "field": None,
    },
    404: {"code": "not_found", "message": "Nicht gefunden.", "field": None},
    409: {
        "code": "duplicate_game_number",
        "message": "Dieser Abend hat schon ein Spiel mit dieser Nummer.",
        "field": "number",
    },
    412: {
        "code": "stale_version",
        "message": "Jemand anderes hat das inzwischen geändert. Neu laden und erneut eingeben.",
        "field": "version",
    },
    422: {
        "code": "idempotency_key_reused",
        "message": "Dieser Idempotency-Key kam schon mit einer anderen Anfrage. Bitte einen "
        "neuen Schlüssel verwenden.",
        "field": "Idempotency-Key",
    },
    428: {
        "code": "version_required",
        "message": "Bitte die zuletzt gelesene Version senden (Feld version oder If-Match).",
        "field": "version",
    },
    429: {
        "code": "throttled",
        "message": "Anfrage wurde gedrosselt. Erneuter Versuch in 60 Sekunden.",
        "field": None,
    },
}


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """Schema responses for the given error statuses (401 and 404 always included)."""
    wanted = sorted({401, 404, *statuses})
    return {
        status: OpenApiResponse(
            ErrorSerializer,
            description=_ERROR_TEXT[status],
            examples=[
                OpenApiExample(
                    f"Error {status}",
                    value=_ERROR_EXAMPLES[status],
                    response_only=True,
                    status_codes=[str(status)],
                )
            ],
        )
        for status in wanted
    }


def api_example(name: str, value, **kwargs) -> OpenApiExample:
    return OpenApiExample(name, value=value, **kwargs)


def require_secretary(request) -> None:
    """403 `secretary_required` for everyone but the club's secretary (pages:
    @secretary_required)."""
    if not is_secretary(request):
        raise BooksError(
            "secretary_required", _("Only the club's secretary may do this."), status=403
        )


def id_param(request, name: str, message: str | None = None) -> int | None:
    """A query parameter naming an object by id (ASCII digits, 1 to ID_MAX), or None when
    absent. Anything else: 400 `invalid` with `message` (default: "An object is named by
    its id.")."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    value = whole_number(raw)
    if not value:
        raise BooksError("invalid", message or _("An object is named by its id."), field=name)
    return value


@overload
def season_param(request, *, club: Club | None, latest_by_default: Literal[True]) -> Season: ...


@overload
def season_param(
    request, *, club: Club | None, latest_by_default: Literal[False] = False
) -> Season | None: ...


def season_param(request, *, club: Club | None, latest_by_default: bool = False) -> Season | None:
    """The club's season named by `?season=<id>`. Without the parameter: None (every
    season), or with `latest_by_default` the club's latest season. Refusals: 400 `invalid`
    (not an id), 404 `unknown_season` (no season of the club, or none at all when the
    latest is wanted)."""
    season_id = id_param(request, "season", _("A season is named by its id."))
    if season_id is None and not latest_by_default:
        return None
    season = None
    if club is not None:
        if season_id is None:
            season = club_latest_season(club=club)
        else:
            season = club_season_by_id(club=club, season_id=season_id)
    if season is None:
        raise BooksError(
            "unknown_season", _("The club has no such season."), field="season", status=404
        )
    return season


# --- kept API reads ----------------------------------------------------------


def kept_api_read(
    request,
    name: str,
    *parts: Any,
    club: Club,
    build: Callable[[], Any],
    shape: Callable[[Any], Any] | None = None,
) -> Response:
    """An API read kept by the club's books and register versions, with its ETag and 304
    (league/club/caching.py `KeptRead`, `api_conditional`; the one helper every kept API
    read uses): `build()`'s data (plain values) is computed once per versions, `name` and
    `parts` (what the data depends on beyond the versions: the season, the person, the
    query) and kept; the ETag adds the viewer, the full path and the day. `shape(data)`,
    when given, is applied per request after the kept read (what this viewer may see of
    the kept data: the ETag names the viewer, so a shaped answer is never another's).
    Bad input raises in `build()` as before (nothing is kept)."""
    etag, not_modified = api_conditional(request, name, *parts, club=club)
    if not_modified is not None:
        return not_modified
    data = KeptRead(f"api_{name}", ("books",)).cached(
        *parts, build=build, request=request, club=club
    )
    return api_private(Response(data if shape is None else shape(data)), etag)


def kept_api_list(request, name: str, build: Callable[[], Any]) -> Response:
    """A list read of the API kept by the club's versions (`kept_api_read`): `build()`
    gives the response's data (a page of a paginated list, plain values), computed once
    per versions, club, language and full URI (the query: filters, page, page size,
    ordering; the host: the page links are absolute). A user without a club gets
    `build()` uncached. Bad input raises in `build()` as before (nothing is kept)."""
    club = request_club(request)
    if club is None:
        return Response(build())
    return kept_api_read(
        request, f"list_{name}", club.pk, request.build_absolute_uri(), club=club, build=build
    )


def kept_api_object(request, name: str, pk: Any, build: Callable[[], Any]) -> Any:
    """A detail read of the API kept by the club's versions (`KeptRead`): `build()`'s data
    (plain values: a dict, or a list as a game's rounds) for the club's object `pk`,
    computed once per versions, club and language. An unknown `pk` or another club's
    raises in `build()` (404, nothing is kept). The caller sets the headers (an evening's
    or game's ETag is its `version`, the one to send back in `If-Match`). A user without
    a club gets `build()` uncached."""
    club = request_club(request)
    if club is None:
        return build()
    kept = KeptRead(f"api_object_{name}", ("books",))
    return kept.cached(club.pk, str(pk), build=build, request=request, club=club)
