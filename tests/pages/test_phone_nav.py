"""The phone navigation: a bottom bar with the role's main places and a
"Mehr" menu (<details>) with the rest; the installable app's manifest and service worker."""

import json
import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _nav(response) -> tuple[list[str], list[str]]:
    """The bottom bar's link texts and the hrefs under "Mehr"."""
    html = response.content.decode()
    nav = html[html.index('<nav class="mainnav"') : html.index("</nav>")]
    bar, more = nav.split('<details class="more">')
    texts = [re.sub(r"<[^>]+>", "", t).strip() for t in re.findall(r"<a [^>]*>(.*?)</a>", bar)]
    return texts, re.findall(r'<a href="([^"]+)"', more)


def test_member_bar_has_four_places_and_more_holds_the_rest(member_client, season):
    bar, more = _nav(member_client.get(reverse("home")))
    assert bar == ["Start", "Abende", "Meine Marken", "Kasse"]
    for name in ("runden_list", "schock_aus_stats", "current_rules", "odds"):
        assert reverse(name) in more
    assert reverse("club_book_upload") not in more


def test_secretary_bar_offers_new_evening_and_more_holds_the_club_pages(secretary_client, season):
    bar, more = _nav(secretary_client.get(reverse("home")))
    assert bar == ["Start", "Abende", "Neuer Abend", "Kasse"]
    for name in ("my_dues", "club_book_upload", "audit_index", "club_admin", "club_members"):
        assert reverse(name) in more


def test_pages_load_the_app_script_and_name_the_manifest(member_client, season):
    html = member_client.get(reverse("home")).content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in html
    assert "js/app.js" in html
    assert "<script>" not in html  # no inline script: the CSP forbids it


def test_manifest_names_the_app_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["display"] == "standalone" and data["scope"] == "/"
    assert {i["sizes"] for i in data["icons"]} == {"192x192", "512x512"}


def test_service_worker_is_served_from_the_root_with_its_scope(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Content-Type"].startswith("text/javascript")
    assert b"is-offline" in response.content
