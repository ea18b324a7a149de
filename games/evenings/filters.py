"""django-filter sets of the evening and game lists of the REST API (games/evenings/api.py)."""

import django_filters

from games.evenings.models import Evening, Game
from league.club.filters import DateFilter, IntFilter


class EveningFilter(django_filters.FilterSet):
    """`?season=<id>`, `?year=2026`, `?date_from=2026-01-01&date_to=2026-06-30`."""

    season = IntFilter(field_name="season_id")
    year = IntFilter(field_name="season__year")
    date_from = DateFilter(field_name="date", lookup_expr="gte")
    date_to = DateFilter(field_name="date", lookup_expr="lte")

    class Meta:
        model = Evening
        fields = ["season", "year", "date_from", "date_to"]


class GameFilter(django_filters.FilterSet):
    """`?evening=<id>`, `?season=<id>`, `?loser=<id>`, `?vorleger=<id>`,
    `?schock_aus_thrower=<id>`, `?entry_mode=rounds`, `?number=3`."""

    evening = IntFilter(field_name="evening_id")
    season = IntFilter(field_name="evening__season_id")
    loser = IntFilter(field_name="loser_id")
    vorleger = IntFilter(field_name="vorleger_id")
    schock_aus_thrower = IntFilter(field_name="schock_aus__thrower_id", distinct=True)
    entry_mode = django_filters.ChoiceFilter(choices=Game.EntryMode.choices)
    number = IntFilter(field_name="number")

    class Meta:
        model = Game
        fields = [
            "evening",
            "season",
            "loser",
            "vorleger",
            "schock_aus_thrower",
            "entry_mode",
            "number",
        ]
