"""Merging a person entered twice (league.club.services.member_merge):
the books follow the kept person, audited, the seasons' versions move, charges are rebooked,
and an evening both played is refused naming the evening and the people."""

import datetime
from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games.evenings.models import Attendance, Game, SchockAus
from games.evenings.services import evening_changed, evening_create, game_record
from league.club.errors import BooksError
from league.club.models import Member, Season
from league.club.services import member_create, member_login_set, member_merge, season_create
from league.ledger.models import LedgerEntry, Payment
from league.ledger.selectors import (
    member_balance,
    member_statement,
)
from league.ledger.services import (
    payment_record,
)
from league.runden.models import RundeGiven
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 6)
LATER = datetime.date(2026, 3, 20)


@pytest.fixture
def club():
    club = ClubFactory(name="Heimclub")
    season_create(club=club, year=2026)
    return club


@pytest.fixture
def cast(club):
    names = ["Bernd Krause", "Anna Becker", "Carla Vogt", "Gustav Meier", "G. Meier"]
    people = {n: member_create(club=club, name=n) for n in names[:3]}
    for n in names[3:]:
        people[n] = member_create(club=club, name=n, kind=Member.Kind.GUEST)
    return people


def _evening(cast, day, *, present, guests=(), absent=()):
    return evening_create(
        club=cast["Bernd Krause"].club,
        date=day,
        secretary=cast["Bernd Krause"],
        present_members=[cast[n] for n in present],
        guests=[cast[n] for n in guests],
        absent_members=[cast[n] for n in absent],
    )


def test_the_games_and_schock_aus_of_the_duplicate_move_to_the_kept_person(cast):
    evening = _evening(cast, DAY, present=["Bernd Krause", "Anna Becker"], guests=["G. Meier"])
    game = game_record(
        evening=evening, loser=cast["G. Meier"], schock_aus_throwers=[cast["G. Meier"]]
    )
    kept = member_merge(source=cast["G. Meier"], target=cast["Gustav Meier"])
    game.refresh_from_db()
    assert game.loser == kept
    assert SchockAus.objects.get(game=game).thrower == kept
    assert Attendance.objects.get(evening=evening, member=kept).role == Attendance.Role.GUEST
    assert not Member.objects.filter(name="G. Meier").exists()


def test_the_duplicates_charges_and_payments_are_the_kept_persons_after_the_merge(cast):
    evening = _evening(cast, DAY, present=["Bernd Krause", "Anna Becker"], guests=["G. Meier"])
    for _ in range(3):
        game_record(evening=evening, loser=cast["G. Meier"])
    season = Season.objects.get(year=2026)
    payment_record(member=cast["G. Meier"], amount=Decimal("0.50"), paid_on=DAY)
    kept = member_merge(source=cast["G. Meier"], target=cast["Gustav Meier"])
    assert member_balance(member=kept, season=season) == Decimal("1.00")
    assert Payment.objects.get().member == kept
    statement = member_statement(member=kept)
    assert statement.seasons[0].marks_charged == 3
    assert statement.seasons[0].paid == Decimal("0.50")


def test_an_absence_charge_is_rebooked_under_the_kept_person(cast):
    _evening(cast, DAY, present=["Bernd Krause", "Anna Becker"], absent=["Carla Vogt"])
    carla, twice = cast["Carla Vogt"], member_create(club=cast["Carla Vogt"].club, name="Carla V.")
    evening_b = _evening(cast, LATER, present=["Bernd Krause", "Anna Becker", "Carla Vogt"])
    evening_b.attendances.filter(member=carla).delete()  # entered under the other name
    Attendance.objects.create(evening=evening_b, member=twice, role=Attendance.Role.ABSENT)
    evening_changed(evening=evening_b)
    season = Season.objects.get(year=2026)
    member_merge(source=twice, target=carla)
    open_charges = LedgerEntry.objects.filter(
        kind=LedgerEntry.Kind.ABSENCE, reversed_by__isnull=True
    )
    assert sorted(open_charges.values_list("member__name", "marks")) == [
        ("Carla Vogt", 6),
        ("Carla Vogt", 6),
    ]
    assert member_balance(member=carla, season=season) == Decimal("6.00")
    assert open_charges.filter(source_key=f"absence:{evening_b.pk}:{carla.pk}").exists()


def test_a_merge_moves_the_data_version_of_every_season_touched(cast, club):
    season_create(club=club, year=2025)
    _evening(cast, DAY, present=["Bernd Krause", "Anna Becker"], guests=["G. Meier"])
    versions = dict(Season.objects.values_list("year", "data_version"))
    member_merge(source=cast["G. Meier"], target=cast["Gustav Meier"])
    after = dict(Season.objects.values_list("year", "data_version"))
    assert after[2026] > versions[2026]
    assert after[2025] == versions[2025]


def test_every_row_moved_is_audited_with_the_merge_as_reason(cast):
    evening = _evening(cast, DAY, present=["Bernd Krause", "Anna Becker"], guests=["G. Meier"])
    game = game_record(evening=evening, loser=cast["G. Meier"])
    member_merge(source=cast["G. Meier"], target=cast["Gustav Meier"])
    last = Game.history.filter(id=game.pk).latest("history_date")
    assert last.history_change_reason == "member_merged"
    gone = Member.history.filter(name="G. Meier").latest("history_date")
    assert gone.history_type == "-"
    assert gone.history_change_reason == "member_merged"


def test_a_runde_given_follows_its_schock_aus_to_the_kept_person(cast):
    evening = _evening(cast, DAY, present=["Bernd Krause", "Anna Becker"], guests=["G. Meier"])
    game = game_record(
        evening=evening, loser=cast["Anna Becker"], schock_aus_throwers=[cast["G. Meier"]]
    )
    schock_aus = SchockAus.objects.get(game=game)
    RundeGiven.objects.create(schock_aus=schock_aus, given_on=DAY)
    kept = member_merge(source=cast["G. Meier"], target=cast["Gustav Meier"])
    assert RundeGiven.objects.get().schock_aus.thrower == kept


def test_both_present_at_one_evening_is_refused_naming_the_evening_and_both(cast):
    evening = _evening(
        cast, DAY, present=["Bernd Krause", "Anna Becker"], guests=["Gustav Meier", "G. Meier"]
    )
    game_record(evening=evening, loser=cast["G. Meier"])
    with pytest.raises(BooksError) as refused:
        member_merge(source=cast["G. Meier"], target=cast["Gustav Meier"])
    assert refused.value.code == "merge_conflict"
    assert "06.03.2026" in refused.value.message
    assert "G. Meier" in refused.value.message and "Gustav Meier" in refused.value.message
    assert Member.objects.filter(name="G. Meier").exists()
    assert Game.objects.get().loser.name == "G. Meier"


def test_an_absent_entry_beside_a_present_one_is_resolved_to_present(cast):
    carla = cast["Carla Vogt"]
    twice = member_create(club=carla.club, name="Carla V.")
    evening = _evening(cast, DAY, present=["Bernd Krause", "Anna Becker", "Carla Vogt"], absent=[])
    Attendance.objects.create(evening=evening, member=twice, role=Attendance.Role.ABSENT)
    member_merge(source=twice, target=carla)
    assert list(evening.attendances.filter(member=carla).values_list("role", flat=True)) == [
        "member"
    ]
    assert not LedgerEntry.objects.filter(
        kind=LedgerEntry.Kind.ABSENCE, reversed_by__isnull=True
    ).exists()


def test_the_kept_person_is_present_where_only_the_duplicate_was_listed_present(cast):
    evening = _evening(cast, DAY, present=["Bernd Krause", "Anna Becker"], absent=["Carla Vogt"])
    twice = member_create(club=cast["Carla Vogt"].club, name="Carla V.")
    Attendance.objects.create(evening=evening, member=twice, role=Attendance.Role.MEMBER)
    game_record(evening=evening, loser=twice)
    carla = member_merge(source=twice, target=cast["Carla Vogt"])
    assert evening.attendances.get(member=carla).role == Attendance.Role.MEMBER
    assert Game.objects.get().loser == carla
    absences = LedgerEntry.objects.filter(kind=LedgerEntry.Kind.ABSENCE, reversed_by__isnull=True)
    assert not absences.exists()


def test_a_duplicates_login_moves_when_the_kept_person_has_none(cast):
    login = UserFactory(username="gmeier")
    twice = cast["G. Meier"]
    member_login_set(person=twice, user=login)
    kept = member_merge(source=twice, target=cast["Gustav Meier"])
    assert kept.user == login


def test_a_duplicates_login_is_locked_when_the_kept_person_has_one(cast):
    member_login_set(person=cast["Gustav Meier"], user=UserFactory(username="gustav"))
    member_login_set(person=cast["G. Meier"], user=UserFactory(username="gmeier"))
    kept = member_merge(source=cast["G. Meier"], target=cast["Gustav Meier"])
    assert kept.user.username == "gustav"
    assert User.objects.get(username="gmeier").is_active is False


def test_a_person_cannot_be_merged_into_themselves(cast):
    with pytest.raises(BooksError) as refused:
        member_merge(source=cast["Anna Becker"], target=cast["Anna Becker"])
    assert refused.value.code == "merge_same_person"


def test_a_person_of_another_club_cannot_be_merged(cast):
    other = ClubFactory(name="Nachbarclub")
    stranger = member_create(club=other, name="Anna Becker")
    with pytest.raises(BooksError) as refused:
        member_merge(source=stranger, target=cast["Anna Becker"])
    assert refused.value.code == "person_of_other_club"


def test_the_objections_of_the_duplicate_move_to_the_kept_person(cast):
    from games.evenings.models import Objection
    from games.evenings.services import objection_answer, objection_create

    evening = _evening(cast, DAY, present=["Bernd Krause", "Anna Becker"], guests=["G. Meier"])
    first = game_record(evening=evening, loser=cast["Anna Becker"])
    second = game_record(evening=evening, loser=cast["G. Meier"])
    answered = objection_create(evening=evening, game=first, by=cast["G. Meier"], text="Falsch")
    objection_answer(
        objection=answered, by=cast["Bernd Krause"], outcome="dismissed", reason="Stimmt so"
    )
    still_open = objection_create(evening=evening, game=second, by=cast["G. Meier"], text="Nee")
    kept = member_merge(source=cast["G. Meier"], target=cast["Gustav Meier"])
    assert {o.raised_by for o in Objection.objects.all()} == {kept}
    still_open.refresh_from_db()
    assert still_open.status == Objection.Status.OPEN
    assert still_open.history.latest().history_change_reason == "member_merged"


def test_a_merge_of_two_open_objections_to_one_game_is_refused(cast):
    from games.evenings.services import objection_create

    # Gustav was not there, but a person of the club may object to any provisional game
    evening = _evening(cast, DAY, present=["Bernd Krause", "Anna Becker"], guests=["G. Meier"])
    game = game_record(evening=evening, loser=cast["Anna Becker"])
    objection_create(evening=evening, game=game, by=cast["G. Meier"], text="Falsch")
    objection_create(evening=evening, game=game, by=cast["Gustav Meier"], text="Falsch")
    with pytest.raises(BooksError) as refused:
        member_merge(source=cast["G. Meier"], target=cast["Gustav Meier"])
    assert refused.value.code == "merge_conflict"
    assert "offenen Einspruch gegen Spiel 1" in refused.value.message
    assert Member.objects.filter(name="G. Meier").exists()
