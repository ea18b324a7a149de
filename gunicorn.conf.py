"""Gunicorn's settings for production (README "Production"):
`.venv/bin/gunicorn -c gunicorn.conf.py`. Each value comes from the environment.

GUNICORN_BIND          address to listen on (default 127.0.0.1:8000, behind the TLS proxy)
GUNICORN_WORKER_CLASS  `gthread` (default) or `sync`
GUNICORN_WORKERS       worker processes (default: one per core)
GUNICORN_THREADS       threads per gthread worker (default 4)
GUNICORN_TIMEOUT       seconds a request may take before its worker is restarted (default
                       30; the season report is built by the Celery worker, not in a request)

The defaults are measured (bench/bench_gunicorn.py: wrk, 16 connections, 8 s a cell, the
configurations alternating over two rounds; 2 cores shared with other work, so compare
within a run). Median requests/s of the bare Django view (the anchor: the whole middleware,
no database) and of GET /api/v1/clubs/ (the trivial endpoint, by token):

| gunicorn        | run 1 (load 18.5-25.0) bare / trivial | run 2 (load 20.2-21.0) bare / trivial |
|-----------------|---------------------------------------|---------------------------------------|
| sync, 2         | 186 / 16                              | 107 / 30                              |
| sync, 5         | 68 / 8                                | -                                     |
| gthread, 2 x 4  | 196 / 19                              | 289 / 24                              |
| gthread, 3 x 4  | 72 / 10                               | -                                     |

More processes than cores lose (the old default, 2 x cores + 1 = 5, served a third of what
2 served: the processes fight for the cores and evict each other's caches). Between sync
and gthread at one process per core the trivial endpoint is within the noise (16 vs 19,
30 vs 24); gthread served the anchor faster in both runs and keeps answering while a
thread waits on PostgreSQL, Redis or a slow client, so it is the default. Run 2 came after
the trivial endpoint was cut to one query (the token with its login, person and club).

The trivial endpoint's CPU per request (bench/bench_api_profile.py, one process, no
server: trustworthy where wrk is not) went from 3.05 to 1.84 ms (the bare view: 0.19 ms)
when Django's Redis backend kept its client, one throttle made two round trips to Redis
instead of four, and the token's query was compiled once (README "Gunicorn's worker class
and count"). wrk, old code and new alternating, load average 6.9-8.7, bare / trivial
req/s and the ratio:

| gunicorn       | before, run 1     | after, run 1      | before, run 2     | after, run 2      |
|----------------|-------------------|-------------------|-------------------|-------------------|
| gthread, 2 x 4 | 1,876 / 171 (9 %) | 2,216 / 389 (18%) | 1,150 / 207 (18%) | 1,518 / 257 (17%) |
| sync, 2        | 707 / 113 (16 %)  | 668 / 182 (27 %)  | 455 / 92 (20 %)   | 469 / 182 (39 %)  |

The trivial endpoint serves 1.2 to 2.3 times as many requests as before; the ratio to the
anchor stays far from the 70 % aimed at, which no answer that reads PostgreSQL and counts
the request in Redis can reach: one round trip costs more CPU in system calls than the
whole bare view.

Later, on an idle 2-core machine (wrk 32 connections, 8 s a cell, two rounds; README
"Gunicorn's worker class and count" has the steps between), after the answers' fields
were built once per class and the throttle kept two counts instead of a log, bare /
trivial req/s, before -> after, two runs each:

| gunicorn       | before                        | after                           |
|----------------|-------------------------------|---------------------------------|
| sync, 2        | 4,252 / 891, 4,289 / 889      | 4,216 / 1,026, 4,193 / 1,040    |
| gthread, 2 x 4 | 4,356 / 792, 4,452 / 851      | 4,428 / 703, 4,314 / 929        |

`sync` served the trivial endpoint 10-45 % faster there; gthread stays the default for
what the trivial endpoint alone does not show, measured with `--waiting 2`: two clients
keep a request in flight that waits 200 ms without the CPU (as one waits on a slow
PostgreSQL query or a slow client), and the same cells run beside them (idle machine,
two rounds, medians):

| gunicorn       | bare view req/s | trivial req/s | trivial p50        |
|----------------|-----------------|---------------|--------------------|
| sync, 2        | 224             | 186           | 160-231 ms         |
| gthread, 2 x 4 | 4,218           | 911           | 37-38 ms           |

Two waiting requests hold both sync processes most of the time, and every other request
queues behind them; a gthread process answers on its other threads meanwhile. Set
GUNICORN_WORKER_CLASS=sync only where no request ever waits long (an API-only
installation behind a buffering proxy).
"""

import multiprocessing
import os

wsgi_app = "schockclub.wsgi:application"
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
workers = int(os.environ.get("GUNICORN_WORKERS", str(multiprocessing.cpu_count())))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = timeout
# The proxy in front sets X-Forwarded-Proto (settings.SECURE_PROXY_SSL_HEADER); trust it
# only from the addresses given (default: the local proxy).
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
accesslog = "-"
errorlog = "-"
# Gunicorn 24 and newer open a control socket by default, in a folder every gunicorn of the
# same user shares; the app needs none (systemd restarts and reloads it).
control_socket_disable = True
