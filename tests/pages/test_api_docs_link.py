"""Every page of a logged-in person links to the API documentation in its footer; the
login page (anonymous) does not (the docs need a login)."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_logged_in_page_links_to_the_api_docs(member_client, season):
    html = member_client.get(reverse("home")).content.decode()
    assert (
        f'<footer class="site-footer"><a href="{reverse("swagger-ui")}">API-Dokumentation</a>'
        in html
    )


def test_the_login_page_does_not_link_to_the_api_docs(client):
    html = client.get(reverse("login")).content.decode()
    assert reverse("swagger-ui") not in html
