"""PostgreSQL: the integrity checks of new rows (games migration 0002) per statement, not
per row.

The checks of 0002 ran as BEFORE ... FOR EACH ROW triggers: one PL/pgSQL call and one to
three queries per inserted row. The club-book import writes 47,700 games, 10,500
Schock-Aus and 13,700 attendance rows of a 48-season book in one COPY each, and those
per-row queries were about 1.2 s of the server's CPU (bench/bench_import.py). Here the
INSERT checks run once per statement over the statement's new rows (an AFTER ... FOR EACH
STATEMENT trigger with the transition table `schock_new`), each check one set-based
query (an anti-join) instead of one query per row.

Nothing is checked less: every INSERT, COPY, bulk_create or single save() fires its
statement trigger, written by the import or by anything else, and a bad row aborts the
statement with the same stable code as before (`evening_outside_season`,
`person_of_other_club`, `loser_not_present`, `vorleger_not_present`,
`thrower_not_present`), SQLSTATE 23514 through `schock_fail`, an IntegrityError in Django.
The checks are the same conditions: a Schock-Aus whose game does not exist is refused as
before (its evening is unknown, so its thrower is not present). UPDATE (and DELETE of an
attendance) keep their row triggers of 0002, unchanged: they are single-row writes of the
services and the admin. When one statement holds rows that fail different checks, the
code of the first check in the function's order is raised (a single row fails as before).

SQLite keeps the row triggers of 0002 (it has no statement-level triggers); nothing
changes there.
"""

from django.db import migrations

PG = r"""
CREATE OR REPLACE FUNCTION schock_evening_insert_check() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM schock_new n WHERE NOT EXISTS (
               SELECT 1 FROM league_season s WHERE s.id = n.season_id
               AND s.club_id = n.club_id AND n.date BETWEEN s.starts_on AND s.ends_on)) THEN
    PERFORM schock_fail('evening_outside_season');
  END IF;
  IF EXISTS (SELECT 1 FROM schock_new n WHERE NOT EXISTS (
               SELECT 1 FROM league_member m WHERE m.id = n.secretary_id
               AND m.club_id = n.club_id)) THEN
    PERFORM schock_fail('person_of_other_club');
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION schock_attendance_insert_check() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM schock_new n WHERE NOT EXISTS (
               SELECT 1 FROM games_evening e JOIN league_member m ON m.club_id = e.club_id
               WHERE e.id = n.evening_id AND m.id = n.member_id)) THEN
    PERFORM schock_fail('person_of_other_club');
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION schock_game_insert_check() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM schock_new g WHERE NOT EXISTS (
               SELECT 1 FROM games_attendance a WHERE a.evening_id = g.evening_id
               AND a.member_id = g.loser_id AND a.role <> 'absent')) THEN
    PERFORM schock_fail('loser_not_present');
  END IF;
  IF EXISTS (SELECT 1 FROM schock_new g WHERE g.vorleger_id IS NOT NULL AND NOT EXISTS (
               SELECT 1 FROM games_attendance a WHERE a.evening_id = g.evening_id
               AND a.member_id = g.vorleger_id AND a.role <> 'absent')) THEN
    PERFORM schock_fail('vorleger_not_present');
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION schock_schockaus_insert_check() RETURNS trigger AS $$
BEGIN
  -- LEFT JOIN: a Schock-Aus of a game that does not exist has no evening, so its thrower
  -- is not present there (as the row trigger of 0002 judged it).
  IF EXISTS (SELECT 1 FROM schock_new sa LEFT JOIN games_game g ON g.id = sa.game_id
             WHERE NOT EXISTS (
               SELECT 1 FROM games_attendance a WHERE a.evening_id = g.evening_id
               AND a.member_id = sa.thrower_id AND a.role <> 'absent')) THEN
    PERFORM schock_fail('thrower_not_present');
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

DROP TRIGGER schock_evening_check ON games_evening;
CREATE TRIGGER schock_evening_check BEFORE UPDATE ON games_evening
  FOR EACH ROW EXECUTE FUNCTION schock_evening_check();
CREATE TRIGGER schock_evening_insert_check AFTER INSERT ON games_evening
  REFERENCING NEW TABLE AS schock_new
  FOR EACH STATEMENT EXECUTE FUNCTION schock_evening_insert_check();

DROP TRIGGER schock_attendance_check ON games_attendance;
CREATE TRIGGER schock_attendance_check BEFORE UPDATE OR DELETE ON games_attendance
  FOR EACH ROW EXECUTE FUNCTION schock_attendance_check();
CREATE TRIGGER schock_attendance_insert_check AFTER INSERT ON games_attendance
  REFERENCING NEW TABLE AS schock_new
  FOR EACH STATEMENT EXECUTE FUNCTION schock_attendance_insert_check();

DROP TRIGGER schock_game_check ON games_game;
CREATE TRIGGER schock_game_check BEFORE UPDATE ON games_game
  FOR EACH ROW EXECUTE FUNCTION schock_game_check();
CREATE TRIGGER schock_game_insert_check AFTER INSERT ON games_game
  REFERENCING NEW TABLE AS schock_new
  FOR EACH STATEMENT EXECUTE FUNCTION schock_game_insert_check();

DROP TRIGGER schock_schockaus_check ON games_schockaus;
CREATE TRIGGER schock_schockaus_check BEFORE UPDATE ON games_schockaus
  FOR EACH ROW EXECUTE FUNCTION schock_schockaus_check();
CREATE TRIGGER schock_schockaus_insert_check AFTER INSERT ON games_schockaus
  REFERENCING NEW TABLE AS schock_new
  FOR EACH STATEMENT EXECUTE FUNCTION schock_schockaus_insert_check();
"""

# Back to the row triggers of 0002 (their functions are unchanged and still there).
PG_REVERSE = r"""
DROP TRIGGER IF EXISTS schock_schockaus_insert_check ON games_schockaus;
DROP TRIGGER IF EXISTS schock_schockaus_check ON games_schockaus;
CREATE TRIGGER schock_schockaus_check BEFORE INSERT OR UPDATE ON games_schockaus
  FOR EACH ROW EXECUTE FUNCTION schock_schockaus_check();

DROP TRIGGER IF EXISTS schock_game_insert_check ON games_game;
DROP TRIGGER IF EXISTS schock_game_check ON games_game;
CREATE TRIGGER schock_game_check BEFORE INSERT OR UPDATE ON games_game
  FOR EACH ROW EXECUTE FUNCTION schock_game_check();

DROP TRIGGER IF EXISTS schock_attendance_insert_check ON games_attendance;
DROP TRIGGER IF EXISTS schock_attendance_check ON games_attendance;
CREATE TRIGGER schock_attendance_check BEFORE INSERT OR UPDATE OR DELETE ON games_attendance
  FOR EACH ROW EXECUTE FUNCTION schock_attendance_check();

DROP TRIGGER IF EXISTS schock_evening_insert_check ON games_evening;
DROP TRIGGER IF EXISTS schock_evening_check ON games_evening;
CREATE TRIGGER schock_evening_check BEFORE INSERT OR UPDATE ON games_evening
  FOR EACH ROW EXECUTE FUNCTION schock_evening_check();

DROP FUNCTION IF EXISTS schock_schockaus_insert_check();
DROP FUNCTION IF EXISTS schock_game_insert_check();
DROP FUNCTION IF EXISTS schock_attendance_insert_check();
DROP FUNCTION IF EXISTS schock_evening_insert_check();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_REVERSE)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_game_client_key"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
