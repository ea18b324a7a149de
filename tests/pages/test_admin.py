"""The admin, the secretary's fallback: every model is registered, and its list, search and
forms open for a staff user."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MODELS = [
    m for m in apps.get_app_config("league").get_models() if not m.__name__.startswith("Historical")
] + [
    m for m in apps.get_app_config("games").get_models() if not m.__name__.startswith("Historical")
]


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(username="admin", is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_model_is_in_the_admin(model):
    assert admin.site.is_registered(model)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_admin_list_with_search_opens(staff_client, evening, model):
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    assert staff_client.get(url, {"q": "a"}).status_code == 200


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_admin_change_form_opens(staff_client, evening, model):
    obj = model.objects.first()
    if obj is None:
        pytest.skip(f"the cast has no {model.__name__}")
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[obj.pk])
    assert staff_client.get(url).status_code == 200


def test_admin_is_closed_to_members(member_client):
    response = member_client.get(reverse("admin:index"))
    assert response.status_code == 302
