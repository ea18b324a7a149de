"""Production settings: `check --deploy` is clean with DEBUG off and the
production environment, every page carries the Content-Security-Policy and no inline
script, and Gunicorn's config file loads the app."""

import datetime
import os
import runpy
import secrets
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from games.evenings.services import evening_create, game_record
from league.club.services import season_get_or_create
from tests.factories import ClubFactory, MemberFactory, UserFactory

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _production_env(**changes: str) -> dict[str, str]:
    """The environment of a production start: DEBUG off, a long secret, the site's host,
    nothing of the developer's DATABASE_URL/REDIS_URL needed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))}
    env.update(
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="schock.example.org",
        CSRF_TRUSTED_ORIGINS="https://schock.example.org",
        DJANGO_SETTINGS_MODULE="schockclub.settings",
    )
    env.update(changes)
    return env


def _check_deploy(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_the_production_environment():
    result = _check_deploy(_production_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_warns_when_production_switches_https_off():
    result = _check_deploy(_production_env(SECURE_SSL_REDIRECT="false", SECURE_HSTS_SECONDS="0"))
    assert result.returncode != 0
    assert "security.W008" in result.stderr  # SECURE_SSL_REDIRECT
    assert "security.W004" in result.stderr  # SECURE_HSTS_SECONDS


def test_developer_defaults_keep_debug_on_and_https_off():
    # `make run` sets nothing: DEBUG on, plain http on 127.0.0.1, no HSTS, SQLite.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DEBUG", "SECURE_", "SECRET_KEY", "DATABASE_URL", "PYTEST"))
    }
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DEBUG, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, "
        "s.SECURE_PROXY_SSL_HEADER, s.SESSION_COOKIE_SECURE, s.DATABASES['default']['ENGINE'])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=dict(env, DJANGO_SETTINGS_MODULE="schockclub.settings"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout.split() == [
        "True",
        "False",
        "0",
        "None",
        "False",
        "django.db.backends.sqlite3",
    ], result.stderr


def _production_setting(code: str, **changes: str) -> str:
    env = _production_env()
    env.pop("DATABASE_URL", None)
    env.pop("CONN_MAX_AGE", None)
    env.update(changes)
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import django; django.setup(); from django.conf import settings as s; print({code})",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_production_keeps_database_connections_and_checks_them_before_reuse():
    """With DEBUG off and nothing else set, a process reuses its database connection for
    a minute instead of opening one per request."""
    answer = _production_setting(
        "s.DATABASES['default']['CONN_MAX_AGE'], s.DATABASES['default']['CONN_HEALTH_CHECKS']"
    )
    assert answer == "60 True"


def test_the_connection_age_can_be_set_from_the_environment():
    assert _production_setting("s.DATABASES['default']['CONN_MAX_AGE']", CONN_MAX_AGE="0") == "0"


# --------------------------------------------------------------------------- Gunicorn


def test_gunicorn_config_loads_the_wsgi_app():
    result = subprocess.run(
        [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "--check-config"],
        cwd=ROOT,
        env=_production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_gunicorn_check_fails_when_the_app_cannot_start():
    # No SECRET_KEY with DEBUG off stops the settings: the check must load the app to see it.
    env = _production_env()
    del env["SECRET_KEY"]
    result = subprocess.run(
        [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "--check-config"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stdout + result.stderr


def test_gunicorn_config_reads_bind_workers_and_timeout_from_the_environment(monkeypatch):
    monkeypatch.setenv("GUNICORN_BIND", "0.0.0.0:9000")
    monkeypatch.setenv("GUNICORN_WORKERS", "3")
    monkeypatch.setenv("GUNICORN_TIMEOUT", "45")
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert (config["bind"], config["workers"], config["timeout"]) == ("0.0.0.0:9000", 3, 45)
    assert config["wsgi_app"] == "schockclub.wsgi:application"


# --------------------------------------------------------------------------- CSP


class _Scripts(HTMLParser):
    """Collects what a strict CSP refuses: inline <script> code, on* handler attributes,
    javascript: URLs, style attributes and <style> elements."""

    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.handlers: list[str] = []
        self.styles: list[str] = []
        self.external: list[str] = []
        self._in_inline = False

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append(f"<{tag} {name}={value!r}>")
            if name == "style":
                self.styles.append(f"<{tag} style={value!r}>")
            if name in {"href", "src", "action"} and (value or "").lower().startswith(
                "javascript:"
            ):
                self.handlers.append(f"<{tag} {name}={value!r}>")
        if tag == "style":
            self.styles.append("<style> element")
        if tag == "script":
            kind = (values.get("type") or "text/javascript").lower()
            if values.get("src"):
                self.external.append(values["src"])
            elif kind not in {"application/json", "application/ld+json"}:
                self._in_inline = True  # executable code in the page itself

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_inline = False

    def handle_data(self, data):
        if self._in_inline and data.strip():
            self.inline.append(data.strip()[:80])


@pytest.fixture
def cast(db):
    """A club with its 2026 season, a secretary, a member, an evening with two games."""
    club = ClubFactory(name="Schockclub Eintracht")
    season = season_get_or_create(club=club, year=2026)
    secretary = MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )
    member = MemberFactory(club=club, name="Anna Becker", user=UserFactory(username="anna"))
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 3, 6),
        secretary=secretary,
        present_members=[secretary, member],
    )
    game = game_record(evening=evening, loser=member, schock_aus_throwers=[secretary])
    game_record(evening=evening, loser=secretary)
    return {
        "season": season,
        "secretary": secretary,
        "member": member,
        "evening": evening,
        "game": game,
    }


def _pages(cast) -> list[str]:
    evening, game, member = cast["evening"], cast["game"], cast["member"]
    year = cast["season"].year
    return [
        reverse("home"),
        reverse("season_standings", args=[year]),
        reverse("evening_list"),
        reverse("evening_detail", args=[evening.pk]),
        reverse("evening_create"),
        reverse("evening_edit", args=[evening.pk]),
        reverse("game_entry", args=[evening.pk]),
        reverse("game_edit", args=[evening.pk, game.pk]),
        reverse("game_rounds_entry", args=[evening.pk]),
        reverse("game_rounds", args=[game.pk]),
        reverse("season_create"),
        reverse("season_rules", args=[year]),
        reverse("season_rules_edit", args=[year]),
        reverse("odds"),
        reverse("schock_aus_stats"),
        reverse("my_dues"),
        reverse("member_dues", args=[year, member.pk]),
        reverse("ledger_home"),
        reverse("runden_list"),
        reverse("audit_index"),
        reverse("club_book_upload"),
        reverse("season_report", args=[year]),
        reverse("swagger-ui"),
    ]


def test_every_main_page_has_the_csp_header_and_no_inline_script(client, cast):
    client.force_login(cast["secretary"].user)
    pages = _pages(cast)
    checked = 0
    for url in pages:
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        policy = response.headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy, url
        assert "'unsafe-inline'" not in policy, url
        parser = _Scripts()
        parser.feed(response.content.decode())
        assert parser.inline == [], f"{url}: inline script {parser.inline}"
        assert parser.handlers == [], f"{url}: handler attributes {parser.handlers}"
        assert parser.styles == [], f"{url}: style attributes {parser.styles}"
        checked += 1
    assert checked == len(pages)


def test_the_login_page_has_the_csp_header_and_no_inline_script(client, db):
    response = client.get(reverse("login"))
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    parser = _Scripts()
    parser.feed(response.content.decode())
    assert (parser.inline, parser.handlers, parser.styles) == ([], [], [])


def test_the_script_finder_sees_inline_code_and_handlers():
    # The parser above is what the page test relies on: it must see what CSP would block.
    parser = _Scripts()
    parser.feed(
        '<script>alert(1)</script><script type="application/json">{"a": 1}</script>'
        '<script src="/static/js/x.js"></script><button onclick="go()">x</button>'
        '<p style="color: red">y</p><style>p {}</style>'
    )
    assert parser.inline == ["alert(1)"]
    assert parser.handlers == ["<button onclick='go()'>"]
    assert parser.styles == ["<p style='color: red'>", "<style> element"]
    assert parser.external == ["/static/js/x.js"]


def test_season_form_fills_the_flags_from_a_static_script(client, cast):
    client.force_login(cast["secretary"].user)
    response = client.get(reverse("season_create"))
    parser = _Scripts()
    parser.feed(response.content.decode())
    assert any(src.endswith("js/season_form.js") for src in parser.external)
    assert 'id="preset-flags"' in response.content.decode()
    script = (ROOT / "static" / "js" / "season_form.js").read_text()
    assert 'getElementById("preset-flags")' in script
    assert 'addEventListener("change"' in script


# --------------------------------------------------------------------------- worker faults


def test_celery_gives_back_the_task_of_a_dead_worker_and_takes_one_at_a_time():
    from schockclub.celery import app

    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1


def test_a_killed_workers_report_is_rebuilt_within_two_minutes_by_the_settings():
    # Redelivery after the visibility timeout, found by a sweep every `interval` seconds
    # (throttle 1: every sweep looks), then one build of at most the hard time limit, which
    # stays below the visibility timeout so that a running build is never handed out twice.
    from league.reports.tasks import build_season_report
    from schockclub.celery import app

    options = app.conf.broker_transport_options
    visibility = options["visibility_timeout"]
    sweep = options["unacked_restore_interval"] * options["unacked_restore_throttle"]
    assert build_season_report.time_limit < visibility
    assert build_season_report.soft_time_limit < build_season_report.time_limit
    report_build_45_evenings = 3.5  # seconds, README "Benchmarks"
    assert visibility + sweep + 3 * report_build_45_evenings < 120


def test_a_log_line_of_django_is_written_once_in_development():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DEBUG", "PYTEST"))}
    code = (
        "import django; django.setup(); import logging; "
        "logging.getLogger('django.request').warning('one line')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=dict(env, DJANGO_SETTINGS_MODULE="schockclub.settings"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stderr.count("one line") == 1, result.stderr


def test_gunicorn_defaults_to_gthread_with_one_process_per_core(monkeypatch):
    """The measured choice (bench/bench_gunicorn.py): gthread, one worker per core, four
    threads each; more processes than cores served less."""
    import multiprocessing

    for name in ("GUNICORN_WORKER_CLASS", "GUNICORN_WORKERS", "GUNICORN_THREADS"):
        monkeypatch.delenv(name, raising=False)
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert (config["worker_class"], config["workers"], config["threads"]) == (
        "gthread",
        multiprocessing.cpu_count(),
        4,
    )


def test_gunicorns_worker_class_and_threads_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("GUNICORN_WORKER_CLASS", "sync")
    monkeypatch.setenv("GUNICORN_THREADS", "1")
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert (config["worker_class"], config["threads"]) == ("sync", 1)
