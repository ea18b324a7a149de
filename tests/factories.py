"""factory_boy factories and the small cast of STYLE.md."""

import datetime
from decimal import Decimal

import factory
from django.contrib.auth import get_user_model
from django.db import transaction

from league.club.models import Club, Member, Season
from league.club.services import login_clubs_set


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "geheim-123")

    @factory.post_generation
    def _save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Schockclub {n}")
    rule_preset = "club"


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season
        django_get_or_create = ("club", "year")

    club = factory.SubFactory(ClubFactory)
    year = 2026
    starts_on = factory.LazyAttribute(lambda o: datetime.date(o.year, 1, 1))
    ends_on = factory.LazyAttribute(lambda o: datetime.date(o.year, 12, 31))
    rule_preset = "club"
    mark_value = factory.LazyAttribute(
        lambda o: Decimal("0.50") if o.year >= 2002 else Decimal("1.00")
    )
    currency = factory.LazyAttribute(lambda o: "EUR" if o.year >= 2002 else "DM")


class MemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Member
        django_get_or_create = ("club", "name")

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Person {n}")
    kind = Member.Kind.MEMBER
    # The cast's people chose their own passwords (as through the invitation), so a member
    # with a login may sign a season off as Kassenprüfer.
    password_set_by_holder = factory.LazyAttribute(
        lambda person: getattr(person, "user", None) is not None
    )

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        """The person as Django's get-or-create makes it, and its login's club recorded as
        every writer of a login records it (league.club.services.login_clubs_set): on
        PostgreSQL the person's login refers to that row (league migration 0030), checked
        when the one transaction of both commits (also outside a test's transaction)."""
        with transaction.atomic():
            person = super()._create(model_class, *args, **kwargs)
            login_clubs_set(people=[person])
        return person
