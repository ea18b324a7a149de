"""The secretary enters the sample evening on a phone (390 px) and the books match the
sample's figures; the entry keeps "Speichern" in reach, says when the
evening is complete, and nothing on the way scrolls sideways."""

import re

from django.urls import reverse

from games.evenings.models import Evening
from tests.browser.conftest import fits_the_phone


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else (f"\u2212{-points}" if points < 0 else "0")


def _create_evening(page, evening: dict) -> None:
    page.click("nav.mainnav >> text=Neuer Abend")
    assert fits_the_phone(page)
    page.fill("input[name=date]", evening["date"])
    for name in evening["absent_members"]:
        page.locator(".roleline", has_text=name).locator(".seg-absent").click()
    for name in evening["guests"]:
        page.locator("label.tap", has_text=name).click()
    page.click("form.eveningform button[type=submit]")
    page.wait_for_url(re.compile(r"/abende/\d+/"))


def _enter_game(page, game: dict) -> None:
    assert page.input_value("#id_number") == str(game["number"])
    vorleger = page.locator("#id_vorleger option:checked").inner_text().strip()
    assert vorleger == game["vorleger"]
    page.locator("fieldset.taps label.tap", has_text=game["loser"]).click()
    for thrower in game["schock_aus"]:
        page.locator(".tap-sa", has_text=thrower).click()
    save = page.locator(".savebar button.primary")
    assert save.is_visible() and save.bounding_box()["y"] + 54 <= 844  # in reach, on screen
    save.click()
    page.wait_for_selector(".msg-success")
    assert f"Spiel {game['number']} gespeichert" in page.inner_text(".msg-success")


def test_secretary_enters_the_sample_evening_and_the_books_match(
    page, live_server, club_cast, log_in, sample_evening
):
    evening, expected = sample_evening["evening"], sample_evening["expected"]
    log_in(page, "bernd")
    _create_evening(page, evening)
    for game in evening["games"]:
        _enter_game(page, game)
    assert "Abend vollständig: 25 von 25 Spielen" in page.inner_text("#vollstaendig")
    assert fits_the_phone(page)
    rows = page.locator("table.people tbody tr")
    sheet = {}
    for i in range(rows.count()):
        cells = [c.strip() for c in rows.nth(i).locator("td").all_inner_texts()]
        sheet[re.sub(r"\s+(abwesend|Gast)$", "", cells[0])] = cells[1:6]
    for name, person in expected["per_person"].items():
        points = "–" if person.get("guest") else _signed(person["points"])
        marks, _money, shown_points, lost, schock_aus = sheet[name]
        want = (str(person["marks"]), points, str(person["games_lost"]), str(person["schock_aus"]))
        assert (marks, shown_points, lost, schock_aus) == want, name
    totals = [t.strip() for t in page.locator("table.people tfoot th").all_inner_texts()]
    assert totals[1] == str(expected["marks_total"])
    assert totals[2].replace("\u00a0", " ") == "15,50 €"
    stored = Evening.objects.get()
    assert stored.games.count() == expected["games_entered"]

    page.click("nav.mainnav >> text=Start")
    page.goto(live_server.url + reverse("season_standings", args=[2026]))
    assert fits_the_phone(page)
    ranked = []
    for row in page.locator("table.standings tbody tr").all():
        cells = [c.strip() for c in row.locator("td, th").all_inner_texts()]
        if cells and cells[0].endswith("."):
            points = int(cells[2].replace("\u2212", "-").replace("+", ""))
            ranked.append({"place": int(cells[0][:-1]), "member": cells[1], "points": points})
    assert ranked == expected["standings"]


def test_a_typo_in_the_game_number_is_asked_about(
    page, live_server, club_cast, log_in, sample_evening
):
    log_in(page, "bernd")
    _create_evening(page, sample_evening["evening"])
    page.fill("#id_number", "99")
    page.locator("fieldset.taps label.tap", has_text="Anna Becker").click()
    page.click(".savebar button.primary")
    assert "Spiel 99? Das nächste Spiel dieses Abends ist Spiel 1" in page.inner_text("main")
    assert not Evening.objects.get().games.exists()
    page.click("text=Ja, als Spiel 99 speichern")
    page.wait_for_selector(".msg-success")
    assert list(Evening.objects.get().games.values_list("number", flat=True)) == [99]
