"""Reads of the books cached by the club's data version, and conditional GETs (issue 15
items 1 and 2).

The books change only through the one books-changed event (league/club/books.py), which
moves the season's `data_version` in the writer's transaction. Everything a page or an API
read shows of the books is therefore a function of

- the club's **books version** (`club_books_version`): every season's id, year and data
  version and the club's people (a new person moves no season's version but shows in the
  switchers), read in one query; and
- what the response depends on besides: the language, the user's role and person, the
  query parameters.

`books_cached` keeps a computed read (a selector's result, a rendered fragment) in Django's
cache (Redis with REDIS_URL, local memory otherwise) under a key of those parts: a new
version is a new key, so nothing is ever invalidated by hand and nothing stale is read.
`books_page` and `api_not_modified` / `api_etag` answer a repeated GET with 304 Not
Modified when its `If-None-Match` carries the ETag of the same key.

Decisions:
- Nothing is cached inside a writer's transaction (`in_writer_transaction`): a writer
  that rolls back after `books_changed` would leave a value under a version number the
  next commit reuses. Reads of the pages and the API run outside transactions
  (ATOMIC_REQUESTS is off), so they are cached; a read inside a writer is computed. The
  transaction a test case wraps around each test is no writer's: the tests read through
  the cache as production does (tests/conftest.py empties it before each test).
- The cache is an accelerator, never a dependency: when Redis cannot be reached the read
  is computed (and logged once per request), the page keeps working.
- Page ETags vary by the session's user and its CSRF cookie (the page carries a CSRF
  token for the logout form), and are `Cache-Control: private, no-cache` with
  `Vary: Cookie`: a browser revalidates every time, no shared cache stores a page, and a
  member never gets another's page. API ETags vary by the token's user the same way
  (`Vary: Authorization, Cookie`).
- Kept HTML (`books_fragment`, the standings page's books part) is rendered without the
  request and keyed by everything it shows beyond the books (role, path, day); the page's
  frame (navigation, who is logged in) is rendered per request. A kept form's CSRF token
  is a placeholder replaced by the request's own token on each use.
- All-time reads combine per-season parts kept under each season's `data_version`
  (`books_cached_many`: one cache round trip for all seasons; the seasons whose part is
  missing are built together): a change to one season rebuilds one part.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from functools import lru_cache, wraps
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.db import connection
from django.db.models import IntegerField
from django.db.models.expressions import RawSQL
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from rest_framework.response import Response

from league.club.models import Club, Member, Season

__all__ = [
    "BOOKS_CACHE_SECONDS",
    "CSRF_PLACEHOLDER",
    "api_etag",
    "api_not_modified",
    "api_private",
    "books_cache_forget",
    "books_cache_key",
    "books_cached",
    "books_cached_many",
    "books_fragment",
    "books_page",
    "club_books_version",
    "code_version",
    "in_writer_transaction",
    "season_and_books_version",
    "season_page_state",
    "season_page_state_connect",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")

BOOKS_CACHE_SECONDS = 7 * 24 * 3600
"""How long a cached read is kept (seconds). A key never goes stale (a change is a new
key); the timeout only returns the memory of versions nobody reads any more."""

_MISSING = object()


def _digest(parts: tuple[Any, ...]) -> str:
    return hashlib.blake2b(repr(parts).encode("utf-8"), digest_size=16).hexdigest()


def _version_sql(club_column: str) -> dict[str, RawSQL]:
    """The six parts of a books version as SQL subqueries on the club id in `club_column`
    (of the outer query's table): written out, since the ORM spends about 14 ms building
    six Subquery expressions for a query PostgreSQL answers in 0.1 ms (issue 15: this
    runs on every page and API read)."""
    season, member = Season._meta.db_table, Member._meta.db_table
    parts = {
        "v_versions": f'SELECT COALESCE(SUM(v."data_version"), 0) FROM "{season}" v',
        "v_seasons": f'SELECT COUNT(*) FROM "{season}" v',
        "v_last_season": f'SELECT COALESCE(MAX(v."id"), 0) FROM "{season}" v',
        "v_years": f'SELECT COALESCE(SUM(v."year"), 0) FROM "{season}" v',
        "v_people": f'SELECT COUNT(*) FROM "{member}" v',
        "v_last_person": f'SELECT COALESCE(MAX(v."id"), 0) FROM "{member}" v',
    }
    return {
        name: RawSQL(f'{sql} WHERE v."club_id" = {club_column}', (), output_field=IntegerField())
        for name, sql in parts.items()
    }


_VERSION_NAMES = (
    "v_versions",
    "v_seasons",
    "v_last_season",
    "v_years",
    "v_people",
    "v_last_person",
)


def _version_text(club_id: int, values: tuple[Any, ...]) -> str:
    return f"{club_id}-" + "-".join(str(v) for v in values)


def season_and_books_version(*, club: Club, year: int) -> tuple[Season | None, str]:
    """The club's season of `year` (None when there is none) and the club's books version
    (`club_books_version`), in one query: a season page's first read."""
    table = Season._meta.db_table
    season = (
        Season.objects.filter(club=club, year=year)
        .annotate(**_version_sql(f'"{table}"."club_id"'))
        .first()
    )
    if season is None:
        return None, club_books_version(club=club)
    return season, _version_text(club.pk, tuple(getattr(season, n) for n in _VERSION_NAMES))


def club_books_version(*, club: Club | int) -> str:
    """The club's books version: a short string that changes whenever anything a page of
    the books shows may have changed (a season's `data_version`, a season added or removed,
    a person added). One query, whatever the number of seasons.

    `data_version` only rises (league/club/books.py), so the sum over the seasons rises
    with every change; the count and the highest id catch a season or a person added or
    deleted. Returns "" for an unknown club.
    """
    club_id = club if isinstance(club, int) else club.pk
    table = Club._meta.db_table
    row = (
        Club.objects.filter(pk=club_id)
        .annotate(**_version_sql(f'"{table}"."id"'))
        .values_list(*_VERSION_NAMES)
        .first()
    )
    if row is None:
        return ""
    return _version_text(club_id, row)


_CODE_SOURCES = ("games", "league", "schockclub", "templates", "locale")
_CODE_SUFFIXES = {".py", ".html", ".txt", ".mo"}


@lru_cache(maxsize=1)
def code_version() -> str:
    """A digest of the code that renders what is kept: the Python modules, templates and
    compiled translations of the project (read once per process). It is part of every
    key of the cache: after a deploy that changes a template, a selector's result type or
    a translation, the values kept by the old code (Redis keeps them for days) are never
    read again; hosts running the same code share their keys."""
    digest = hashlib.sha256()
    root = Path(settings.BASE_DIR)
    for folder in _CODE_SOURCES:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in _CODE_SUFFIXES and path.is_file():
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def books_cache_key(*parts: Any) -> str:
    """The cache key of a read: "books:" and a digest of `parts`, the active language
    (cached values may hold translated text) and the code version (`code_version`)."""
    return "books:" + _digest((code_version(), get_language(), *parts))


def books_cache_forget() -> int:
    """Forget every kept read (all keys `books_cache_key` made, of every club), leaving the
    cache's other keys alone (sessions, the Celery broker's queues when they share the
    Redis database). Returns the number of keys removed.

    Needed after a restore (league/backup): the restored seasons take their data versions
    back from the backup, so the versions a club reaches after the restore were reached
    before, with other books, and their kept reads would be served again. Redis: SCAN for
    the keys and DEL them in batches; local memory: the keys of this process (the only
    one that can see them); any other backend: the whole cache is cleared."""
    backend = caches["default"]
    prefix = backend.make_key("books:")
    removed = 0
    if isinstance(backend, RedisCache):
        client = backend._cache.get_client(prefix, write=True)
        batch: list[Any] = []
        for key in client.scan_iter(match=prefix + "*", count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                removed += client.delete(*batch)
                batch = []
        if batch:
            removed += client.delete(*batch)
    elif isinstance(backend, LocMemCache):
        memory: Any = backend  # its store, lock and delete are not typed (private)
        with memory._lock:
            keys = [k for k in memory._cache if k.startswith(prefix)]
            for key in keys:
                memory._delete(key)
        removed = len(keys)
    else:
        backend.clear()
    logger.info("books cache: %s kept reads forgotten", removed)
    return removed


def in_writer_transaction() -> bool:
    """True inside a transaction a writer opened (`transaction.atomic`), where nothing may
    be kept (see the module's decisions).

    The atomic blocks Django's TestCase opens around a test class and each test (pytest-
    django's `db` fixture) are marked `_from_testcase` (django/test/testcases.py,
    `_enter_atomics`; django/db/transaction.py reads the same mark for durable blocks):
    they stand for the autocommit of production and are not counted, so the tests read
    through the cache as production does. Any other open block counts."""
    if not connection.in_atomic_block:
        return False
    return any(not getattr(block, "_from_testcase", False) for block in connection.atomic_blocks)


def books_cached(*parts: Any, build: Callable[[], T], seconds: int = BOOKS_CACHE_SECONDS) -> T:
    """`build()`'s value, from the cache when it holds one for `parts`, else computed and
    stored. `parts` must name everything the value depends on, a books version among them
    (`club_books_version`, or a season's `data_version`). Inside a writer's transaction
    (`in_writer_transaction`) the value is computed and not stored (see the module's
    decisions); a cache that cannot be reached is skipped."""
    if in_writer_transaction():
        return build()
    key = books_cache_key(*parts)
    try:
        value = cache.get(key, _MISSING)
    except Exception:  # noqa: BLE001 - an unreachable cache must not break a page
        logger.warning("books cache unreachable; computing %s", parts[:1], exc_info=True)
        return build()
    if value is not _MISSING:
        return value
    value = build()
    try:
        cache.set(key, value, seconds)
    except Exception:  # noqa: BLE001
        logger.warning("books cache unreachable; not storing %s", parts[:1], exc_info=True)
    return value


def books_cached_many(
    parts_list: Sequence[tuple[Any, ...]],
    *,
    build: Callable[[list[int]], list[T]],
    seconds: int = BOOKS_CACHE_SECONDS,
) -> list[T]:
    """`books_cached` for many reads at once, in one cache round trip: the value of each
    `parts` of `parts_list`, in order. `build(missing)` gets the positions of the reads the
    cache does not hold and returns their values in that order (one batch: e.g. the
    per-season parts of the seasons that changed, read together). Inside a writer's
    transaction everything is built and nothing stored; a cache that cannot be reached is
    skipped."""
    if not parts_list:
        return []
    if in_writer_transaction():
        return build(list(range(len(parts_list))))
    keys = [books_cache_key(*parts) for parts in parts_list]
    try:
        found = cache.get_many(keys)
    except Exception:  # noqa: BLE001 - an unreachable cache must not break a page
        logger.warning("books cache unreachable; computing %s", parts_list[0][:1], exc_info=True)
        found = {}
    missing = [i for i, key in enumerate(keys) if key not in found]
    if missing:
        built = build(missing)
        fresh = {keys[i]: value for i, value in zip(missing, built, strict=True)}
        try:
            cache.set_many(fresh, seconds)
        except Exception:  # noqa: BLE001
            logger.warning("books cache unreachable; not storing %s", parts_list[0][:1])
        found.update(fresh)
    return [found[key] for key in keys]


# The CSRF token in a kept fragment: a placeholder, filled in with the request's own token
# each time the fragment is used (a kept form never carries another session's token).
CSRF_PLACEHOLDER = "kept0csrf0token0placeholder"


def books_fragment(
    request: HttpRequest, *parts: Any, template: str, context: Callable[[], dict[str, Any]]
) -> SafeString:
    """`template` rendered with `context()` once per `parts` (a books version among them,
    and everything else the fragment shows: the role, the path, the day) and kept; its
    forms' `{% csrf_token %}` is this request's token on every use. The fragment is
    rendered without the request: it may show nothing of the viewer beyond `parts`."""

    def build() -> str:
        return render_to_string(template, {**context(), "csrf_token": CSRF_PLACEHOLDER})

    html = books_cached("fragment", template, *parts, build=build)
    if CSRF_PLACEHOLDER in html:
        html = html.replace(CSRF_PLACEHOLDER, get_token(request))
    return mark_safe(html)  # noqa: S308 - our own render


# --- state of a season page beyond its books --------------------------------------------

SeasonState = Callable[[Season], str]
_season_states: list[SeasonState] = []


def season_page_state_connect(source: SeasonState) -> None:
    """Connect a source of a season page's state outside its books (the season report's
    build state, league/apps.py): its answer joins the page's ETag. Idempotent."""
    if source not in _season_states:
        _season_states.append(source)


def season_page_state(*, season: Season) -> str:
    """What the connected sources say about the season now ("" when none is connected)."""
    return "|".join(source(season) for source in _season_states)


# --- conditional GETs --------------------------------------------------------------------


def _etag(*parts: Any) -> str:
    return f'"{_digest(parts)}"'


def _matches(request: HttpRequest, etag: str) -> bool:
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    tags = parse_etags(header)
    return "*" in tags or etag in tags or etag.removeprefix("W/") in tags


def _has_messages(request: HttpRequest) -> bool:
    # A pending message is shown once: that page must be rendered, not answered by 304.
    return bool(len(get_messages(request)))


def _private(response: HttpResponse, etag: str, *vary: str) -> HttpResponse:
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, vary)
    return response


PageVersion = Callable[..., Any]


def _share_membership(request: HttpRequest) -> None:
    """Hand the member `member_required` read (with its club) to the user object, so the
    template's `membership` context (league/club/context_processors.py: `user.member`,
    `membership.club.name`) reads no second copy of either: two queries less a page."""
    member = getattr(request, "member", None)
    user = getattr(request, "user", None)
    if member is not None and user is not None and member.user_id == user.pk:
        user.member = member


def books_page(
    extra: PageVersion | None = None, *, season_year: str | None = None
) -> Callable[[Callable], Callable]:
    """Page decorator (inside `member_required`): an ETag from the club's books version,
    the user, the person and role, the club's name, the CSRF cookie, the language and the
    full path with its query; a GET whose If-None-Match carries it is answered 304 without
    running the view.
    `extra(request, *args, **kwargs)` adds parts the page shows beyond the books (the
    season report's state). A page with a message pending, or asked for without a CSRF
    cookie, is rendered and gets no ETag.

    The books version is left on the request (`request.books_version`) for the view's
    cached reads and fragments. `season_year` names the view's keyword argument of a
    season's year: the season is then read with the version in one query and left on the
    request (`request.season`; an unknown year is a 404)."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if season_year is not None:
                season, version = season_and_books_version(
                    club=request.club, year=kwargs[season_year]
                )
                if season is None:
                    raise Http404
                request.season, request.books_version = season, version
            else:
                request.books_version = club_books_version(club=request.club)
            _share_membership(request)
            if request.method not in ("GET", "HEAD"):
                return view(request, *args, **kwargs)
            # Read on every GET (also when no ETag follows): one query count per page.
            state = extra(request, *args, **kwargs) if extra else ()
            csrf_cookie = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
            # Without a CSRF cookie the page sets a new one (its form's token): no ETag, the
            # browser's next request carries the cookie and gets one.
            if not csrf_cookie or _has_messages(request):
                return view(request, *args, **kwargs)
            member = request.member
            etag = _etag(
                view.__module__,
                view.__qualname__,
                request.books_version,
                request.user.pk,
                member.pk,
                member.is_secretary,
                # The frame shows the club's name, which moves no books version.
                request.club.name,
                csrf_cookie,
                get_language(),
                request.get_full_path(),
                state,
            )
            if _matches(request, etag):
                return _private(HttpResponseNotModified(), etag, "Cookie")
            response = view(request, *args, **kwargs)
            if response.status_code != 200 or response.cookies:
                return response
            return _private(response, etag, "Cookie")

        return wrapper

    return decorator


def api_etag(request, *parts: Any) -> str:
    """The ETag of an API read: its `parts` (a books version among them), the user, the
    language and the full path with its query."""
    return _etag(request.user.pk, get_language(), request.get_full_path(), *parts)


def api_not_modified(request, etag: str):
    """A DRF 304 Response when the request's If-None-Match carries `etag`, else None."""
    if request.method in ("GET", "HEAD") and _matches(request, etag):
        return api_private(Response(status=304), etag)
    return None


def api_private(response, etag: str):
    """Set the ETag, `Cache-Control: private, no-cache` and `Vary: Authorization, Cookie`
    on an API response (200 or 304)."""
    return _private(response, etag, "Authorization", "Cookie")
