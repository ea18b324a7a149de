"""Shared fixtures: the small named cast of STYLE.md (a secretary, a member, a guest, an
outsider from another club) and the sample evening from ../shared/samples."""

import json
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
SAMPLES = SHARED / "samples"


@pytest.fixture(scope="session")
def sample_evening() -> dict:
    """The sample evening of 2026-10-09 with its `expected` figures."""
    return json.loads((SAMPLES / "evening-2026-10-09.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Tests log in hundreds of times; PBKDF2's deliberate slowness only costs time here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
