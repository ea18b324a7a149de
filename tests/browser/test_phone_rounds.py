"""A game entered round by round on a phone (390 px) in few taps: every throw is one tap
on the throw pad under the row being entered (static/js/throws.js), attempts default to
three dice thrown once, and the next player's row follows by itself. The test counts
every tap and keystroke of a 2-round game of 6 players and prints the figure (README).
"""

import pytest

from games.evenings.models import Game

# Round by round, row by row (the Vorleger first). Round 1: the Vorleger's 642 is the
# worst throw, he takes a Deckel and opens round 2, where the second row throws a
# Schock-Aus and his 642 is the worst again: all Deckel to him, the game is lost.
ROUNDS = [
    ["642", "665", "664", "663", "662", "661"],
    ["642", "111", "665", "664", "663", "662"],
]
MAX_TAPS = 20


@pytest.fixture
def evening(club_cast, sample_night):
    return sample_night, club_cast[1]


def test_a_two_round_game_of_six_takes_at_most_twenty_taps(page, live_server, log_in, evening):
    evening_row, _people = evening
    log_in(page, "bernd")
    page.goto(f"{live_server.url}/abende/{evening_row.pk}/runden-eintragen/")
    taps = 0
    keystrokes = 0  # nothing is typed

    def tap(locator) -> None:
        nonlocal taps
        locator.click()
        taps += 1

    for i, throws in enumerate(ROUNDS):
        round_box = page.locator(f"fieldset.round[data-round='{i}']")
        assert round_box.locator(".throw select[name$='_player'] option:checked").count() == 6
        for j, dice in enumerate(throws):
            row = round_box.locator(f".throw[data-row='{j}']")
            assert "active" in (row.get_attribute("class") or "")  # opened by itself
            tap(row.locator(f".dice-pad [data-dice='{dice}']"))
        if i < len(ROUNDS) - 1:
            tap(page.locator(".rounds-actions button[value=check]"))
            page.wait_for_selector(f"fieldset.round[data-round='{i + 1}']")
    tap(page.locator(".rounds-actions button[value=save]"))
    page.wait_for_url(lambda url: "/runden/" in url and "eintragen" not in url)

    game = Game.objects.get(evening=evening_row)
    assert game.entry_mode == "rounds"
    assert game.loser == game.vorleger  # the 642 of both rounds
    print(f"\nround by round, 2 rounds of 6 players: {taps} taps, {keystrokes} keystrokes")
    assert taps + keystrokes <= MAX_TAPS
