"""Property: after any sequence of entries, edits and deletions of evenings,
attendance, games and payments, each member's ledger balance in each season equals the
money of the Marks computed from the records (`season_standings`) minus the payments."""

import datetime
from decimal import Decimal

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from games.evenings.models import Evening, Game
from games.evenings.services import (
    evening_create,
    evening_delete,
    evening_update,
    game_delete,
    game_record,
    game_update,
)
from league.club.errors import BooksError
from league.club.models import Club, Member, Season
from league.club.money import marks_to_money
from league.club.services import season_get_or_create
from league.ledger.models import LedgerEntry, Payment
from league.ledger.selectors import (
    member_balance,
)
from league.ledger.services import (
    payment_cancel,
    payment_record,
)
from league.standings.selectors import season_standings

DATES = [
    datetime.date(2001, 11, 2),
    datetime.date(2026, 1, 9),
    datetime.date(2026, 1, 16),
    datetime.date(2026, 2, 6),
]
MEMBERS = ["Anna", "Bernd", "Carla", "Dieter", "Erik"]
GUESTS = ["Gustav"]

people_roles = st.tuples(
    *[st.sampled_from(["member", "member", "absent", None]) for _name in MEMBERS],
    *[st.sampled_from(["guest", None]) for _name in GUESTS],
)


def game_recorded(throwers: int):
    return st.tuples(
        st.just("game_record"),
        st.integers(0, 9),
        st.integers(0, 5),
        st.lists(st.integers(0, 5), max_size=throwers),
    )


# Games are recorded more often than anything else, as at the table.
operation = st.one_of(
    game_recorded(0),
    game_recorded(1),
    game_recorded(2),
    st.tuples(st.just("evening_create"), st.integers(0, 3), people_roles),
    st.tuples(st.just("evening_update"), st.integers(0, 9), st.integers(0, 3), people_roles),
    st.tuples(st.just("evening_delete"), st.integers(0, 9)),
    st.tuples(
        st.just("game_update"),
        st.integers(0, 99),
        st.integers(0, 5),
        st.lists(st.integers(0, 5), max_size=2),
    ),
    st.tuples(st.just("game_delete"), st.integers(0, 99)),
    st.tuples(st.just("payment"), st.integers(0, 5), st.integers(1, 800), st.integers(0, 3)),
    st.tuples(st.just("payment_cancel"), st.integers(0, 20)),
)


def _attendance(people: list[Member], roles: list) -> dict:
    present = [p for p, r in zip(people, roles, strict=True) if r == "member"]
    guests = [p for p, r in zip(people, roles, strict=True) if r == "guest"]
    absent = [p for p, r in zip(people, roles, strict=True) if r == "absent"]
    if not present:  # an evening has a present club member, who keeps the books
        present = [people[len(absent) % len(MEMBERS)]]
        absent = [p for p in absent if p not in present]
    secretary = present[0]
    return {
        "secretary": secretary,
        "present_members": present,
        "guests": guests,
        "absent_members": absent,
    }


def _present(evening: Evening) -> list[Member]:
    """The evening's present people (loser and throwers are picked among them)."""
    return [a.member for a in evening.attendances.exclude(role="absent").order_by("member__name")]


def _pick(items: list, index: int):
    return items[index % len(items)] if items else None


def _apply(op: tuple, club: Club, people: list[Member]) -> bool:
    """Apply one operation; False when there was nothing to apply it to."""
    kind = op[0]
    evenings = list(Evening.objects.filter(club=club).order_by("pk"))
    games = list(Game.objects.filter(evening__club=club).order_by("pk"))
    if kind == "evening_create":
        evening_create(club=club, date=DATES[op[1]], **_attendance(people, op[2]))
    elif kind == "evening_update" and evenings:
        evening_update(
            evening=_pick(evenings, op[1]), date=DATES[op[2]], **_attendance(people, op[3])
        )
    elif kind == "evening_delete" and evenings:
        evening_delete(evening=_pick(evenings, op[1]))
    elif kind == "game_record" and evenings:
        evening = _pick(evenings, op[1])
        present = _present(evening)
        game_record(
            evening=evening,
            loser=_pick(present, op[2]),
            schock_aus_throwers=[_pick(present, i) for i in op[3]],
        )
    elif kind == "game_update" and games:
        game = _pick(games, op[1])
        present = _present(game.evening)
        game_update(
            game=game,
            loser=_pick(present, op[2]),
            schock_aus_throwers=[_pick(present, i) for i in op[3]],
        )
    elif kind == "game_delete" and games:
        game_delete(game=_pick(games, op[1]))
    elif kind == "payment":
        season = Season.objects.get(club=club, year=DATES[op[3]].year)
        payment_record(
            member=people[op[1]], amount=Decimal(op[2]) / 100, paid_on=DATES[op[3]], season=season
        )
    elif kind == "payment_cancel":
        payment = _pick(list(Payment.objects.filter(club=club).order_by("pk")), op[1])
        if payment is None:
            return False
        payment_cancel(payment=payment)
    elif kind != "evening_create":
        return False
    return True


def _paid(season: Season) -> dict[int, Decimal]:
    paid: dict[int, Decimal] = {}
    for p in Payment.objects.filter(season=season).prefetch_related("ledger_entry"):
        if not LedgerEntry.objects.filter(reverses=p.ledger_entry).exists():
            paid[p.member_id] = paid.get(p.member_id, Decimal("0")) + p.amount
    return paid


class LedgerBalanceProperty(TestCase):
    @settings(
        max_examples=80,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.lists(operation, min_size=1, max_size=20))
    def test_each_balance_equals_the_marks_of_the_records_minus_the_payments(self, ops):
        club = Club.objects.create(name="Property club")
        for year in (2001, 2026):
            season_get_or_create(club=club, year=year)
        people = [Member.objects.create(club=club, name=n) for n in MEMBERS] + [
            Member.objects.create(club=club, name=n, kind="guest") for n in GUESTS
        ]
        first = ("evening_create", 1, ("member", "member", "member", "absent", None, "guest"))
        for op in [first, *ops]:
            try:
                event(f"{op[0]} {'done' if _apply(op, club, people) else 'nothing to do'}")
            except BooksError as exc:  # a refused change writes nothing; books still add up
                event(f"{op[0]} refused: {exc.code}")
            for season in Season.objects.filter(club=club):
                standings = season_standings(season=season)
                marks = {row.member.pk: row.marks for row in standings.everyone}
                paid = _paid(season)
                for person in people:
                    expected = marks_to_money(marks.get(person.pk, 0), season.mark_value)
                    expected -= paid.get(person.pk, Decimal("0"))
                    # The ledger's own balance (its sum of entries, rounded to cents once:
                    # SQLite sums decimals as floats).
                    balance = member_balance(member=person, season=season)
                    assert balance == expected, (op, person.name)
