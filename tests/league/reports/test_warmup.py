"""A worker loads the report libraries when it starts, so its first report does not pay
for their imports."""

import logging
import sys
import weakref

from celery.signals import worker_init, worker_process_init

from league.reports import tasks, warmup


def _receivers(signal) -> list:
    """The functions connected to a Celery signal (it keeps weak references)."""
    return [r() if isinstance(r, weakref.ReferenceType) else r for _key, r in signal.receivers]


def test_a_worker_loads_the_libraries_before_its_fork_and_warms_each_child(monkeypatch):
    assert tasks._load_report_libraries in _receivers(worker_init)
    assert tasks._warm_report_libraries in _receivers(worker_process_init)
    calls = []
    monkeypatch.setattr(tasks, "report_libraries_load", lambda **kw: calls.append(kw))
    tasks._load_report_libraries(sender=None)
    tasks._warm_report_libraries(sender=None)
    assert calls == [{"render": False}, {"render": True}]


def test_loading_the_libraries_imports_weasyprint_and_matplotlib_and_lays_out_a_page():
    seconds = warmup.report_libraries_load(render=True)
    assert seconds > 0
    assert "weasyprint" in sys.modules and "matplotlib.figure" in sys.modules


def test_a_library_that_cannot_be_loaded_is_logged_not_raised(monkeypatch, caplog):
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import raises ImportError
    with caplog.at_level(logging.WARNING, logger="league.reports.warmup"):
        warmup.report_libraries_load(render=True)
    assert "could not be loaded ahead" in caplog.text
