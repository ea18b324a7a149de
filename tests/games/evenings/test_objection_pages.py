"""The pages of a provisional evening: the evening sheet marks it "vorläufig" with a
button to object, the objections page raises an objection and the secretary answers it
and declares the evening final; the statement marks the evening's lines."""

import datetime

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from games.evenings.models import Objection
from tests.api.conftest import cast  # noqa: F401 (the API's cast, a fixture)

pytestmark = pytest.mark.django_db


def client_of(member) -> Client:
    client = Client()
    client.force_login(member.user)
    return client


def test_the_evening_sheet_marks_a_provisional_evening_and_offers_an_objection(cast):  # noqa: F811
    page = client_of(cast.member).get(f"/abende/{cast.evening.pk}/").content.decode()
    assert "vorläufig" in page
    assert f"/abende/{cast.evening.pk}/einsprueche/" in page
    assert "Einspruch erheben" in page


def test_the_evening_sheet_is_not_provisional_after_its_objection_time(cast):  # noqa: F811
    client = client_of(cast.member)
    first = client.get(f"/abende/{cast.evening.pk}/")
    with time_machine.travel(timezone.now() + datetime.timedelta(hours=49), tick=False):
        page = client.get(f"/abende/{cast.evening.pk}/", HTTP_IF_NONE_MATCH=first.get("ETag", ""))
    assert page.status_code == 200
    assert "vorläufig" not in page.content.decode()
    assert "Der Abend ist endgültig." in page.content.decode()


def test_a_member_objects_on_the_page_and_the_secretary_dismisses_it(cast):  # noqa: F811
    url = f"/abende/{cast.evening.pk}/einsprueche/"
    sent = client_of(cast.member).post(
        url, {"game": cast.games[0].pk, "text": "Falscher Verlierer"}
    )
    assert sent.status_code == 302
    objection = Objection.objects.get()
    assert objection.raised_by == cast.member
    secretary = client_of(cast.secretary)
    assert "Falscher Verlierer" in secretary.get(url).content.decode()
    secretary.post(
        f"{url}{objection.pk}/antwort/", {"outcome": "dismissed", "reason": "Zettel stimmt"}
    )
    objection.refresh_from_db()
    assert (objection.status, objection.answer) == ("dismissed", "Zettel stimmt")
    secretary.post(f"/abende/{cast.evening.pk}/abschliessen/")
    cast.evening.refresh_from_db()
    assert cast.evening.finalised_at is not None


def test_a_member_cannot_answer_an_objection_on_the_page(cast):  # noqa: F811
    url = f"/abende/{cast.evening.pk}/einsprueche/"
    client_of(cast.member).post(url, {"game": cast.games[0].pk, "text": "x"})
    objection = Objection.objects.get()
    answer = client_of(cast.member).post(
        f"{url}{objection.pk}/antwort/", {"outcome": "dismissed", "reason": "x"}
    )
    assert answer.status_code == 403
    objection.refresh_from_db()
    assert objection.status == "open"


def test_the_statement_page_marks_the_lines_of_a_provisional_evening(cast):  # noqa: F811
    client = client_of(cast.member)
    url = f"/kasse/konto/{cast.member.pk}/?saison=2026"
    assert "vorläufig" in client.get(url).content.decode()
    with time_machine.travel(timezone.now() + datetime.timedelta(hours=49), tick=False):
        assert "vorläufig" not in client.get(url).content.decode()
