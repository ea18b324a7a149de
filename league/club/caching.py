"""Kept reads: reads of the books and the register kept in the cache, and conditional
GETs, under one contract.

The books change only through the one books-changed event and the register only through
the register-changed event (league/club/books.py); both move a counter on the club's row
in the writer's transaction (`Club.books_version`, `Club.register_version`; the books event
also moves the season's `data_version`). Everything a page or an API read shows is
therefore a function of

- the club's two versions (`club_books_version`: read with the club, which the request
  loaded with the member: no query), or for one season's part its `data_version` and the
  register version (`season_part_version`); and
- what the read shows besides, declared where the read is: a module-level
  `NAME = KeptRead("name", depends=(...))` beside the view or selector names it (the
  season, the role, the person, the viewer's frame state, the CSRF cookie, the query, the
  host, the day; `DEPENDS`), and builds the read's cache key and ETag from the request, or
  from the club, season or person a selector hands it. A call passes only the view's own
  arguments (ids, the year); nothing else builds a key
  (tests/test_kept_read_contract.py). The language and the code version are part of every
  key.

The internals below are called by `KeptRead` alone (`cached`, `cached_until`,
`cached_many`, `fragment`): `books_cached` keeps a computed read (a selector's result, a
rendered fragment, a PDF, a chart) in Django's cache (Redis with REDIS_CACHE_URL, local
memory otherwise) under `books_cache_key`, the one key builder: a new version is a new
key, so nothing stale is read. `books_page` (Django's `condition`) and `api_conditional`
answer a repeated GET with 304 Not Modified when its `If-None-Match` carries the read's
ETag.

Decisions:
- Nothing is cached inside a writer's transaction (`in_writer_transaction`): a writer
  that rolls back after `books_changed` would leave a value under a version number the
  next commit reuses. Reads of the pages and the API run outside transactions
  (ATOMIC_REQUESTS is off), so they are cached; a read inside a writer is computed. The
  transaction a test case wraps around each test is no writer's: the tests read through
  the cache as production does (tests/conftest.py empties it before each test).
- The cache is an accelerator, never a dependency: when Redis cannot be reached the read
  is computed (and logged), the page keeps working.
- Memory stays bounded: a key names its version's namespace ("c<club>:v" for the club's
  versions, "c<club>:s<season>" for a season's part), and after a version move commits the
  superseded namespace's keys are deleted (`kept_reads_superseded`), so a write leaves no
  dead keys behind; the timeout only returns what a race left.
- Page ETags vary by the session's user, what the frame shows of it (staff flag, name,
  role), its CSRF cookie (the page carries a CSRF token for the logout form) and the day,
  and are `Cache-Control: private, no-cache` with `Vary: Cookie`: a browser revalidates
  every time, no shared cache stores a page, and a member never gets another's page. API
  ETags vary by the token's user the same way (`Vary: Authorization, Cookie`).
- Kept HTML (`books_fragment`, `{% books_cache %}`) is rendered without the request and
  keyed by everything it shows beyond the books (role, path, day); the page's frame
  (navigation, who is logged in) is rendered per request. A kept form's CSRF token is a
  placeholder replaced by the request's own token on each use.
- All-time reads combine per-season parts kept under each season's version
  (`books_cached_many`: one cache round trip for all seasons; the seasons whose part is
  missing are built together): a change to one season rebuilds one part.
"""

from __future__ import annotations

import datetime
import hashlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache, caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.db import connection, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import condition
from rest_framework.request import Request
from rest_framework.response import Response

from league.club.models import Club, Member, Season

if TYPE_CHECKING:
    from league.club.access import ClubRequest

__all__ = [
    "BOOKS_CACHE_SECONDS",
    "CSRF_PLACEHOLDER",
    "DEPENDS",
    "GuardedCache",
    "KeptRead",
    "api_conditional",
    "api_not_modified",
    "api_private",
    "books_cache_forget",
    "books_cache_key",
    "books_page",
    "club_books_version",
    "club_versions",
    "in_writer_transaction",
    "kept_reads_superseded",
    "season_part_version",
    "code_version",
    "in_writer_transaction",
    "kept_cache",
    "season_and_books_version",
    "season_page_state",
    "season_page_state_connect",
    "Version",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")
ResponseT = TypeVar("ResponseT", bound=HttpResponse)

BOOKS_CACHE_SECONDS = 7 * 24 * 3600
"""How long a cached read is kept (seconds). A key never goes stale (a change is a new
key); the timeout only returns the memory of versions nobody reads any more."""

_MISSING = object()


class GuardedCache:
    """A Django cache that never raises: when its backend cannot be reached (Redis down, a
    timeout) a read is a miss (`default`), a write or a delete is skipped and answers
    False, and the failure is logged (WARNING, without the traceback). The cache is an
    accelerator, never a dependency: everything kept in it can be computed or read again
    (the sessions from the database, the odds simulation by simulating).

    After a failure the backend is left alone for `PAUSE_SECONDS` (every GuardedCache of
    the process): a Redis that is cut off costs one timeout per pause, not one per call.
    `max_seconds` caps how long a value is kept (None: as the caller asks).

    Wraps `backend` (a `django.core.cache` cache or its default proxy); `what` names the
    user in the log. Offers what the project's callers use: get, set, get_many, set_many,
    delete, `in`, and the async twins (Django's cached-database session store calls
    both)."""

    PAUSE_SECONDS = 5.0
    _paused_until = 0.0  # time.monotonic() before which no GuardedCache calls its backend

    def __init__(
        self, backend: BaseCache | Any, what: str, *, max_seconds: int | None = None
    ) -> None:
        self._backend = backend
        self._what = what
        self._max_seconds = max_seconds

    def _paused(self) -> bool:
        return time.monotonic() < GuardedCache._paused_until

    def _failed(self, action: str, exc: Exception) -> None:
        GuardedCache._paused_until = time.monotonic() + self.PAUSE_SECONDS
        logger.warning(
            "%s: cache unreachable, %s skipped; not tried for %.0f s (%s)",
            self._what,
            action,
            self.PAUSE_SECONDS,
            exc,
        )

    def _timeout(self, timeout: Any) -> Any:
        if self._max_seconds is None:
            return timeout
        if timeout is DEFAULT_TIMEOUT or timeout is None:
            return self._max_seconds
        return min(timeout, self._max_seconds)

    def get(self, key: str, default: Any = None) -> Any:
        if self._paused():
            return default
        try:
            return self._backend.get(key, default)
        except Exception as exc:  # an unreachable cache is a miss
            self._failed("read", exc)
            return default

    def set(self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT) -> bool:
        if self._paused():
            return False
        try:
            self._backend.set(key, value, self._timeout(timeout))
        except Exception as exc:
            self._failed("write", exc)
            return False
        return True

    def get_many(self, keys: Sequence[str]) -> dict[str, Any]:
        if self._paused():
            return {}
        try:
            return dict(self._backend.get_many(keys))
        except Exception as exc:
            self._failed("read", exc)
            return {}

    def set_many(self, values: dict[str, Any], timeout: Any = DEFAULT_TIMEOUT) -> bool:
        if self._paused():
            return False
        try:
            self._backend.set_many(values, self._timeout(timeout))
        except Exception as exc:
            self._failed("write", exc)
            return False
        return True

    def delete(self, key: str) -> bool:
        if self._paused():
            return False
        try:
            return bool(self._backend.delete(key))
        except Exception as exc:
            self._failed("delete", exc)
            return False

    def __contains__(self, key: str) -> bool:
        if self._paused():
            return False
        try:
            return key in self._backend
        except Exception as exc:
            self._failed("read", exc)
            return False

    async def aget(self, key: str, default: Any = None) -> Any:
        if self._paused():
            return default
        try:
            return await self._backend.aget(key, default)
        except Exception as exc:
            self._failed("read", exc)
            return default

    async def aset(self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT) -> bool:
        if self._paused():
            return False
        try:
            await self._backend.aset(key, value, self._timeout(timeout))
        except Exception as exc:
            self._failed("write", exc)
            return False
        return True

    async def adelete(self, key: str) -> bool:
        if self._paused():
            return False
        try:
            return bool(await self._backend.adelete(key))
        except Exception as exc:
            self._failed("delete", exc)
            return False

    def __str__(self) -> str:
        return f"GuardedCache({self._backend})"


kept_cache = GuardedCache(cache, "kept reads")
"""The default cache, guarded (`GuardedCache`): what `books_cached` keeps, and values kept
under a key of their own (the odds simulation)."""


def _digest(parts: tuple[Any, ...]) -> str:
    return hashlib.blake2b(repr(parts).encode("utf-8"), digest_size=16).hexdigest()


class Version(str):
    """A version in a kept read's parts: its text, and `namespace`, the part of the cache
    keys it names ("c<club>:v" for the club's books and register, "c<club>:s<season>" for
    one season's part). A key whose parts hold a Version lives in that namespace, so the
    keys a version move supersedes are found and dropped (`kept_reads_superseded`)."""

    namespace: str

    def __new__(cls, text: str, namespace: str) -> Version:
        version = super().__new__(cls, text)
        version.namespace = namespace
        return version

    def __reduce__(self) -> tuple[type[Version], tuple[str, str]]:
        # Pickled inside kept values (a tuple of parts) as a plain pair.
        return (Version, (str(self), self.namespace))


def club_versions(*, club: Club | int) -> tuple[int, int]:
    """The club's (books version, register version): read from the instance (the request
    loaded it with the member: no query) or, for an id, in one query ((0, 0) for an
    unknown club)."""
    if isinstance(club, Club):
        return club.books_version, club.register_version
    row = Club.objects.filter(pk=club).values_list("books_version", "register_version").first()
    return row if row is not None else (0, 0)


def season_and_books_version(*, club: Club, year: int) -> tuple[Season | None, Version]:
    """The club's season of `year` (None when there is none) and the club's books version
    (`club_books_version`, read with the club): one query, a season page's first read."""
    season = Season.objects.filter(club=club, year=year).first()
    return season, club_books_version(club=club)


def club_books_version(*, club: Club | int) -> Version:
    """The club's books version: a short string that changes whenever anything a page of
    the books or the register shows may have changed. It is the club's `books_version`
    (moved by `league.club.books.books_changed`: games, attendance, payments, Runden,
    statutes, rules, seasons) and `register_version` (moved by `register_changed`: people,
    logins, the club's name and bank account): a kept read that shows names depends on
    both. No query for a loaded club (`club_versions`)."""
    club_id = club if isinstance(club, int) else club.pk
    books, register = club_versions(club=club)
    return Version(f"{club_id}-{books}-{register}", f"c{club_id}:v")


def season_part_version(*, season: Season, club: Club | int | None = None) -> Version:
    """The version of one season's kept part (all-time and statistics parts, Runden
    parts, a person's season summary): the season's `data_version` (its books) and, with
    `club`, the club's register version (for a part that shows names or kinds; without,
    a part of ids and figures only). A change of another season's books leaves it."""
    register = club_versions(club=club)[1] if club is not None else "-"
    return Version(
        f"{season.pk}-{season.data_version}-{register}", f"c{season.club_id}:s{season.pk}"
    )


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
    """The cache key of a read: "books:", the namespace of the first `Version` among
    `parts` ("x" when none) and a digest of `parts`, the active language (cached values
    may hold translated text) and the code version (`code_version`)."""
    namespace = next((p.namespace for p in parts if isinstance(p, Version)), "x")
    return f"books:{namespace}:" + _digest((code_version(), get_language(), *parts))


def _forget_prefix(prefix: str) -> int:
    """Delete every kept read whose key starts with "books:" + `prefix` (see
    `books_cache_forget`); returns the number removed, 0 when the cache is unreachable."""
    backend = caches["default"]
    full = backend.make_key("books:" + prefix)
    removed = 0
    try:
        if isinstance(backend, RedisCache):
            client = backend._cache.get_client(full, write=True)
            batch: list[Any] = []
            for key in client.scan_iter(match=full + "*", count=1000):
                batch.append(key)
                if len(batch) >= 1000:
                    removed += client.delete(*batch)
                    batch = []
            if batch:
                removed += client.delete(*batch)
        elif isinstance(backend, LocMemCache):
            memory: Any = backend  # its store, lock and delete are not typed (private)
            with memory._lock:
                keys = [k for k in memory._cache if k.startswith(full)]
                for key in keys:
                    memory._delete(key)
            removed = len(keys)
    except Exception:  # an unreachable cache must not break a writer
        logger.warning("books cache unreachable; kept reads of %s not dropped", prefix)
    return removed


class _Superseded(threading.local):
    """The kept reads to drop after the next commit of this thread: (club id or None,
    season id or None) pairs, each dropped once however many writes named it."""

    def __init__(self) -> None:
        self.pending: set[tuple[int | None, int | None]] = set()


_superseded = _Superseded()


def _superseded_drop() -> None:
    """Drop the kept reads of every pending pair (see `kept_reads_superseded`); the first
    call after a commit does the work, the others find nothing left."""
    pending, _superseded.pending = _superseded.pending, set()
    for club_id, season_id in sorted(pending, key=lambda pair: (pair[0] or 0, pair[1] or 0)):
        if season_id is None:
            _forget_prefix(f"c{club_id}:")
            continue
        owner = club_id or Season.objects.filter(pk=season_id).values_list("club_id").first()
        if owner is None:
            continue
        owner_id = owner if isinstance(owner, int) else owner[0]
        _forget_prefix(f"c{owner_id}:v:")
        _forget_prefix(f"c{owner_id}:s{season_id}:")


def kept_reads_superseded(*, club_id: int | None = None, season_id: int | None = None) -> None:
    """After the writer's transaction commits, drop the kept reads its version move made
    unreachable: with `season_id` (a books change) the club's club-wide reads and that
    season's parts, else (a register change of `club_id`) every kept read of the club.
    Keeps the cache's memory bounded: a write leaves no dead keys behind to wait for their
    timeout. A transaction of many writes (an evening of 25 games entered at once) scans
    the cache once per club and season, not once per write. When the transaction rolls
    back nothing is dropped then; the pair waits for the thread's next commit (dropping a
    kept read too many only costs a miss)."""
    _superseded.pending.add((club_id, season_id))
    transaction.on_commit(_superseded_drop)


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
    if isinstance(backend, RedisCache | LocMemCache):
        removed = _forget_prefix("")
    else:
        removed = 0
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
    kept = kept_cache.get(key, _MISSING)
    if kept is not _MISSING:
        return cast(T, kept)
    value = build()
    kept_cache.set(key, value, seconds)
    return value


def books_cached_until(
    *parts: Any,
    build: Callable[[], tuple[T, datetime.datetime | None]],
    now: datetime.datetime | None = None,
) -> T:
    """`books_cached` for a value that also moves with the clock: `build()` gives the
    value and the moment it stops being true by time alone (an aware datetime; None: only
    a change of `parts` moves it). A kept value is used until that moment, then built
    again. `now` is the current time (default `timezone.now()`)."""
    now = now or timezone.now()
    kept_value, valid_until = books_cached(*parts, build=build)
    if valid_until is not None and now >= valid_until:
        kept_value, valid_until = build()
        if not in_writer_transaction():
            kept_cache.set(books_cache_key(*parts), (kept_value, valid_until), BOOKS_CACHE_SECONDS)
    return kept_value


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
    found = kept_cache.get_many(keys)
    missing = [i for i, key in enumerate(keys) if key not in found]
    if missing:
        built = build(missing)
        fresh = {keys[i]: value for i, value in zip(missing, built, strict=True)}
        kept_cache.set_many(fresh, seconds)
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
    return mark_safe(html)  # our own render


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


def _private(response: ResponseT, etag: str, *vary: str) -> ResponseT:
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, vary)
    return response


PageVersion = Callable[..., Any]
#: A page view: the request, the URL's arguments, the response.
PageView = Callable[..., HttpResponse]


def _share_membership(request: HttpRequest) -> None:
    """Hand the member `member_required` read (with its club) to the user object, so the
    template's `membership` context (league/club/context_processors.py: `user.member`,
    `membership.club.name`) reads no second copy of either: two queries less a page."""
    member = getattr(request, "member", None)
    user = getattr(request, "user", None)
    if member is not None and user is not None and member.user_id == user.pk:
        user.member = member


# --- the contract of a kept read ----------------------------------------------------------

#: What a kept read may depend on (`KeptRead.depends`), each read by `KeptRead` itself from
#: what the call hands it (`request`, `club`, `season`, `member`; a view hands the
#: request, a selector the club or the season):
#: "books" the club's books and register versions (`club_books_version`), "club" the
#: club's id, "season" the season read with them (`season=`, else `request.season`: id and
#: data version), "season_part" that season's data version and the club's register
#: version (`season_part_version` with the club: a part that shows names), "season_books"
#: its data version alone (`season_part_version` without the club: ids and figures),
#: "rules" and "statutes" the rule set and statutes the season stores, "season_state" what
#: the season page shows beyond its books (`request.season_state`, else
#: `season_page_state`), "audit" the history's state beyond the books
#: (`request.audit_state.key`), "role" whether the viewer is the club's secretary,
#: "person" the person the read is for (`member=`, else the viewer's), "frame" what every
#: page's frame shows of the viewer (login, staff and superuser flags, person, name,
#: secretary, the club's name), "csrf" the session's CSRF cookie (the page's forms carry
#: its token), "query" the full path with its query, "host" the host (absolute links),
#: "day" today in the club's zone (a current season chosen by date, a "Stand" line).
#: The language and the code version are part of every key and ETag.
DEPENDS = (
    "books",
    "club",
    "season",
    "season_part",
    "season_books",
    "rules",
    "statutes",
    "season_state",
    "audit",
    "role",
    "person",
    "frame",
    "csrf",
    "query",
    "host",
    "day",
)

#: The dependencies read per season: a `KeptRead.cached_many` call reads them once for
#: each season it is given.
_PER_SEASON = frozenset(
    {"season", "season_part", "season_books", "rules", "statutes", "season_state"}
)


@dataclass(frozen=True)
class KeptRead:
    """One kept read, declared once at module level beside its view or selector
    (`NAME = KeptRead("name", depends=(...))`): its `name` and what it `depends` on (names
    of `DEPENDS`). It alone turns what a call hands it (the request of a view; the club,
    season or person of a selector) into the parts of the read's cache key and ETag, so
    nothing else builds one: a call passes only the view's own arguments (ids, the year)
    as `extra` parts.

    Every method takes the extra parts positionally and the sources of the dependencies as
    keywords: `request` (a view's; None for a selector), `club` (default `request.club`;
    an id reads the versions in one query), `season` (default `request.season`) and
    `member` (default the viewer's member).

    Args:
        name: a stable name of the read, unique in the project (part of every key and
            ETag; tests/test_kept_read_contract.py).
        depends: what the read shows beyond its name and the view's own arguments.
        seconds: how long a kept value stays (`BOOKS_CACHE_SECONDS` by default).

    Raises ValueError at declaration for an unknown dependency.
    """

    name: str
    depends: tuple[str, ...] = ("books",)
    seconds: int = BOOKS_CACHE_SECONDS

    def __post_init__(self) -> None:
        unknown = set(self.depends) - set(DEPENDS)
        if unknown:
            raise ValueError(f"KeptRead {self.name}: unknown dependencies {sorted(unknown)}")

    def parts(
        self,
        *,
        request: Any = None,
        club: Club | int | None = None,
        season: Season | None = None,
        member: Member | None = None,
    ) -> tuple[Any, ...]:
        """The read's name and its dependencies' values, in `depends` order (no query for
        a loaded club; "season_state" may ask the connected sources)."""
        source = _Source.of(request, club, season, member)
        return (self.name, *(_dependency(name, source) for name in self.depends))

    def key(
        self,
        *extra: Any,
        request: Any = None,
        club: Club | int | None = None,
        season: Season | None = None,
        member: Member | None = None,
    ) -> str:
        """The cache key of the read (`books_cache_key` of `parts` and `extra`)."""
        parts = self.parts(request=request, club=club, season=season, member=member)
        return books_cache_key(*parts, *extra)

    def etag(
        self,
        *extra: Any,
        request: Any,
        club: Club | int | None = None,
        season: Season | None = None,
        member: Member | None = None,
    ) -> str:
        """The (strong) ETag of the read for `request` and the view's `extra` parts."""
        parts = self.parts(request=request, club=club, season=season, member=member)
        return _etag(code_version(), get_language(), *parts, *extra)

    def cached(
        self,
        *extra: Any,
        build: Callable[[], T],
        request: Any = None,
        club: Club | int | None = None,
        season: Season | None = None,
        member: Member | None = None,
    ) -> T:
        """`build()`'s value kept under `key` (`books_cached`: computed inside a writer's
        transaction or when the cache is unreachable)."""
        parts = self.parts(request=request, club=club, season=season, member=member)
        return books_cached(*parts, *extra, build=build, seconds=self.seconds)

    def cached_until(
        self,
        *extra: Any,
        build: Callable[[], tuple[T, datetime.datetime | None]],
        request: Any = None,
        club: Club | int | None = None,
        season: Season | None = None,
        member: Member | None = None,
        now: datetime.datetime | None = None,
    ) -> T:
        """`build()`'s value (with the moment it stops being true by time alone) kept
        under `key` until that moment (`books_cached_until`)."""
        parts = self.parts(request=request, club=club, season=season, member=member)
        return books_cached_until(*parts, *extra, build=build, now=now)

    def cached_many(
        self,
        seasons: Sequence[Season],
        *extra: Any,
        build: Callable[[list[int]], list[T]],
        request: Any = None,
        club: Club | int | None = None,
        member: Member | None = None,
    ) -> list[T]:
        """The read's value for each of `seasons`, in order, in one cache round trip
        (`books_cached_many`): each season's key holds its own season dependencies
        (`_PER_SEASON`) and the call's others. `build(missing)` gets the positions of the
        seasons the cache does not hold and returns their values in that order."""
        if not seasons:
            return []
        keyed = [
            (*self.parts(request=request, club=club, season=season, member=member), *extra)
            for season in seasons
        ]
        return books_cached_many(keyed, build=build, seconds=self.seconds)

    def fragment(
        self,
        *extra: Any,
        request: HttpRequest,
        template: str,
        context: Callable[[], dict[str, Any]],
        club: Club | int | None = None,
        season: Season | None = None,
        member: Member | None = None,
    ) -> SafeString:
        """`template` rendered with `context()` once per key and kept
        (`books_fragment`): its forms' CSRF token is this request's own on every use. The
        fragment may show nothing of the viewer beyond its dependencies."""
        parts = self.parts(request=request, club=club, season=season, member=member)
        return books_fragment(request, *parts, *extra, template=template, context=context)


@dataclass(frozen=True)
class _Source:
    """Where a kept read's dependencies are read: the call's request, club, season and
    person (each defaulting to the request's)."""

    request: Any
    club: Club | int | None
    season: Season | None
    member: Member | None

    @classmethod
    def of(
        cls, request: Any, club: Club | int | None, season: Season | None, member: Member | None
    ) -> _Source:
        club = club if club is not None else getattr(request, "club", None)
        season = season if season is not None else getattr(request, "season", None)
        if member is None:
            member = getattr(request, "member", None) or getattr(request, "_schock_member", None)
        return cls(request, club, season, member)

    def viewer(self) -> Member | None:
        """The viewer's member (not a `member=` handed for the read)."""
        request = self.request
        return getattr(request, "member", None) or getattr(request, "_schock_member", None)


def _season_of(source: _Source, name: str) -> Season:
    if source.season is None:
        raise ValueError(f"a kept read depending on {name!r} needs a season")
    return source.season


def _dependency(name: str, source: _Source) -> Any:
    club, request = source.club, source.request
    if name == "books":
        return club_books_version(club=club) if club is not None else ""
    if name == "club":
        return club if isinstance(club, int) else getattr(club, "pk", None)
    if name == "season":
        season = source.season
        return (season.pk, season.data_version) if season is not None else None
    if name == "season_part":
        if club is None:
            raise ValueError("a kept read depending on 'season_part' needs the club")
        return season_part_version(season=_season_of(source, name), club=club)
    if name == "season_books":
        return season_part_version(season=_season_of(source, name))
    if name == "rules":
        return repr(_season_of(source, name).rules)
    if name == "statutes":
        return repr(getattr(_season_of(source, name), "statutes", None))
    if name == "season_state":
        state = getattr(request, "season_state", None)
        return state if state is not None else season_page_state(season=_season_of(source, name))
    if name == "audit":
        return request.audit_state.key
    if name == "role":
        viewer = source.viewer()
        return bool(viewer and viewer.is_secretary)
    if name == "person":
        return source.member.pk if source.member is not None else None
    if name == "frame":
        user, viewer = request.user, source.viewer()
        return (
            user.pk,
            getattr(user, "is_staff", False),
            getattr(user, "is_superuser", False),
            getattr(user, "is_active", False),
            viewer.pk if viewer is not None else None,
            viewer.name if viewer is not None else None,
            bool(viewer and viewer.is_secretary),
            getattr(club, "name", None),
        )
    if name == "csrf":
        return request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    if name == "query":
        return request.get_full_path()
    if name == "host":
        return request.get_host()
    return timezone.localdate().isoformat()  # "day"


def books_page(
    extra: PageVersion | None = None, *, season_year: str | None = None
) -> Callable[[PageView], PageView]:
    """Page decorator (inside `member_required`): a conditional GET by Django's
    `condition` with an ETag of the page's `KeptRead` (the view's module and name; it
    depends on the club's books and register versions, the frame's state of the viewer,
    the role and person, the CSRF cookie, the full path with its query and the day) and
    `extra(request, *args, **kwargs)`, what the page shows beyond them (the season
    report's state, who may sign). A GET whose If-None-Match carries it is answered 304
    without running the view. A page with a message pending, or asked for without a CSRF
    cookie, is rendered and gets no ETag.

    The books version is left on the request (`request.books_version`) for the view's
    cached reads and fragments. `season_year` names the view's keyword argument of a
    season's year: the season is then read and left on the request (`request.season`;
    an unknown year is a 404)."""

    def decorator(view: PageView) -> PageView:
        kept = KeptRead(
            f"{view.__module__}.{view.__qualname__}",
            ("books", "season", "frame", "role", "person", "csrf", "query", "day"),
        )

        def etag_of(request: ClubRequest, *args: Any, **kwargs: Any) -> str | None:
            # Read on every GET (also when no ETag follows): one query count per page.
            state = extra(request, *args, **kwargs) if extra else ()
            # Without a CSRF cookie the page sets a new one (its form's token): no ETag, the
            # browser's next request carries the cookie and gets one.
            if not request.COOKIES.get(settings.CSRF_COOKIE_NAME) or _has_messages(request):
                return None
            return kept.etag(state, request=request)

        @wraps(view)
        def wrapper(request: ClubRequest, *args: Any, **kwargs: Any) -> HttpResponse:
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
            etag = etag_of(request, *args, **kwargs)
            if etag is None:
                return view(request, *args, **kwargs)
            response = condition(etag_func=lambda *a, **k: etag)(view)(request, *args, **kwargs)
            if response.status_code == 304:
                return _private(response, etag, "Cookie")
            if response.status_code != 200 or response.cookies:
                del response["ETag"]
                return response
            return _private(response, etag, "Cookie")

        return wrapper

    return decorator


#: The API's kept reads: the ETag depends on the viewer's login and role, the full path
#: with its query and the day (a read without ?season shows the season of today).
_API_READ = ("books", "frame", "role", "person", "query", "day")


def api_conditional(
    request: Request, name: str, *extra: Any, club: Club | None
) -> tuple[str, Response | None]:
    """The ETag of the API read `name` (`KeptRead` of the club's versions, the viewer, the
    full path and the day, and `extra`) and, when the request's If-None-Match carries it,
    the 304 Response to answer with (else None): one helper for every kept API read."""
    etag = KeptRead(f"api.{name}", _API_READ).etag(*extra, request=request, club=club)
    return etag, api_not_modified(request, etag)


def api_not_modified(request: Request, etag: str) -> Response | None:
    """A DRF 304 Response when the request's If-None-Match carries `etag`, else None."""
    if request.method in ("GET", "HEAD") and _matches(request, etag):
        return api_private(Response(status=304), etag)
    return None


def api_private(response: ResponseT, etag: str) -> ResponseT:
    """Set the ETag, `Cache-Control: private, no-cache` and `Vary: Authorization, Cookie`
    on an API response (200 or 304)."""
    return _private(response, etag, "Authorization", "Cookie")
