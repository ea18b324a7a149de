"""The admin, the secretary's fallback: every model is registered, and its list, search and
forms open for a staff user."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

#: Models the admin leaves out, and why.
NOT_IN_ADMIN = {
    # Derived (the club of a person's login, written with the login); registered, it
    # would ask the operator for a permission to delete it with every login deleted.
    "LoginClub",
}

MODELS = [
    m
    for m in apps.get_app_config("league").get_models()
    if not m.__name__.startswith("Historical") and m.__name__ not in NOT_IN_ADMIN
] + [
    m for m in apps.get_app_config("games").get_models() if not m.__name__.startswith("Historical")
]


@pytest.fixture
def every_record(evening, season, member, secretary):
    """One row of every model, written directly (the admin shows whatever is stored)."""
    import datetime
    from decimal import Decimal

    from games.evenings.models import SchockAus
    from games.rounds.models import Round, RoundThrow
    from league.ledger.models import Payment
    from league.reports.models import ReportBuild
    from league.runden.models import RundeGiven

    Payment.objects.create(
        club=season.club,
        season=season,
        member=member,
        amount=Decimal("3.00"),
        currency="EUR",
        paid_on=datetime.date(2026, 3, 7),
    )
    ReportBuild.objects.create(season=season)
    game = evening.games.get(number=1)
    round_ = Round.objects.create(game=game, number=1, vorleger=secretary, loser=member, deckel=3)
    RoundThrow.objects.create(
        round=round_, position=1, player=secretary, die1=1, die2=1, die3=3, attempts=1, natural=True
    )
    RundeGiven.objects.create(
        schock_aus=SchockAus.objects.get(game=game), given_on=datetime.date(2026, 3, 13)
    )
    from league.banking.models import BankStatementLine, ClubBankAccount, PaymentReminder

    ClubBankAccount.objects.create(
        club=season.club, holder="Schockclub", iban="DE89370400440532013000", bic="COBADEFFXXX"
    )
    BankStatementLine.objects.create(
        club=season.club,
        line_hash="0" * 64,
        booked_on=datetime.date(2026, 3, 8),
        name=member.name,
        reference="Kasse",
        amount=Decimal("3.00"),
        payment=Payment.objects.get(member=member),
    )
    PaymentReminder.objects.create(
        member=member, month=datetime.date(2026, 3, 1), amount=Decimal("3.00")
    )
    from django.utils import timezone

    from league.closing.models import SeasonSignOff

    SeasonSignOff.objects.create(
        season=season,
        auditor=member,
        signed_at=timezone.now(),
        fingerprint="0" * 64,
        data_version=season.data_version,
    )
    from league.club.models import IdempotencyKey

    IdempotencyKey.objects.create(
        user=secretary.user if secretary.user_id else UserFactory(username="retry"),
        club=season.club,
        key="8e03978e-40d5-43e8-bc93-6894a57f9324",
        fingerprint="0" * 64,
        status=201,
        created_at=timezone.now(),
    )
    from league.club.models import ClubSignup

    ClubSignup.objects.create(
        club_name="Kegelfreunde Nord", email="kasse@nord.example", created_at=timezone.now()
    )
    from games.evenings.models import Objection, PlannedEvening
    from league.banking.models import NotificationChoice, NotificationSent, PushSubscription
    from league.sharing.models import WallScreen

    WallScreen.objects.create(club=season.club, name="Tresen", token_hash="a" * 64)
    Objection.objects.create(
        evening=evening, game_number=1, raised_by=member, text="Das war Anna, nicht ich."
    )
    PlannedEvening.objects.create(club=season.club, date=datetime.date(2026, 4, 3))
    NotificationChoice.objects.create(member=member, kind="open_amount", push=False)
    PushSubscription.objects.create(
        member=member, endpoint="https://push.example/abc", p256dh="k", auth="a"
    )
    NotificationSent.objects.create(
        member=member, kind="open_amount", period=datetime.date(2026, 3, 2), channels="email"
    )
    return evening


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
def test_admin_change_form_opens(staff_client, every_record, model):
    obj = model.objects.first()
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[obj.pk])
    assert staff_client.get(url).status_code == 200


def test_admin_is_closed_to_members(member_client):
    response = member_client.get(reverse("admin:index"))
    assert response.status_code == 302


READ_ONLY = [
    "LedgerEntry",
    "ClubBankAccount",
    "BankStatementLine",
    "PaymentReminder",
    "SeasonSignOff",
    "IdempotencyKey",
]


@pytest.mark.parametrize("name", READ_ONLY)
def test_read_only_admins_neither_add_nor_change_nor_delete(staff_client, every_record, name):
    model = next(m for m in MODELS if m.__name__ == name)
    obj = model.objects.first()
    base = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    assert staff_client.get(reverse(f"{base}_add")).status_code == 403
    assert (
        staff_client.post(reverse(f"{base}_delete", args=[obj.pk]), {"post": "yes"}).status_code
        == 403
    )
    assert model.objects.filter(pk=obj.pk).exists()
    page = staff_client.get(reverse(f"{base}_change", args=[obj.pk])).content.decode()
    assert 'name="_save"' not in page
