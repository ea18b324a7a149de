"""A Redis database of its own for each pytest-xdist worker (loaded with `-p` in
pyproject.toml, before pytest-django reads the settings).

With REDIS_URL set (CI), the cache, the Celery broker and its results live in Redis. The
workers of `make test` each have their own test database, but they shared one Redis
database: a test's `cache.clear()` (Redis FLUSHDB) emptied the other worker's cache in the
middle of its test, and cache keys such as a season's books version (season ids start at 1
in both test databases) met. Each worker needs two databases: one for the broker and its
results (REDIS_URL) and one for the cache (REDIS_CACHE_URL, by default REDIS_URL's next
database). Here worker gwN gets databases base + 2 + 2N and base + 3 + 2N of the same Redis
(modulo 16; base and base + 1 stay for a run without xdist), in the environment itself, so
the settings, the test modules and the Celery worker processes a test starts (they inherit
the environment) all use the same ones.
"""

import os
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16  # Redis's default number of databases


def worker_redis_url(url: str, worker: str, *, cache: bool = False) -> str:
    """`url` with its database number moved by the worker's index, two databases a worker:
    ("redis://h:6379/0", "gw1") -> "redis://h:6379/4", and with `cache` the next one,
    "redis://h:6379/5". A URL without a database number counts as database 0."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    index = int(worker.removeprefix("gw"))
    database = (base + 2 + 2 * index + int(cache)) % REDIS_DATABASES
    return urlunsplit(parts._replace(path=f"/{database}"))


# At import: `-p` plugins are imported before pytest-django sets Django up.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw") and os.environ.get("REDIS_URL"):
    _base = os.environ["REDIS_URL"]
    os.environ["REDIS_URL"] = worker_redis_url(_base, _worker)
    os.environ["REDIS_CACHE_URL"] = worker_redis_url(_base, _worker, cache=True)
