"""Entering an evening at the table: the taps and seconds chromium at 390 x 844 takes to
enter the 25 games of the sample evening (tests/samples) on the evening page, online
(one post and page load a game) and offline (each game queued on the phone, then the
queue sent when the connection is back, without a page load); and one game of 2 rounds
of 6 players entered round by round (the throw pad, tests/browser/test_phone_rounds.py's
game), from opening the page to the saved game.

A tap is a click on the page: the loser, each Schock-Aus thrower in throwing order, and
"Spiel speichern"; number and Vorleger are filled in by the page. The seconds are the
machine's, not a person's: they say what the page costs, not how fast a secretary taps.

Needs /usr/bin/chromium (or CHROMIUM) and Playwright; runs on a temporary SQLite file
unless DATABASE_URL is set (bench/support.py). Prints its figures.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path

from support import ROOT, bench_database

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
PASSWORD = "Würfel-Becher-2026"


def _evening(sample: dict, date: str):
    import datetime

    from games.evenings.services import evening_create
    from league.club.services import member_login_set, season_get_or_create
    from tests.factories import UserFactory
    from tests.sample import sample_club

    club, people = sample_club(sample)
    season_get_or_create(club=club, year=2026)
    secretary = people[sample["evening"]["secretary"]]
    if secretary.user is None:
        member_login_set(person=secretary, user=UserFactory(username="bernd", password=PASSWORD))
    ev = sample["evening"]
    return evening_create(
        club=club,
        date=datetime.date.fromisoformat(date),
        secretary=secretary,
        present_members=[people[n] for n in ev["present_members"]],
        guests=[people[n] for n in ev["guests"]],
        absent_members=[people[n] for n in ev["absent_members"]],
    )


def _tap_game(page, game: dict) -> int:
    page.locator("fieldset.taps label.tap", has_text=game["loser"]).click()
    for thrower in game["schock_aus"]:
        page.locator(".tap-sa", has_text=thrower).click()
    page.click(".savebar button.primary")
    return 2 + len(game["schock_aus"])


# tests/browser/test_phone_rounds.py's game: row by row, the Vorleger first; his 642 is
# the worst throw of both rounds (a Schock-Aus in round 2), so he loses.
ROUNDS = [
    ["642", "665", "664", "663", "662", "661"],
    ["642", "111", "665", "664", "663", "662"],
]


def _tap_rounds(page) -> int:
    """Enter ROUNDS on the round-by-round page by taps on the throw pad; the taps."""
    taps = 0
    for i, throws in enumerate(ROUNDS):
        round_box = page.locator(f"fieldset.round[data-round='{i}']")
        for j, dice in enumerate(throws):
            round_box.locator(f".throw[data-row='{j}'] .dice-pad [data-dice='{dice}']").click()
            taps += 1
        if i < len(ROUNDS) - 1:
            page.click(".rounds-actions button[value=check]")
            page.wait_for_selector(f"fieldset.round[data-round='{i + 1}']")
            taps += 1
    page.click(".rounds-actions button[value=save]")
    return taps + 1


def _wait(check, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise RuntimeError("timed out")


def _log_in(page, base: str) -> None:
    page.goto(base + "/login/")
    page.fill("#id_username", "bernd")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)


def _enter_online(page, base: str, evening, games: list) -> tuple[list[int], list[float], float]:
    """The games tapped in on the evening page, each saved before the next: (taps per
    game, seconds per game, seconds in all)."""
    page.goto(f"{base}/abende/{evening.pk}/")
    taps, seconds = [], []
    started = time.perf_counter()
    for game in games:
        begin = time.perf_counter()
        taps.append(_tap_game(page, game))
        page.wait_for_selector(".msg-success")
        seconds.append(time.perf_counter() - begin)
    total = time.perf_counter() - started
    assert evening.games.count() == len(games)
    return taps, seconds, total


def _enter_offline(
    context, page, base: str, evening, games: list
) -> tuple[list[float], float, float]:
    """The games tapped in offline (queued), then sent when back online: (seconds to
    queue each, seconds to queue all, seconds until all are saved and listed)."""
    page.goto(f"{base}/abende/{evening.pk}/")
    context.set_offline(True)
    queued = []
    started = time.perf_counter()
    for index, game in enumerate(games, start=1):
        begin = time.perf_counter()
        _tap_game(page, game)
        _wait(lambda n=index: page.locator("[data-queued]").count() == n)
        queued.append(time.perf_counter() - begin)
    total = time.perf_counter() - started
    context.set_offline(False)
    started = time.perf_counter()
    page.evaluate("window.dispatchEvent(new Event('online'))")
    _wait(lambda: evening.games.count() == len(games))
    _wait(lambda: page.locator("table.games tbody tr").count() == len(games))
    return queued, total, time.perf_counter() - started


def _enter_rounds(page, base: str, evening) -> tuple[int, float]:
    """A game entered round by round: (taps, seconds from opening the page to the save)."""
    started = time.perf_counter()
    page.goto(f"{base}/abende/{evening.pk}/runden-eintragen/")
    taps = _tap_rounds(page)
    page.wait_for_url(lambda url: "/runden/" in url and "eintragen" not in url)
    seconds = time.perf_counter() - started
    assert evening.games.filter(entry_mode="rounds").count() == 1
    return taps, seconds


def run() -> None:
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.test.testcases import LiveServerThread
    from playwright.sync_api import sync_playwright

    sample = json.loads((ROOT / "tests/samples/evening-2026-10-09.json").read_text("utf-8"))
    games = sample["evening"]["games"]
    # The club and its logins are made with the first evening: before the login.
    online, offline, rounds = (_evening(sample, f"2026-10-{d}") for d in ("09", "16", "23"))
    server = LiveServerThread("localhost", StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    base = f"http://localhost:{server.port}"
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
            )
            context = browser.new_context(
                viewport={"width": 390, "height": 844},
                locale="de-DE",
                timezone_id="Europe/Berlin",
                service_workers="block",
            )
            page = context.new_page()
            _log_in(page, base)
            taps, seconds, online_total = _enter_online(page, base, online, games)
            queued, offline_total, sending = _enter_offline(context, page, base, offline, games)
            rounds_taps, rounds_seconds = _enter_rounds(page, base, rounds)
            browser.close()
    finally:
        server.terminate()
    print(f"bench_entry: the sample evening, {len(games)} games, chromium at 390 x 844")
    print(
        f"  taps: {sum(taps)} in all, {min(taps)} to {max(taps)} a game "
        f"(median {statistics.median(taps):g}): loser, each Schock-Aus, save"
    )
    print(
        f"  online: {online_total:.1f} s in all, a game median "
        f"{statistics.median(seconds):.2f} s (max {max(seconds):.2f} s): taps, post, page load"
    )
    print(
        f"  offline: {offline_total:.1f} s to queue all, a game median "
        f"{statistics.median(queued):.2f} s; sent when back online, listed in place: "
        f"{sending:.1f} s"
    )
    print(
        f"  round by round, 2 rounds of 6 players: {rounds_taps} taps, no keystroke, "
        f"{rounds_seconds:.1f} s from opening the page to the saved game"
    )


def main() -> None:
    if not CHROMIUM.exists():
        print(f"bench_entry: skipped, no chromium at {CHROMIUM}")
        return
    with bench_database():
        run()


if __name__ == "__main__":
    main()
