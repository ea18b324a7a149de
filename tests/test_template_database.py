"""The test databases cloned from a template migrated once per schema
(tests/template_database.py): the template's name follows every input of the schema, and
only PostgreSQL databases named by DATABASE_URL use one."""

import shutil
from pathlib import Path

import pytest
from django.db import connection

from tests import template_database
from tests.template_database import (
    ROOT,
    schema_digest,
    schema_inputs,
    template_name,
    use_templates,
)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the files the digest reads."""
    for path in schema_inputs():
        target = tmp_path / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return tmp_path


@pytest.mark.parametrize(
    "changed",
    [
        "games/migrations/0001_initial.py",
        "league/club/models.py",
        "schockclub/settings.py",
        "requirements/development.txt",
    ],
)
def test_the_digest_changes_with_every_input_of_the_schema(tree, changed):
    before = schema_digest(tree)
    assert schema_digest(tree) == before
    path = tree / changed
    path.write_text(path.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert schema_digest(tree) != before


def test_a_new_migration_changes_the_digest(tree):
    before = schema_digest(tree)
    (tree / "league" / "migrations" / "9999_more.py").write_text("", encoding="utf-8")
    assert schema_digest(tree) != before


def test_the_template_name_fits_postgresql_and_names_the_digest():
    assert template_name("schockclub", "0123456789ab") == "test_schockclub_template_0123456789ab"
    long = template_name("x" * 80, "0123456789ab")
    assert len(long) == 63 and long.endswith("_template_0123456789ab")


def test_only_postgresql_databases_of_database_url_use_a_template(monkeypatch):
    made = []
    monkeypatch.setattr(
        template_database, "ensure_template", lambda db, url: made.append(db) or "t"
    )
    monkeypatch.setenv("DATABASE_URL", "postgres://u@h:5432/club")
    databases = {
        "default": {"ENGINE": "django.db.backends.postgresql", "NAME": "club"},
        "mirror": {"ENGINE": "django.db.backends.postgresql", "TEST": {"MIRROR": "default"}},
        "lite": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"},
    }
    use_templates(databases)
    assert databases["default"]["TEST"] == {"TEMPLATE": "t"}
    assert "TEMPLATE" not in databases["mirror"]["TEST"]
    assert databases["lite"]["TEST"] == {}
    assert made == [databases["default"]]
    monkeypatch.delenv("DATABASE_URL")
    use_templates(fresh := {"default": {"ENGINE": "django.db.backends.postgresql"}})
    assert fresh["default"]["TEST"] == {}


@pytest.mark.django_db
def test_the_test_database_has_every_migration_of_the_template():
    """The clone of the template knows every migration the project has (Django's set-up
    ran `migrate` on it, which would have applied a missing one: none was missing if the
    template is this schema's), and no migration the project does not have."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's test database is migrated in memory, without a template")
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(connection)
    assert set(loader.applied_migrations) == set(loader.disk_migrations)
    assert connection.settings_dict["TEST"]["TEMPLATE"] == template_name(
        connection.settings_dict["NAME"].removeprefix("test_").split("_gw")[0], schema_digest()
    )
