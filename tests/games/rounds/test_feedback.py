"""Live feedback on a throw and the entry form's notation. No database."""

import pytest

from games.rounds.feedback import muss_regel_for, throw_feedback, turn_text
from games.rounds.forms import NotationError, parse_dice, parse_turn
from games.rules import PRESETS

CLUB = PRESETS["club"]


def test_a_final_throw_gets_its_category_label_and_worth():
    answer = throw_feedback(rules=CLUB, dice=[1, 5, 1], attempts=2, natural=False)
    assert (answer["ok"], answer["category"], answer["label"], answer["deckel"]) == (
        True,
        "schock",
        "Schock 5",
        5,
    )


def test_a_collected_general_reads_as_a_hausnummer_under_rules_without_keep_only_ones():
    answer = throw_feedback(rules=PRESETS["app"], dice=[5, 5, 5], attempts=2, natural=False)
    assert (answer["category"], answer["label"]) == ("hausnummer", "555")


def test_a_turn_in_detail_gets_its_final_throw():
    turn = [{"rolled": [1, 4, 5], "keep": [1]}, {"rolled": [6, 1], "keep": [1]}, {"rolled": [1]}]
    answer = throw_feedback(rules=CLUB, turn=turn)
    assert (answer["label"], answer["attempts"], answer["natural"]) == ("Schock-Aus", 3, False)


def test_an_impossible_final_throw_says_why():
    answer = throw_feedback(rules=CLUB, dice=[4, 3, 2], attempts=1, natural=False)
    assert (answer["ok"], answer["code"]) == (False, "collected_in_one_attempt")
    assert answer["message"]


def test_the_vorlegers_attempts_cap_a_later_turn():
    turn = [{"rolled": [4, 5, 2]}, {"rolled": [6, 5, 3]}]
    answer = throw_feedback(rules=CLUB, turn=turn, max_attempts=1)
    assert (answer["code"], answer["attempt"]) == ("too_many_attempts", 2)


def test_the_muss_regel_is_enforced_only_when_it_applies():
    turn = [{"rolled": [6, 4, 1]}]
    assert throw_feedback(rules=CLUB, turn=turn, muss_regel=False)["ok"] is True
    assert throw_feedback(rules=CLUB, turn=turn, muss_regel=True)["code"] == "muss_regel_broken"


def test_missing_dice_are_reported_not_raised():
    answer = throw_feedback(rules=CLUB, dice=None, attempts=None)
    assert (answer["ok"], answer["code"]) == (False, "throw_missing")


def test_dice_out_of_range_are_reported_by_the_rules():
    answer = throw_feedback(rules=CLUB, dice=[7, 1, 1], attempts=1)
    assert answer["code"] == "die_out_of_range"


@pytest.mark.parametrize(
    ("count", "last_game", "applies"),
    [(0, False, True), (3, False, False), (4, False, True), (9, False, True), (3, True, True)],
)
def test_the_muss_regel_applies_where_the_next_schock_aus_costs_a_runde(count, last_game, applies):
    assert muss_regel_for(rules=CLUB, schock_aus_so_far=count, last_game=last_game) is applies


def test_rule_sets_without_the_muss_regel_never_apply_it():
    assert muss_regel_for(rules=PRESETS["app"], schock_aus_so_far=0, last_game=True) is False


# -- notation -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["655", "6 5 5", "6-5-5", "6,5,5"])
def test_dice_are_read_in_any_usual_spelling(text):
    assert parse_dice(text) == [6, 5, 5]


def test_empty_dice_are_none():
    assert parse_dice("  ") is None


def test_a_turn_is_read_attempt_by_attempt():
    assert parse_turn("145:1 / 61:1 / 1") == [
        {"rolled": [1, 4, 5], "keep": [1], "umwandlung": 0},
        {"rolled": [6, 1], "keep": [1], "umwandlung": 0},
        {"rolled": [1], "keep": [], "umwandlung": 0},
    ]


def test_u_marks_an_umwandlung_beside_kept_ones():
    assert parse_turn("661:1u / 4")[0] == {"rolled": [6, 6, 1], "keep": [1], "umwandlung": 1}


def test_text_outside_the_notation_is_refused():
    with pytest.raises(NotationError):
        parse_turn("abc")


def test_a_stored_turn_is_written_back_in_the_notation():
    text = "145:1 / 61:1 / 1"
    assert turn_text(parse_turn(text)) == text
