"""Fixtures of the ledger tests: the sample evening entered through the services."""

import pytest

from tests.sample import enter_sample_evening_copied


@pytest.fixture
def sample_entered(sample_evening, db):
    """(evening, people) of the sample evening of 2026-10-09, entered game by game."""
    return enter_sample_evening_copied(sample_evening)


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    """Uploads of the club-book pages go to a temporary folder, never into the project."""
    settings.MEDIA_ROOT = tmp_path / "media"
