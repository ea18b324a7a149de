"""Logins are given by invitation only (/verein/zugaenge/): a secretary never sets nor
learns a password that works. An invitation for a login that has a password is refused
(the person resets a forgotten one by e-mail), a link never replaces a password, the
holder's own password is recorded as theirs, bad links are throttled like the login, and
a secretary unlocks a login locked after failed logins."""

import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from knox.models import AuthToken

from league.club.accounts.services import api_token_create

pytestmark = pytest.mark.django_db

NEW = "Kneipe-am-Eck-7"


def _invite_page(secretary_client, person) -> str:
    return secretary_client.post(reverse("club_login_invite", args=[person.pk]), follow=True)


def _link_of(page: str) -> str:
    match = re.search(r'value="http://testserver(/einladung/[^"]+)"', page)
    assert match, page
    return match.group(1)


def test_an_invitation_for_a_login_with_a_password_is_refused_in_german(secretary_client, member):
    page = _invite_page(secretary_client, member).content.decode()
    assert "/einladung/" not in page
    assert "Anna Becker hat schon ein Passwort" in page
    assert "Passwort vergessen?" in page


def test_a_valid_link_for_a_login_with_a_password_sets_nothing(client, member):
    uidb64 = urlsafe_base64_encode(force_bytes(member.user.pk))
    link = reverse(
        "login_invitation_accept",
        args=[uidb64, default_token_generator.make_token(member.user)],
    )
    response = client.post(link, {"new_password1": NEW, "new_password2": NEW})
    assert response.status_code == 404
    member.user.refresh_from_db()
    assert member.user.check_password("geheim-123")
    assert "_auth_user_id" not in client.session


def test_the_invitation_is_also_a_qr_code(secretary_client, other_member):
    response = secretary_client.post(
        reverse("club_login_new", args=[other_member.pk]), {"username": "frank"}
    )
    page = response.content.decode()
    assert 'src="data:image/png;base64,' in page
    assert "QR-Code des Einladungslinks" in page


def test_a_password_set_by_invitation_is_the_holders_and_revokes_the_tokens(
    secretary_client, other_member, client
):
    response = secretary_client.post(
        reverse("club_login_new", args=[other_member.pk]), {"username": "frank"}
    )
    link = _link_of(response.content.decode())
    api_token_create(user=User.objects.get(username="frank"))
    client.post(link, {"new_password1": NEW, "new_password2": NEW})
    other_member.refresh_from_db()
    assert other_member.password_set_by_holder
    assert not AuthToken.objects.filter(user=other_member.user).exists()
    assert other_member.history.latest().history_change_reason == "password_set"


def test_an_invitation_is_in_the_persons_audit_trail(secretary_client, other_member):
    secretary_client.post(reverse("club_login_new", args=[other_member.pk]), {"username": "frank"})
    record = other_member.history.latest()
    assert record.history_change_reason == "login_invited"
    assert record.history_user.username == "bernd"


def test_bad_invitation_links_are_throttled_like_the_login(secretary_client, other_member, client):
    response = secretary_client.post(
        reverse("club_login_new", args=[other_member.pk]), {"username": "frank"}
    )
    good = _link_of(response.content.decode())
    guesser = Client(HTTP_ACCEPT_LANGUAGE="de", REMOTE_ADDR="10.0.0.9")
    bad = good.rstrip("/").rsplit("/", 1)[0] + "/falsch/"
    for _attempt in range(4):
        assert guesser.get(bad).status_code == 404
    assert guesser.get(bad).status_code == 429
    refused = guesser.get(good)
    assert refused.status_code == 429
    assert "Zu viele fehlgeschlagene Anmeldungen" in refused.content.decode()
    assert Client(REMOTE_ADDR="10.0.0.10").get(good).status_code == 200


def _lock_out(username: str, password: str = "falsch") -> None:
    for _attempt in range(5):
        Client(REMOTE_ADDR="10.0.0.1").post("/login/", {"username": username, "password": password})


def test_the_logins_page_shows_a_login_locked_after_failed_logins_with_an_unlock_button(
    secretary_client, member
):
    _lock_out("anna")
    page = secretary_client.get(reverse("club_logins")).content.decode()
    card = page[page.index("Anna Becker") :]
    card = card[: card.index("</li>")]
    assert "Nach Fehlversuchen gesperrt" in card
    assert 'value="unlock"' in card


def test_the_secretary_unlocks_a_login_locked_after_failed_logins_and_it_is_audited(
    secretary_client, member
):
    _lock_out("anna")
    secretary_client.post(
        reverse("club_member_action", args=[member.pk]), {"action": "unlock", "back": "logins"}
    )
    assert not AccessAttempt.objects.filter(username="anna").exists()
    response = Client(REMOTE_ADDR="10.0.0.1").post(
        "/login/", {"username": "anna", "password": "geheim-123"}
    )
    assert response.status_code == 302
    record = member.history.latest()
    assert (record.history_change_reason, record.history_user.username) == (
        "login_unlocked",
        "bernd",
    )
