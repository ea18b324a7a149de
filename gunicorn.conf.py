"""Gunicorn's settings for production (README "Production"):
`.venv/bin/gunicorn -c gunicorn.conf.py`. Each value comes from the environment.

GUNICORN_BIND     address to listen on (default 127.0.0.1:8000, behind the TLS proxy)
GUNICORN_WORKERS  worker processes (default 2 x cores + 1)
GUNICORN_TIMEOUT  seconds a request may take before its worker is restarted (default 30;
                  the season report is built by the Celery worker, not in a request)
"""

import multiprocessing
import os

wsgi_app = "schockclub.wsgi:application"
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", str(multiprocessing.cpu_count() * 2 + 1)))
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
