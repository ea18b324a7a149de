"""The club's logins in the API (league/club/accounts/api.py), for its secretary only and
under the rules of the page /verein/zugaenge/: a login is given by invitation (a link,
never a password), an invitation for a login with a password is refused, the last
secretary's login is never locked, unlocking lifts a lockout after failed logins; each
change is in the person's audit trail."""

import pytest
from axes.models import AccessAttempt
from django.test import Client
from knox.models import AuthToken

from league.club.accounts.services import api_token_create


def _url(member_id: int, action: str = "") -> str:
    return f"/api/v1/logins/{member_id}/{action}/" if action else "/api/v1/logins/"


@pytest.mark.parametrize("role", ["member", "nobody"])
@pytest.mark.parametrize("action", ["invite", "lock", "unlock"])
def test_only_the_secretary_gives_locks_and_unlocks_logins(api, cast, role, action):
    answer = api(role).post(_url(cast.carla.pk, action), {"username": "carla"}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (403, "secretary_required")
    cast.carla.refresh_from_db()
    assert cast.carla.user_id is None


def test_another_clubs_secretary_finds_no_such_person(api, cast):
    outsider = api("outsider")
    olga = cast.other_club.members.get(name="Olga Fremd")
    refused = outsider.post(_url(cast.carla.pk, "invite"), {"username": "c"}, format="json")
    invited = outsider.post(_url(olga.pk, "invite"), {"username": "olga"}, format="json")
    assert (refused.status_code, invited.status_code) == (404, 201)


def test_the_secretary_invites_a_person_without_a_login(api, cast):
    answer = api("secretary").post(
        _url(cast.carla.pk, "invite"), {"username": "carla"}, format="json"
    )
    body = answer.json()
    assert answer.status_code == 201
    assert body["username"] == "carla" and body["invitation_open"]
    assert "/einladung/" in body["invitation"]
    cast.carla.refresh_from_db()
    assert not cast.carla.user.has_usable_password()
    record = cast.carla.history.latest()
    assert (record.history_change_reason, record.history_user.username) == (
        "login_invited",
        "bernd",
    )


def test_an_invitation_for_a_login_with_a_password_is_refused(api, cast):
    answer = api("secretary").post(_url(cast.member.pk, "invite"), {}, format="json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "login_has_password"
    assert "Passwort vergessen" in answer.json()["message"]


def test_the_secretary_locks_a_login_and_its_tokens_go(api, cast):
    api_token_create(user=cast.users["member"])
    answer = api("secretary").post(_url(cast.member.pk, "lock"))
    assert answer.status_code == 200 and answer.json()["locked"]
    assert not AuthToken.objects.filter(user=cast.users["member"]).exists()
    assert cast.member.history.latest().history_change_reason == "login_locked"


def test_the_last_secretarys_login_is_not_locked(api, cast):
    # Only the lone secretary could ask: no login locks itself out (the service refuses
    # the last secretary's lock for anyone else too: tests/league/club/test_last_secretary.py)
    answer = api("secretary").post(_url(cast.secretary.pk, "lock"))
    assert (answer.status_code, answer.json()["code"]) == (409, "own_login")
    cast.users["secretary"].refresh_from_db()
    assert cast.users["secretary"].is_active


def test_unlocking_lifts_a_lockout_after_failed_logins(api, cast):
    for _attempt in range(5):
        Client(REMOTE_ADDR="10.0.0.1").post("/login/", {"username": "anna", "password": "x"})
    listed = {row["username"]: row for row in api("secretary").get(_url(0)).json()}
    assert listed["anna"]["locked_out"]
    answer = api("secretary").post(_url(cast.member.pk, "unlock"))
    assert answer.status_code == 200 and not answer.json()["locked_out"]
    assert not AccessAttempt.objects.filter(username="anna").exists()
    assert cast.member.history.latest().history_change_reason == "login_unlocked"


def test_the_logins_endpoints_are_in_the_schema(api):
    schema = api("member").get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = schema.json()["paths"]
    for action in ("invite", "lock", "unlock"):
        post = paths[f"/api/v1/logins/{{member_id}}/{action}/"]["post"]
        assert "secretary" in post["description"]
    assert "409" in paths["/api/v1/logins/{member_id}/invite/"]["post"]["responses"]
    assert "get" in paths["/api/v1/logins/"]
