"""Database triggers for what constraints alone cannot say.

The database refuses, with an integrity error whose message starts with the stable code:
- evening_outside_season: an evening whose date lies outside its season, or whose season
  or secretary belongs to another club (and a season change that would leave an evening
  outside it);
- person_of_other_club: an attendance of a person of another club;
- loser_not_present / vorleger_not_present / thrower_not_present: a game's loser or
  Vorleger, or a Schock-Aus thrower, without a present attendance at that evening;
- attendance_in_use: making absent, moving or deleting the attendance of a person who
  lost, opened or threw a Schock-Aus in that evening's games.
PostgreSQL raises SQLSTATE 23514 (check_violation); SQLite uses RAISE(ABORT); both reach
Django as IntegrityError.
"""

from django.db import migrations

PG = r"""
CREATE OR REPLACE FUNCTION schock_fail(code text) RETURNS void AS $$
BEGIN
  RAISE EXCEPTION USING MESSAGE = code, ERRCODE = '23514';
END $$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION schock_evening_check() RETURNS trigger AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM league_season s WHERE s.id = NEW.season_id
                 AND s.club_id = NEW.club_id
                 AND NEW.date BETWEEN s.starts_on AND s.ends_on) THEN
    PERFORM schock_fail('evening_outside_season');
  END IF;
  IF NOT EXISTS (SELECT 1 FROM league_member m WHERE m.id = NEW.secretary_id
                 AND m.club_id = NEW.club_id) THEN
    PERFORM schock_fail('person_of_other_club');
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER schock_evening_check BEFORE INSERT OR UPDATE ON games_evening
  FOR EACH ROW EXECUTE FUNCTION schock_evening_check();

CREATE OR REPLACE FUNCTION schock_season_check() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM games_evening e WHERE e.season_id = NEW.id
             AND (e.date < NEW.starts_on OR e.date > NEW.ends_on OR e.club_id <> NEW.club_id)) THEN
    PERFORM schock_fail('evening_outside_season');
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER schock_season_check BEFORE UPDATE ON league_season
  FOR EACH ROW EXECUTE FUNCTION schock_season_check();

CREATE OR REPLACE FUNCTION schock_attendance_check() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF NOT EXISTS (SELECT 1 FROM games_evening e JOIN league_member m ON m.club_id = e.club_id
                   WHERE e.id = NEW.evening_id AND m.id = NEW.member_id) THEN
      PERFORM schock_fail('person_of_other_club');
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF (TG_OP = 'DELETE' OR NEW.role = 'absent' OR NEW.member_id <> OLD.member_id
        OR NEW.evening_id <> OLD.evening_id) AND OLD.role <> 'absent' THEN
      IF EXISTS (SELECT 1 FROM games_game g WHERE g.evening_id = OLD.evening_id
                 AND (g.loser_id = OLD.member_id OR g.vorleger_id = OLD.member_id))
         OR EXISTS (SELECT 1 FROM games_schockaus sa JOIN games_game g ON g.id = sa.game_id
                    WHERE g.evening_id = OLD.evening_id AND sa.thrower_id = OLD.member_id) THEN
        PERFORM schock_fail('attendance_in_use');
      END IF;
    END IF;
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER schock_attendance_check BEFORE INSERT OR UPDATE OR DELETE ON games_attendance
  FOR EACH ROW EXECUTE FUNCTION schock_attendance_check();

CREATE OR REPLACE FUNCTION schock_present(evening bigint, person bigint) RETURNS boolean AS $$
  SELECT EXISTS (SELECT 1 FROM games_attendance a WHERE a.evening_id = evening
                 AND a.member_id = person AND a.role <> 'absent');
$$ LANGUAGE sql STABLE;

CREATE OR REPLACE FUNCTION schock_game_check() RETURNS trigger AS $$
BEGIN
  IF NOT schock_present(NEW.evening_id, NEW.loser_id) THEN
    PERFORM schock_fail('loser_not_present');
  END IF;
  IF NEW.vorleger_id IS NOT NULL AND NOT schock_present(NEW.evening_id, NEW.vorleger_id) THEN
    PERFORM schock_fail('vorleger_not_present');
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER schock_game_check BEFORE INSERT OR UPDATE ON games_game
  FOR EACH ROW EXECUTE FUNCTION schock_game_check();

CREATE OR REPLACE FUNCTION schock_schockaus_check() RETURNS trigger AS $$
BEGIN
  IF NOT schock_present((SELECT g.evening_id FROM games_game g WHERE g.id = NEW.game_id),
                        NEW.thrower_id) THEN
    PERFORM schock_fail('thrower_not_present');
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER schock_schockaus_check BEFORE INSERT OR UPDATE ON games_schockaus
  FOR EACH ROW EXECUTE FUNCTION schock_schockaus_check();
"""

PG_REVERSE = r"""
DROP TRIGGER IF EXISTS schock_schockaus_check ON games_schockaus;
DROP TRIGGER IF EXISTS schock_game_check ON games_game;
DROP TRIGGER IF EXISTS schock_attendance_check ON games_attendance;
DROP TRIGGER IF EXISTS schock_season_check ON league_season;
DROP TRIGGER IF EXISTS schock_evening_check ON games_evening;
DROP FUNCTION IF EXISTS schock_schockaus_check();
DROP FUNCTION IF EXISTS schock_game_check();
DROP FUNCTION IF EXISTS schock_present(bigint, bigint);
DROP FUNCTION IF EXISTS schock_attendance_check();
DROP FUNCTION IF EXISTS schock_season_check();
DROP FUNCTION IF EXISTS schock_evening_check();
DROP FUNCTION IF EXISTS schock_fail(text);
"""

_EVENING_SQLITE = """
  SELECT RAISE(ABORT, 'evening_outside_season') WHERE NOT EXISTS (
    SELECT 1 FROM league_season s WHERE s.id = NEW.season_id AND s.club_id = NEW.club_id
    AND NEW.date BETWEEN s.starts_on AND s.ends_on);
  SELECT RAISE(ABORT, 'person_of_other_club') WHERE NOT EXISTS (
    SELECT 1 FROM league_member m WHERE m.id = NEW.secretary_id AND m.club_id = NEW.club_id);
"""
_ATT_OTHER_CLUB = """
  SELECT RAISE(ABORT, 'person_of_other_club') WHERE NOT EXISTS (
    SELECT 1 FROM games_evening e JOIN league_member m ON m.club_id = e.club_id
    WHERE e.id = NEW.evening_id AND m.id = NEW.member_id);
"""
_ATT_IN_USE = """
  SELECT RAISE(ABORT, 'attendance_in_use') WHERE OLD.role <> 'absent' AND (
    EXISTS (SELECT 1 FROM games_game g WHERE g.evening_id = OLD.evening_id
            AND (g.loser_id = OLD.member_id OR g.vorleger_id = OLD.member_id))
    OR EXISTS (SELECT 1 FROM games_schockaus sa JOIN games_game g ON g.id = sa.game_id
               WHERE g.evening_id = OLD.evening_id AND sa.thrower_id = OLD.member_id));
"""
_GAME = """
  SELECT RAISE(ABORT, 'loser_not_present') WHERE NOT EXISTS (
    SELECT 1 FROM games_attendance a WHERE a.evening_id = NEW.evening_id
    AND a.member_id = NEW.loser_id AND a.role <> 'absent');
  SELECT RAISE(ABORT, 'vorleger_not_present') WHERE NEW.vorleger_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM games_attendance a WHERE a.evening_id = NEW.evening_id
    AND a.member_id = NEW.vorleger_id AND a.role <> 'absent');
"""
_SCHOCKAUS = """
  SELECT RAISE(ABORT, 'thrower_not_present') WHERE NOT EXISTS (
    SELECT 1 FROM games_attendance a JOIN games_game g ON g.evening_id = a.evening_id
    WHERE g.id = NEW.game_id AND a.member_id = NEW.thrower_id AND a.role <> 'absent');
"""

SQLITE = [
    f"CREATE TRIGGER schock_evening_ins BEFORE INSERT ON games_evening BEGIN {_EVENING_SQLITE} END;",
    f"CREATE TRIGGER schock_evening_upd BEFORE UPDATE ON games_evening BEGIN {_EVENING_SQLITE} END;",
    """CREATE TRIGGER schock_season_upd BEFORE UPDATE ON league_season BEGIN
  SELECT RAISE(ABORT, 'evening_outside_season') WHERE EXISTS (
    SELECT 1 FROM games_evening e WHERE e.season_id = NEW.id
    AND (e.date < NEW.starts_on OR e.date > NEW.ends_on OR e.club_id <> NEW.club_id)); END;""",
    f"CREATE TRIGGER schock_att_ins BEFORE INSERT ON games_attendance BEGIN {_ATT_OTHER_CLUB} END;",
    f"""CREATE TRIGGER schock_att_upd BEFORE UPDATE ON games_attendance BEGIN {_ATT_OTHER_CLUB}
  SELECT RAISE(ABORT, 'attendance_in_use') WHERE (NEW.role = 'absent'
    OR NEW.member_id <> OLD.member_id OR NEW.evening_id <> OLD.evening_id)
    AND OLD.role <> 'absent' AND (
    EXISTS (SELECT 1 FROM games_game g WHERE g.evening_id = OLD.evening_id
            AND (g.loser_id = OLD.member_id OR g.vorleger_id = OLD.member_id))
    OR EXISTS (SELECT 1 FROM games_schockaus sa JOIN games_game g ON g.id = sa.game_id
               WHERE g.evening_id = OLD.evening_id AND sa.thrower_id = OLD.member_id)); END;""",
    f"CREATE TRIGGER schock_att_del BEFORE DELETE ON games_attendance BEGIN {_ATT_IN_USE} END;",
    f"CREATE TRIGGER schock_game_ins BEFORE INSERT ON games_game BEGIN {_GAME} END;",
    f"CREATE TRIGGER schock_game_upd BEFORE UPDATE ON games_game BEGIN {_GAME} END;",
    f"CREATE TRIGGER schock_sa_ins BEFORE INSERT ON games_schockaus BEGIN {_SCHOCKAUS} END;",
    f"CREATE TRIGGER schock_sa_upd BEFORE UPDATE ON games_schockaus BEGIN {_SCHOCKAUS} END;",
]
SQLITE_NAMES = [
    "schock_evening_ins", "schock_evening_upd", "schock_season_upd", "schock_att_ins",
    "schock_att_upd", "schock_att_del", "schock_game_ins", "schock_game_upd",
    "schock_sa_ins", "schock_sa_upd",
]


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG)
    elif vendor == "sqlite":
        for statement in SQLITE:
            schema_editor.execute(statement)


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_REVERSE)
    elif vendor == "sqlite":
        for name in SQLITE_NAMES:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {name};")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
        ("league", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
