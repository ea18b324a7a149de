"""Queues apart: the season reports, the mail and the imports each go to a queue of their
own (settings.CELERY_TASK_ROUTES, schockclub.celery.task_route), so a slow PDF never waits
in front of a reminder; `make worker` starts a worker on every queue."""

import re
from pathlib import Path

from schockclub.celery import app

ROOT = Path(__file__).resolve().parents[1]


def queue_of(task_name: str) -> str:
    return app.amqp.router.route({}, task_name)["queue"].name


def test_the_season_report_goes_to_the_reports_queue():
    assert queue_of("league.reports.tasks.build_season_report") == "reports"


def test_the_payment_reminders_go_to_the_mail_queue():
    assert queue_of("league.banking.tasks.send_payment_reminders") == "mail"


def test_imports_go_to_the_imports_queue():
    assert queue_of("league.clubbook.tasks.import_club_book") == "imports"


def test_a_report_and_a_reminder_never_share_a_queue():
    assert queue_of("league.reports.tasks.build_season_report") != queue_of(
        "league.banking.tasks.send_payment_reminders"
    )


def test_other_tasks_go_to_the_default_queue():
    assert queue_of("schockclub.celery.debug_task") == "celery"


def test_the_queue_names_come_from_the_settings(settings):
    settings.QUEUE_REPORTS = "reports-elsewhere"
    assert queue_of("league.reports.tasks.build_season_report") == "reports-elsewhere"


def test_the_registered_tasks_are_routed_to_their_queues():
    import league.banking.tasks
    import league.reports.tasks  # noqa: F401

    assert queue_of(league.banking.tasks.send_payment_reminders.name) == "mail"


def test_make_worker_starts_a_worker_on_every_queue():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nworker:", 1)[1].split("\n\n", 1)[0]
    queues = set()
    for listed in re.findall(r"-Q\s+(\S+)", recipe):
        queues.update(listed.split(","))
    assert queues >= {"celery", "reports", "mail", "imports"}
    assert "CELERY := $(VENV)/bin/celery -A schockclub worker" in makefile
    assert recipe.count("$(CELERY) -Q") == 4
