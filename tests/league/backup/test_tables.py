"""Every model of the project is either in the club backup or named as left out, with why."""

from django.apps import apps

from league.backup.tables import CLUB_TABLES, NOT_BACKED_UP, backed_up_labels


def test_every_model_is_backed_up_or_left_out_with_a_reason():
    labels = {m._meta.label for m in apps.get_models() if not m._meta.proxy}
    assert labels - backed_up_labels() - set(NOT_BACKED_UP) == set()


def test_no_model_is_both_backed_up_and_left_out():
    assert backed_up_labels() & set(NOT_BACKED_UP) == set()
    assert all(reason.strip() for reason in NOT_BACKED_UP.values())


def test_every_audited_table_carries_its_history():
    # The audit history is part of the backup: an audited table whose historical model were
    # left out would lose its lines on restore.
    audited = {t.label for t in CLUB_TABLES if hasattr(t.model, "history")}
    assert audited == {t.label for t in CLUB_TABLES if t.history}
