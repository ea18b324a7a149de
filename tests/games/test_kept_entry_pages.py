"""The secretary's entry pages at the table: the game entry (`/abende/<pk>/spiele/`)
and the round entry (`/abende/<pk>/runden-eintragen/`) keep their GET's form per books
version and evening, and a game recorded through the services shows on the next read; the
evening form (`/abende/neu/`, `/abende/<pk>/bearbeiten/`) writes its attendance radios,
guest checkboxes and secretary select itself, with the HTML Django's widgets write.

Outside a transaction (`transaction=True`): inside one nothing is kept
(league/club/caching.py).
"""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.evenings.forms import EveningForm
from games.evenings.models import Attendance
from games.evenings.services import game_record, game_update
from league.club.models import Member
from league.club.services import member_login_set
from tests.factories import UserFactory
from tests.games.rounds.test_services import _evening_copied

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def evening(sample_evening):
    """The sample evening of 25 games, all entered short; Bernd (the secretary) has a login."""
    evening, people = _evening_copied(sample_evening, rounds_games=())
    member_login_set(person=people["Bernd Krause"], user=UserFactory(username="bernd"))
    return evening, people


def _secretary(people) -> Client:
    client = Client()
    client.force_login(people["Bernd Krause"].user)
    client.get("/abende/")  # the session's CSRF cookie
    return client


def _queries(client: Client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries), response.content.decode()


def _next_number(html: str) -> int:
    return int(
        re.search(r'<input type="number" name="number" id="id_number"[^>]*value="(\d+)"', html)[1]
    )


def _without_csrf(html: str) -> str:
    return re.sub(r'(name="csrfmiddlewaretoken" value=)"[^"]*"', r"\1", html)


# --- the game entry ---------------------------------------------------------------------------


def test_a_repeated_game_entry_is_kept_and_a_recorded_game_shows_at_once(evening):
    evening_row, people = evening
    client = _secretary(people)
    url = f"/abende/{evening_row.pk}/spiele/"
    cold, first = _queries(client, url)
    warm, second = _queries(client, url)
    assert warm < cold
    assert _without_csrf(second) == _without_csrf(first)
    assert _next_number(first) == 26

    game_record(evening=evening_row, loser=people["Anna Becker"])

    after = client.get(url).content.decode()
    assert _next_number(after) == 27
    assert "csrfmiddlewaretoken" in after and 'name="loser"' in after


def test_a_repeated_game_entry_with_its_etag_is_not_modified_until_a_game_is_recorded(evening):
    evening_row, people = evening
    client = _secretary(people)
    url = f"/abende/{evening_row.pk}/spiele/"
    first = client.get(url)
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    game_record(evening=evening_row, loser=people["Anna Becker"])
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 200


def test_a_game_entry_sent_back_with_errors_is_rendered_not_kept(evening):
    evening_row, people = evening
    client = _secretary(people)
    url = f"/abende/{evening_row.pk}/spiele/"
    client.get(url)
    refused = client.post(url, {"number": "26", "loser": ""}).content.decode()
    assert "Bitte wählen, wer das Spiel verloren hat." in refused
    again = client.get(url).content.decode()
    assert 'class="error"' not in again


def test_a_repeated_game_correction_is_kept_and_a_change_of_the_game_shows_at_once(evening):
    evening_row, people = evening
    client = _secretary(people)
    game = evening_row.games.get(number=25)
    url = f"/abende/{evening_row.pk}/spiele/{game.pk}/"
    cold, first = _queries(client, url)
    warm, second = _queries(client, url)
    assert warm < cold
    assert _without_csrf(second) == _without_csrf(first)
    loser = r'<input type="radio" name="loser" value="(\d+)" required checked>'
    assert re.search(loser, first)[1] == str(game.loser_id)
    other = (
        people["Anna Becker"]
        if game.loser_id != people["Anna Becker"].pk
        else people["Bernd Krause"]
    )

    game_update(game=game, number=25, loser=other, vorleger=game.vorleger, schock_aus_throwers=[])

    after = client.get(url).content.decode()
    assert re.search(loser, after)[1] == str(other.pk)
    game.refresh_from_db()
    assert f'name="version" value="{game.version}"' in after
    refused = client.post(url, {"number": "", "loser": str(other.pk)}).content.decode()
    assert 'class="error"' in refused
    assert 'class="error"' not in client.get(url).content.decode()


# --- the round entry --------------------------------------------------------------------------


def test_a_repeated_round_entry_is_kept_and_a_recorded_game_shows_at_once(evening):
    evening_row, people = evening
    client = _secretary(people)
    url = f"/abende/{evening_row.pk}/runden-eintragen/"
    cold, first = _queries(client, url)
    warm, second = _queries(client, url)
    assert warm < cold
    assert _without_csrf(second) == _without_csrf(first)
    number = r'<input type="number" id="id_number" name="number" min="1" value="(\d+)"'
    assert re.search(number, first)[1] == "26"

    game_record(evening=evening_row, loser=people["Anna Becker"])

    after = client.get(url).content.decode()
    assert re.search(number, after)[1] == "27"
    assert (
        f'name="version" value="{evening_row.__class__.objects.get(pk=evening_row.pk).version}"'
        in after
    )


def test_another_clubs_evening_is_not_found_on_the_entry_pages(evening, sample_evening):
    from tests.factories import ClubFactory, MemberFactory

    evening_row, people = evening
    client = _secretary(people)
    for url in (f"/abende/{evening_row.pk}/spiele/", f"/abende/{evening_row.pk}/runden-eintragen/"):
        client.get(url)  # kept for Bernd's club
    stranger = MemberFactory(club=ClubFactory(), is_secretary=True, user=UserFactory())
    other = Client()
    other.force_login(stranger.user)
    other.get("/abende/")
    for url in (f"/abende/{evening_row.pk}/spiele/", f"/abende/{evening_row.pk}/runden-eintragen/"):
        assert other.get(url).status_code == 404


# --- the evening form's choices ---------------------------------------------------------------


def _django_segs(form: EveningForm) -> list[str]:
    """The attendance radios as the page wrote them from the radio widget's choices."""
    return [
        "".join(
            f'<label class="segbtn seg-{c.data["value"]}"><input type="radio"'
            f' name="{field.html_name}" value="{c.data["value"]}"'
            f"{' checked' if c.data['selected'] else ''}>"
            f"<span>{c.choice_label}</span></label>"
            for c in field
        )
        for field in form.role_fields()
    ]


def _django_guests(form: EveningForm) -> str:
    from django.utils.html import escape

    return "".join(
        f'<label class="tap small"><input type="checkbox" name="guests" value="{c.data["value"]}"'
        f"{' checked' if c.data['selected'] else ''}><span>{escape(c.choice_label)}</span></label>"
        for c in form["guests"]
    )


@pytest.mark.parametrize("bound", [False, True], ids=["unbound", "posted"])
def test_the_evening_forms_radios_and_boxes_are_the_widgets_html(evening, bound):
    evening_row, people = evening
    guest = Attendance.objects.filter(evening=evening_row, role=Attendance.Role.GUEST).first()
    assert guest is not None  # the sample evening has guests
    guest_person = guest.member
    guest_person.name = "Gast <Fritz> & Co"
    guest_person.save()
    data = None
    if bound:
        members = [p for p in people.values() if p.kind == p.Kind.MEMBER]
        data = {
            "date": "2026-03-06",
            "secretary": str(people["Bernd Krause"].pk),
            f"role_{members[0].pk}": "absent",
            f"role_{members[1].pk}": "nonsense",
            "guests": [str(guest_person.pk)],
        }
    form = EveningForm(data, club=evening_row.club, evening=evening_row)
    if bound:
        form.is_valid()
    lines = form.role_lines()
    assert [str(line["seg"]) for line in lines] == _django_segs(form)
    assert [list(line["errors"]) for line in lines] == [list(f.errors) for f in form.role_fields()]
    # An unbound form's querysets are not built (nothing to check): the widget's choices
    # for the comparison are the club's guests.
    guests_field = form.fields["guests"]
    guests_field.queryset = Member.objects.filter(club=evening_row.club, kind=Member.Kind.GUEST)
    assert str(form.guest_boxes()) == _django_guests(form)
    club_people = Member.objects.filter(club=evening_row.club)
    assert form.guest_people == list(club_people.filter(kind=Member.Kind.GUEST))
    # The secretary select lists the club's people in name order as the queryset does.
    queryset_choices = [(str(p.pk), p.name) for p in club_people]
    shown = re.findall(r'<option value="(\d+)"[^>]*>([^<]*)</option>', str(form["secretary"]))
    assert [
        (v, n.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")) for v, n in shown
    ] == queryset_choices


def test_the_evening_form_pages_make_no_query_per_person(evening):
    from tests.factories import MemberFactory

    evening_row, people = evening
    client = _secretary(people)
    urls = ("/abende/neu/", f"/abende/{evening_row.pk}/bearbeiten/")
    before = {}
    for url in urls:
        client.get(url)
        before[url] = _queries(client, url)[0]
    for n in range(5):
        MemberFactory(club=evening_row.club, name=f"Neu {n}")
        MemberFactory(club=evening_row.club, name=f"Gast {n}", kind="guest")
    for url in urls:
        client.get(url)
        count, html = _queries(client, url)
        assert count == before[url], url
        assert 'name="guests" value=' in html and "Neu 4" in html and "Gast 4" in html
