"""The Celery app. Broker and result backend come from settings (REDIS_URL); without
REDIS_URL tasks run eagerly in the web process (the developer default)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schockclub.settings")

app = Celery("schockclub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["league.reports"])
