"""django-filter sets of the league API lists."""

import django_filters

from league.club.fields import DateFormField, StrictIntegerFormField
from league.club.models import RULE_PRESET_CHOICES, Currency, Member, Season

BIGINT_MAX = 2**63 - 1


class IntFilter(django_filters.NumberFilter):
    """A whole number within the database's range in ASCII digits (NumberFilter takes
    decimals and floats, an id like 8e20 would overflow the database's integer, and
    Django's IntegerField reads "1_000" and "١٢"; league/club/fields.py)."""

    field_class = StrictIntegerFormField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", -BIGINT_MAX)
        kwargs.setdefault("max_value", BIGINT_MAX)
        super().__init__(*args, **kwargs)


class DateFilter(django_filters.DateFilter):
    """A date in ISO `YYYY-MM-DD` with ASCII digits, a year from 1900 to next year
    (league/club/fields.py `parse_iso_date`): django-filter's DateFilter reads Django's
    input formats, whose year may be 0182 or written in other scripts' digits."""

    field_class = DateFormField


class SeasonFilter(django_filters.FilterSet):
    """`?year=2026`, `?year_min=1979&year_max=2001`, `?currency=DM`, `?rule_preset=club`."""

    year = IntFilter(field_name="year")
    year_min = IntFilter(field_name="year", lookup_expr="gte")
    year_max = IntFilter(field_name="year", lookup_expr="lte")
    currency = django_filters.ChoiceFilter(choices=Currency.choices)
    rule_preset = django_filters.ChoiceFilter(choices=RULE_PRESET_CHOICES)

    class Meta:
        model = Season
        fields = ["year", "year_min", "year_max", "currency", "rule_preset"]


class MemberFilter(django_filters.FilterSet):
    """`?kind=guest`, `?active=true`, `?is_secretary=true`, `?name=kra` (contains)."""

    name = django_filters.CharFilter(field_name="name", lookup_expr="icontains")
    kind = django_filters.ChoiceFilter(choices=Member.Kind.choices)
    active = django_filters.BooleanFilter()
    is_secretary = django_filters.BooleanFilter()

    class Meta:
        model = Member
        fields = ["name", "kind", "active", "is_secretary"]
