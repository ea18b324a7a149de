"""The flags' German texts on the rules page say what the seeds say, for the rule set shown
(``games.rules.flags.describe``): each test quotes the seed sentence it checks against."""

import dataclasses

import pytest

from games.rules import FLAGS, PRESETS, RuleSet, Throw, evaluate
from games.rules.flags import describe
from games.rules.turns import reachable_throws

CLUB = PRESETS["club"]


def text(rules: RuleSet, name: str):
    """The flag ``name`` as the rules page of a season with ``rules`` shows it."""
    return next(flag for flag, _value in describe(rules) if flag.name == name)


def words(flag) -> str:
    return " ".join((flag.label, flag.explanation, flag.example, flag.source))


# --- muss_regel: seed 003 "Runden / Muss-Regel" ---------------------------------------------


def test_muss_regel_leaves_the_player_free_without_a_one_or_two_sixes():
    """Seed 003: "Zeigen alle drei Würfel keine Eins oder keine zwei Sechsen, ist es dem
    Spieler freigestellt, ob er aufhört oder weitermacht." """
    assert "Zeigen sie keine Eins und keine zwei Sechsen, darf er aufhören" in (
        text(CLUB, "muss_regel").explanation
    )


def test_muss_regel_names_the_duty_for_two_sixes():
    """Seed 003: "Ebenso muss er für zwei Sechsen aus einem Wurf eine Eins rauslegen und
    fortfahren." """
    assert "für zwei Sechsen aus einem Wurf eine Eins rauslegen" in (
        text(CLUB, "muss_regel").explanation
    )


def test_muss_regel_without_umwandlung_puts_no_duty_on_two_sixes():
    """Seed 003: "Ebenso muss er für zwei Sechsen aus einem Wurf eine Eins rauslegen" is an
    Umwandlung ("kann er für zwei Sechsen aus einem Wurf eine Eins rauslegen"): where no
    sixes are turned, the text does not ask for it."""
    flag = text(dataclasses.replace(CLUB, umwandlung=False), "muss_regel")
    assert "für zwei Sechsen aus einem Wurf eine Eins rauslegen" not in flag.explanation
    assert "ohne Umwandlung verpflichten zwei Sechsen zu nichts" in flag.explanation


# --- einwuerfeln: seed 001 ------------------------------------------------------------------


def test_einwuerfeln_lets_leave_only_who_received_no_deckel():
    """Seed 001: "Man darf nur wieder aussteigen, wenn man keine Pappen erhalten hat." """
    flag = text(PRESETS["stammtisch"], "einwuerfeln")
    assert "aussteigen darf nur, wer in diesem Spiel noch keine Deckel erhalten hat" in (
        flag.explanation
    )
    assert "wer keine Deckel hat" not in flag.explanation


# --- sources ---------------------------------------------------------------------------------


def test_generals_ranked_cites_meisterschaft_and_app_not_regelwerk_2019():
    """Seed 002: "General: ... Generale zählen nur in einem Wurf; Hoch gewinnt"; seed 004
    lists "666: Sechser-General" down to "222: Zweier-General"; seed 001: "Alle Generals
    sind gleich hoch."; seed 000 never ranks the Generals."""
    source = text(CLUB, "generals_ranked").source
    assert ("Meisterschaft und App" in source, "Regelwerk 2019" in source) == (True, False)


def test_strassen_ranked_does_not_claim_every_rule_text():
    """Seed 001: "Hier ist zu beachten, dass eine größere Straße eine kleinere Straße
    überbietet."; seed 002: "Straßen zählen nur in einem Wurf; Hoch gewinnt"; seed 004
    lists "456: Straße 456" to "123: Straße 123". Seeds 000 and 003 do not rank them."""
    source = text(CLUB, "strassen_ranked").source
    assert source.startswith("Stammtisch, Meisterschaft und App; Regelwerk 2019 und die")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_no_flag_text_says_seed_or_rules_md(name):
    """The club's own rules begin "Daher sprechen wir ausdrücklich von „unseren“
    Schockerregeln!" (seed 003): the pages name rule sets as the members do, not by the
    project's file numbers."""
    texts = [words(flag) for flag, _value in describe(PRESETS[name])]
    assert [t for t in texts if "Seed" in t or "docs/rules.md" in t] == []


# --- keep_only_ones and keep_sixes ----------------------------------------------------------


def test_keep_only_ones_with_keep_sixes_does_not_promise_a_one():
    """Seed 003: "Hat ein Spieler noch mindestens einen Versuch, kann er geworfene Einsen
    rauslegen": with sixes laid out too, a collected throw may show a six instead."""
    rules = dataclasses.replace(CLUB, keep_sixes=True)
    assert "zeigt daher immer eine Eins oder eine Sechs" in (
        text(rules, "keep_only_ones").explanation
    )


# --- collected_general_counts ---------------------------------------------------------------


def test_collected_general_counts_says_it_has_no_effect_under_the_club_rules():
    """Seed 003: "kann er geworfene Einsen rauslegen" and "Straße und 3er-Pasch müssen in
    einem Versuch („Natur“) geworfen werden": only ones are laid out, so no General but
    the Schock-Aus can be collected, and the flag changes nothing."""
    rules = dataclasses.replace(CLUB, collected_general_counts=True)
    collected = [Throw(d, a, n) for d, a, n in reachable_throws(rules, 3, False) if not n]
    generals = [t for t in collected if evaluate(t, rules).category.value == "general"]
    flag = text(CLUB, "collected_general_counts")
    assert (generals, "Nach diesen Regeln ohne Wirkung" in flag.explanation) == ([], True)


def test_collected_general_counts_example_is_a_general_6_with_sixes_laid_out():
    """Seed 003: "kann er geworfene Einsen rauslegen"; with sixes laid out too, the only
    General that can be collected is the General 6."""
    flag = text(dataclasses.replace(CLUB, keep_sixes=True), "collected_general_counts")
    assert "General 6" in flag.example and "5-5" not in flag.example


# --- deckel_nehmen, ausscheidung: seeds 000 and 002 -----------------------------------------


def test_deckel_nehmen_keeps_the_covered_throw():
    """Seed 000: "Deckel dürfen freiwillig genommen werden, wenn der betroffene Spieler
    einen noch verdeckten Wurf hat" and "Der noch nicht aufgedeckte Wurf ... ist dann der
    erste Wurf der nächsten ... Wurfrunde": the taker has thrown, covered."""
    flag = text(PRESETS["regelwerk2019"], "deckel_nehmen")
    assert (
        "statt zu würfeln" in flag.explanation,
        "gewürfelt, aber noch verdeckt" in flag.explanation,
    ) == (
        False,
        True,
    )


def test_ausscheidung_says_how_many_deckel_the_worst_throw_takes():
    """Seed 002: "Bei Spielbeginn würfeln alle Spieler einmal und decken auf. Der mit dem
    niedrigsten Wurf bekommt die entsprechenden Deckel und fährt fort." """
    flag = text(PRESETS["meisterschaft"], "ausscheidung")
    assert "so viele Deckel aus dem Stock, wie der beste Wurf wert ist" in flag.explanation


# --- format and deckel_total ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["format", "deckel_total"])
def test_the_number_of_deckel_is_the_rule_sets(name):
    """Seed 002: "Gespielt wird mit 13 Deckeln." The 15-Deckel variant plays with 15, and
    the text says so."""
    flag = text(dataclasses.replace(CLUB, deckel_total=15), name)
    assert ("15 Deckel" in flag.explanation, "13" in flag.explanation + flag.example) == (
        True,
        False,
    )


def test_deckel_total_in_halves_loses_the_half():
    """Seed 002: "Erhält einer in der Runde alle 13 Deckel, so hat er diese „Hälfte“
    verloren." """
    flag = text(PRESETS["meisterschaft"], "deckel_total")
    assert "verliert die Hälfte bzw. das Finale" in flag.explanation


def test_format_of_the_club_is_one_game():
    """Seed 003: "Ein Spiel wird vom Vorleger eröffnet und endet, wenn einem Spieler – dem
    Verlierer – alle 13 Deckel zugewiesen werden konnten." """
    assert text(CLUB, "format").explanation.startswith("Ein Spiel um 13 Deckel: wer alle 13")


# --- umwandlung and max_attempts ------------------------------------------------------------


def test_umwandlung_example_lets_the_three_lie_where_anything_is_laid_out():
    """Seed 002: "Es kann alles rausgelegt, aber nichts wieder reingenommen werden." and
    seed 000: "Der zweite Wurf ist dann wieder in den Würfelbecher zu legen": only the
    other six must go back."""
    example = text(PRESETS["meisterschaft"], "umwandlung").example
    assert "die 3 darf liegen bleiben oder mitgewürfelt werden" in example


def test_umwandlung_example_sends_the_three_back_where_only_ones_are_laid_out():
    """Seed 003: "kann er geworfene Einsen rauslegen"; nothing else may lie out."""
    assert "die 3 muss mit zurück" in text(CLUB, "umwandlung").example


def test_max_attempts_is_labelled_in_german():
    """Seed 003: "Der Vorleger legt in maximal drei Versuchen einen Wurf vor." """
    assert {f.name: f.label for f in FLAGS}["max_attempts"] == "Höchstzahl der Versuche"


@pytest.mark.parametrize("name", ["keep_only_ones", "muss_regel", "collected_general_counts"])
def test_with_one_attempt_the_laying_out_flags_say_they_have_no_effect(name):
    """Seed 003: "Hat ein Spieler noch mindestens einen Versuch, kann er geworfene Einsen
    rauslegen": with one attempt allowed, nothing is ever laid out."""
    flag = text(dataclasses.replace(CLUB, max_attempts=1), name)
    assert flag.explanation.endswith(
        "Mit nur einem Versuch ohne Wirkung: es wird nichts rausgelegt und nichts gesammelt."
    )
