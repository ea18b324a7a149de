"""The members' pages: the own Marks and Runden of a season, the list of evenings."""

import pytest
from django.urls import reverse

from league.club.services import member_login_set
from tests.pages.html import page_text
from tests.sample import enter_sample_evening_copied

pytestmark = pytest.mark.django_db


@pytest.fixture
def sample_member_client(client, sample_evening):
    """The sample evening (through the services) and Erik Lange logged in."""
    from tests.factories import UserFactory

    evening, people = enter_sample_evening_copied(sample_evening)
    erik = people["Erik Lange"]
    member_login_set(person=erik, user=UserFactory(username="erik"))
    client.force_login(erik.user)
    return client, evening, people


def test_my_marks_show_the_evenings_marks_and_money(sample_member_client, sample_evening):
    client, evening, people = sample_member_client
    response = client.get(reverse("member_dues", args=[2026, people["Erik Lange"].pk]))
    expected = sample_evening["expected"]["per_person"]["Erik Lange"]
    assert response.context["marks_total"] == expected["marks"]
    assert "2,50\u00a0€" in response.content.decode()


def test_my_marks_list_the_runden_owed_with_reason(sample_member_client):
    client, evening, people = sample_member_client
    response = client.get(reverse("member_dues", args=[2026, people["Erik Lange"].pk]))
    assert [(r["ordinal"], r["reason"]) for r in response.context["runden"]] == [(4, "last")]
    assert "09.10.2026 – letzter Schock-Aus (Nr. 4)" in page_text(response)


def test_absent_member_sees_six_marks(client, sample_evening):
    from tests.factories import UserFactory

    evening, people = enter_sample_evening_copied(sample_evening)
    frank = people["Frank Roth"]
    member_login_set(person=frank, user=UserFactory(username="frank"))
    client.force_login(frank.user)
    response = client.get(reverse("member_dues", args=[2026, frank.pk]))
    assert [(line.role, line.marks) for line in response.context["lines"]] == [("absent", 6)]


def test_evening_list_links_every_evening_of_the_season(sample_member_client):
    client, evening, _ = sample_member_client
    response = client.get(reverse("evening_list"))
    assert reverse("evening_detail", args=[evening.pk]) in response.content.decode()
    assert "Fr, 9. Oktober 2026" in response.content.decode()
