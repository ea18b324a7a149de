"""Gunicorn's settings for production (README "Production"):
`.venv/bin/gunicorn -c gunicorn.conf.py`. Each value comes from the environment.

GUNICORN_BIND          address to listen on (default 127.0.0.1:8000, behind the TLS proxy)
GUNICORN_WORKER_CLASS  `gthread` (default) or `sync`
GUNICORN_WORKERS       worker processes (default: one per core)
GUNICORN_THREADS       threads per gthread worker (default 4)
GUNICORN_TIMEOUT       seconds a request may take before its worker is restarted (default
                       30; the season report is built by the Celery worker, not in a request)

The defaults are measured (bench/bench_gunicorn.py: wrk, 16 connections, 8 s a cell, the
configurations alternating over two rounds; 2 cores shared with other work, load average
18.5 to 25.0 during the run, so compare within the run). Median requests/s:

| gunicorn            | bare Django view | GET /api/v1/clubs/ |
|---------------------|------------------|--------------------|
| sync, 2 workers     | 186              | 16                 |
| sync, 5 workers     | 68               | 8                  |
| gthread, 2 x 4      | 196              | 19                 |
| gthread, 3 x 4      | 72               | 10                 |

More processes than cores lose (the old default, 2 x cores + 1 = 5, served a third of
what 2 served: the processes evict each other's caches and fight for the cores); gthread
with one process per core matches sync at full load and keeps answering while a thread
waits on PostgreSQL, Redis or a slow client, so it is the default.
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
