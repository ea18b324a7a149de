"""The deployment files in deploy/ carry what the app expects of its environment: the
systemd units read the one environment file, run from the checkout's virtualenv, restart
on failure and start the three processes (web, worker, beat); the Caddyfile ends TLS and
passes the client's address and scheme the way the settings read them."""

import configparser
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
ENV_FILE = "/etc/schockclub/env"
CHECKOUT = "/srv/schockclub"


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read_string((DEPLOY / name).read_text(encoding="utf-8"))
    return parser


def env_example() -> dict[str, str]:
    values = {}
    for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            values[key] = value
    return values


UNITS = {
    "schockclub-web.service": f"{CHECKOUT}/.venv/bin/gunicorn -c gunicorn.conf.py",
    "schockclub-worker@.service": f"{CHECKOUT}/.venv/bin/celery -A schockclub worker",
    "schockclub-beat.service": f"{CHECKOUT}/.venv/bin/celery -A schockclub beat",
}


@pytest.mark.parametrize("name", sorted(UNITS))
def test_each_unit_runs_its_process_from_the_checkout_with_the_shared_environment(name):
    service = unit(name)["Service"]
    assert service["ExecStart"].startswith(UNITS[name])
    assert service["WorkingDirectory"] == CHECKOUT
    assert service["EnvironmentFile"] == ENV_FILE
    assert service["User"] == "schockclub"


@pytest.mark.parametrize("name", sorted(UNITS))
def test_each_unit_is_restarted_when_it_dies_and_starts_at_boot(name):
    parsed = unit(name)
    assert parsed["Service"]["Restart"] in {"on-failure", "always"}
    assert int(parsed["Service"]["RestartSec"]) <= 10
    assert parsed["Install"]["WantedBy"] == "multi-user.target"


@pytest.mark.parametrize("name", sorted(UNITS))
def test_each_unit_may_write_only_the_media_folder(name):
    service = unit(name)["Service"]
    assert service["ProtectSystem"] == "full"
    assert service["ReadWritePaths"] == str(Path(env_example()["MEDIA_ROOT"]).parent)


def test_the_web_unit_waits_for_gunicorn_to_say_it_is_ready():
    service = unit("schockclub-web.service")["Service"]
    assert service["Type"] == "notify"
    assert service["NotifyAccess"] == "main"


def test_the_beat_keeps_its_schedule_file_where_it_may_write():
    exec_start = unit("schockclub-beat.service")["Service"]["ExecStart"]
    schedule = re.search(r"--schedule=(\S+)", exec_start)
    assert schedule and schedule.group(1).startswith("/var/lib/schockclub/")


def test_the_worker_stops_after_the_report_build_limit():
    """A stopped worker may end a build (its task goes back to the queue), but systemd
    waits longer than the build's hard time limit before it kills."""
    service = unit("schockclub-worker@.service")["Service"]
    assert int(service["TimeoutStopSec"]) > int(env_example()["REPORT_BUILD_TIME_LIMIT"])


def caddy_site() -> str:
    return (DEPLOY / "Caddyfile").read_text(encoding="utf-8")


def test_the_proxy_sends_requests_to_gunicorns_address():
    bind = env_example()["GUNICORN_BIND"]
    assert re.search(rf"reverse_proxy\s+{re.escape(bind)}\b", caddy_site())


def test_the_proxy_sets_the_scheme_the_settings_trust():
    assert "header_up X-Forwarded-Proto {scheme}" in caddy_site()
    assert env_example()["SECURE_PROXY_SSL_HEADER"] == "true"
    # With SECURE_PROXY_SSL_HEADER on, the settings read exactly this header.
    settings_source = (ROOT / "schockclub" / "settings.py").read_text(encoding="utf-8")
    assert '("HTTP_X_FORWARDED_PROTO", "https")' in settings_source


def test_the_proxy_replaces_the_forwarded_address_so_the_lockout_keys_on_the_client():
    """One proxy of our own: the right-most X-Forwarded-For entry is the client, written by
    Caddy itself (a client's own header is replaced, never passed on)."""
    assert "header_up X-Forwarded-For {remote_host}" in caddy_site()
    assert env_example()["AXES_IPWARE_PROXY_COUNT"] == "1"
    assert "127.0.0.1" in env_example()["GUNICORN_FORWARDED_ALLOW_IPS"].split(",")


def test_each_worker_instance_serves_the_queue_it_is_named_for():
    """schockclub-worker@reports listens on the reports queue only, and so on: one worker
    per queue (a slow PDF never delays a reminder)."""
    exec_start = unit("schockclub-worker@.service")["Service"]["ExecStart"]
    assert re.search(r"\s-Q %i\s", exec_start)
    assert "-n %i@%%H" in exec_start


def test_the_readme_enables_a_worker_for_every_routed_queue():
    from django.conf import settings

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    queues = {
        settings.CELERY_TASK_DEFAULT_QUEUE,
        settings.QUEUE_REPORTS,
        settings.QUEUE_MAIL,
        settings.QUEUE_IMPORTS,
    }
    for queue in queues:
        assert f"schockclub-worker@{queue}" in readme
