"""Words: our own 403, 404 and 500 pages in German (with DEBUG off), the
API docs asking a visitor to log in, Statistik opening on the newest season with games."""

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.urls import reverse

from league.club.services import season_create

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=False)
def test_an_unknown_page_is_our_german_404(member_client, season):
    response = member_client.get("/gibt-es-nicht/")
    assert response.status_code == 404
    assert "Nicht gefunden" in response.content.decode()


@override_settings(DEBUG=False)
def test_a_member_on_a_secretary_page_gets_our_german_403(member_client, season):
    response = member_client.get(reverse("club_members"))
    assert response.status_code == 403
    assert "Nicht erlaubt" in response.content.decode()


@override_settings(DEBUG=False, ROOT_URLCONF="tests.pages.error_urls")
def test_a_bug_is_our_german_500_page(member):
    client = Client(raise_request_exception=False)
    client.force_login(member.user)
    response = client.get("/kaputt/")
    assert response.status_code == 500
    text = response.content.decode()
    assert "Etwas ist schiefgegangen" in text
    assert "RuntimeError" not in text


@pytest.mark.django_db(databases=[])
def test_the_500_page_renders_without_a_request_or_the_database():
    text = render_to_string("500.html")
    assert "Etwas ist schiefgegangen" in text


def test_the_api_docs_ask_a_visitor_to_log_in_in_german(client):
    response = client.get(reverse("swagger-ui"))
    assert response.status_code == 401
    text = response.content.decode()
    assert "Bitte melde dich zuerst an" in text
    assert f'href="{reverse("login")}?next=/api/docs/"' in text


def test_the_api_docs_open_for_a_member(member_client):
    response = member_client.get(reverse("swagger-ui"))
    assert response.status_code == 200
    assert "swagger" in response.content.decode().lower()


def test_statistik_opens_on_the_newest_season_with_games(member_client, evening, club):
    season_create(club=club, year=2027)
    response = member_client.get(reverse("schock_aus_stats"))
    assert response.context["stats"].season.year == 2026


def test_statistik_opens_on_the_named_season_even_when_empty(member_client, evening, club):
    season_create(club=club, year=2027)
    response = member_client.get(reverse("schock_aus_stats") + "?saison=2027")
    assert response.context["stats"].season.year == 2027


def test_an_attendance_conflict_names_the_person_and_the_game(secretary_client, evening, member):
    """Making the loser of game 1 absent is refused with her name and the game."""
    evening.refresh_from_db()
    form = {
        "date": "2026-03-06",
        "secretary": evening.secretary_id,
        "version": evening.version,
        "new_guests": "",
        "notes": "",
        "guests": [a.member_id for a in evening.attendances.filter(role="guest")],
    }
    for a in evening.attendances.exclude(role="guest"):
        form[f"role_{a.member_id}"] = "absent" if a.member_id == member.pk else a.role
    response = secretary_client.post(reverse("evening_edit", args=[evening.pk]), form)
    text = response.content.decode()
    assert "Anna Becker hat Spiel 1 dieses Abends gespielt" in text
    assert evening.attendances.get(member=member).role == "member"


DEVELOPER_WORDS = re.compile(
    r"\b(ID|IDs|Objekt|Object|Request|Token|Slug|null|None|Exception|Traceback|Queryset)\b"
)
MAIN_PAGES = [
    ("home", ()),
    ("season_standings", (2026,)),
    ("evening_list", ()),
    ("ledger_home", ()),
    ("runden_list", ()),
    ("schock_aus_stats", ()),
    ("season_rules", (2026,)),
    ("club_admin", ()),
    ("club_members", ()),
    ("club_logins", ()),
    ("club_seasons", ()),
    ("season_create", ()),
]


def _visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize(("name", "args"), MAIN_PAGES)
def test_the_secretarys_pages_use_no_developer_words(secretary_client, evening, name, args):
    response = secretary_client.get(reverse(name, args=args), follow=True)
    assert response.status_code == 200
    assert DEVELOPER_WORDS.findall(_visible_text(response.content.decode())) == []


def test_a_persons_page_and_statement_use_no_developer_words(secretary_client, evening, member):
    for url in (
        reverse("club_member", args=[member.pk]),
        reverse("ledger_statement", args=[member.pk]),
        reverse("member_dues", args=[2026, member.pk]),
        reverse("evening_detail", args=[evening.pk]),
    ):
        text = _visible_text(secretary_client.get(url).content.decode())
        assert DEVELOPER_WORDS.findall(text) == [], url
