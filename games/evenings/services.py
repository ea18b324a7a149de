"""Writing evenings, attendance and games (docs/rules.md sections 4 and 5).

Every service runs in one transaction and refuses bad input with a BooksError (nothing is
saved half). The database refuses the same things again (constraints and triggers), so a
path that forgets a check still cannot write what must never happen.

Every row written leaves its audit-trail record (django-simple-history), rows written in
bulk too (`bulk_create_with_history`); the author is the request's user, which
`HistoryRequestMiddleware` hands to simple_history for the pages and the API alike (DRF
sets the token's user on the underlying request), and None from a management command.
"""

import datetime
import uuid
from collections import Counter
from collections.abc import Collection, Sequence

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from games.evenings.models import (
    Attendance,
    Evening,
    Game,
    Objection,
    PlannedEvening,
    SchockAus,
)
from games.evenings.selectors import (
    PLANNED_WEEKS,
    PlannedEveningLine,
    club_planned_evenings,
    evening_provisional_state,
    evening_target_reached,
    game_number_holder,
    next_game_number,
    next_vorleger,
    season_for_date,
)
from league.club.books import books_changed, register_changed
from league.club.errors import (
    BooksError,
    books_error_from_integrity,
    check_version,
    db_refusal_messages,
    season_closed_error,
)
from league.club.models import Club, Member
from league.club.services import member_create
from league.club.statutes import season_rules


def evening_changed(*, evening: Evening, reason: str = "evening") -> None:
    """After every change of an evening's records (attendance, games, Schock-Aus, rounds):
    bump the evening's version (its ETag) and raise the one books-changed event
    (league.club.books), which moves the season's data version and brings the kitty
    ledger in line. Runs inside the writer's transaction."""
    Evening.objects.filter(pk=evening.pk).update(version=F("version") + 1)
    evening.refresh_from_db(fields=["version"])
    books_changed(season_id=evening.season_id, evening_id=evening.pk, reason=reason)


def _attendance_role_check(
    club: Club, person: Member, role: str, roles: dict[Member, str], came_as_guest: Collection[int]
) -> None:
    """Refuse `person` in `role`: of another club, listed twice (in `roles` already), a
    club member as a guest (unless in `came_as_guest`) or a guest as a club member."""
    if person.club_id != club.pk:
        raise BooksError(
            "person_of_other_club",
            db_refusal_messages()["person_of_other_club"],
            field="attendance",
        )
    if person in roles:
        raise BooksError(
            "person_twice",
            _("%(name)s is listed twice in the attendance.") % {"name": person.name},
            field="attendance",
        )
    member_as_guest = person.kind != Member.Kind.GUEST and person.pk not in came_as_guest
    if role == Attendance.Role.GUEST and member_as_guest:
        raise BooksError(
            "member_as_guest",
            _("%(name)s is a club member, not a guest.") % {"name": person.name},
            field="guests",
        )
    if role != Attendance.Role.GUEST and person.kind == Member.Kind.GUEST:
        raise BooksError(
            "guest_as_member",
            _("%(name)s is a guest, not a club member.") % {"name": person.name},
            field="attendance",
        )


def _attendance_roles(
    *,
    club: Club,
    secretary: Member,
    present_members: Sequence[Member],
    guests: Sequence[Member],
    absent_members: Sequence[Member],
    came_as_guest: Collection[int] = (),
) -> dict[Member, str]:
    """Each person's role at the evening, checked. `came_as_guest`: ids of club members
    who were guests of this evening already (before they joined, or merged), who may
    stay guests of it."""
    roles: dict[Member, str] = {}
    groups = (
        (present_members, Attendance.Role.MEMBER),
        (guests, Attendance.Role.GUEST),
        (absent_members, Attendance.Role.ABSENT),
    )
    for people, role in groups:
        for person in people:
            _attendance_role_check(club, person, role, roles, came_as_guest)
            roles[person] = role
    if secretary.club_id != club.pk:
        raise BooksError(
            "person_of_other_club", db_refusal_messages()["person_of_other_club"], field="secretary"
        )
    if roles.get(secretary) not in (Attendance.Role.MEMBER, Attendance.Role.GUEST):
        raise BooksError(
            "secretary_not_present",
            _("The secretary of the evening must be present."),
            field="secretary",
        )
    if not any(role == Attendance.Role.MEMBER for role in roles.values()):
        raise BooksError(
            "no_members_present",
            _("At least one club member must be present."),
            field="present_members",
        )
    return roles


def _check_attendance_in_use(evening: Evening, wanted: dict[int, str]) -> None:
    """Refuse, naming the person and the game, an attendance change that would make
    someone absent or take them off the list while they lost, opened (Vorleger) or threw
    a Schock-Aus in one of the evening's games (the database refuses it too, without
    the name: `attendance_in_use`).

    Raises BooksError `attendance_in_use` (409)."""
    leaving = {
        a.member_id: a.member.name
        for a in evening.attendances.select_related("member")
        if a.present and wanted.get(a.member_id, Attendance.Role.ABSENT) == Attendance.Role.ABSENT
    }
    if not leaving:
        return
    uses: list[tuple[int, int]] = []  # (game number, person)
    for number, loser_id, vorleger_id in evening.games.values_list("number", "loser", "vorleger"):
        uses += [(number, pk) for pk in (loser_id, vorleger_id) if pk in leaving]
    thrown = SchockAus.objects.filter(game__evening=evening, thrower__in=list(leaving))
    uses += list(thrown.values_list("game__number", "thrower"))
    if uses:
        number, person_id = min(uses)
        raise BooksError(
            "attendance_in_use",
            _(
                "%(name)s played game %(number)s of this evening (lost, opened or threw a "
                "Schock-Aus), so cannot be absent or left out: correct that game first."
            )
            % {"name": leaving[person_id], "number": number},
            field="attendance",
            status=409,
        )


def _guests_by_name(*, club: Club, names: Sequence[str]) -> list[Member]:
    """The guests named in `names` (spaces collapsed, blanks skipped): an existing guest of
    the club whose name matches ignoring case, else a new guest created by `member_create`
    (audited like every member). Runs inside the caller's transaction, so a refused evening
    leaves no new guest behind.

    Raises BooksError `member_exists` (409, field `new_guests`) when a club member (not a
    guest) has the name.
    """
    guests = {g.name.casefold(): g for g in Member.objects.filter(club=club, kind="guest")}
    found = []
    for name in (" ".join(n.split()) for n in names):
        if not name:
            continue
        guest = guests.get(name.casefold())
        if guest is None:
            try:
                guest = member_create(club=club, name=name, kind=Member.Kind.GUEST)
            except BooksError as exc:
                raise BooksError(
                    exc.code, exc.message, field="new_guests", status=exc.status
                ) from exc
            guests[name.casefold()] = guest
        found.append(guest)
    return found


@transaction.atomic
def evening_create(
    *,
    club: Club,
    date: datetime.date,
    secretary: Member,
    present_members: Sequence[Member],
    guests: Sequence[Member] = (),
    absent_members: Sequence[Member] = (),
    notes: str = "",
    new_guests: Sequence[str] = (),
) -> Evening:
    """Create an evening with its attendance (present club members, guests, absent club
    members) in the season that contains `date`. `new_guests` are names of guests who come
    for the first time: they join `guests` (see `_guests_by_name`, same transaction).

    Raises BooksError: no_season, evening_exists (409), person_of_other_club, person_twice,
    member_as_guest, guest_as_member, secretary_not_present, no_members_present,
    member_exists (409, a new guest's name is a club member's).
    """
    season = season_for_date(club=club, date=date)
    roles = _attendance_roles(
        club=club,
        secretary=secretary,
        present_members=present_members,
        guests=[*guests, *_guests_by_name(club=club, names=new_guests)],
        absent_members=absent_members,
    )
    if Evening.objects.filter(club=club, date=date).exists():
        raise BooksError(
            "evening_exists",
            db_refusal_messages()["evening_unique_date_per_club"],
            field="date",
            status=409,
        )
    try:
        with transaction.atomic():
            evening = Evening.objects.create(
                club=club, season=season, date=date, secretary=secretary, notes=notes
            )
            bulk_create_with_history(
                [
                    Attendance(club=club, evening=evening, member=m, role=r)
                    for m, r in roles.items()
                ],
                Attendance,
            )
    except IntegrityError as exc:
        raise books_error_from_integrity(exc) from exc
    evening_changed(evening=evening)
    return evening


def _attendance_write(evening: Evening, wanted: dict[int, str]) -> None:
    """Bring the evening's attendance rows to `wanted` (member id -> role) one row at a
    time, so the audit trail shows each change."""
    current = {a.member_id: a for a in evening.attendances.all()}
    for member_id, attendance in current.items():
        if member_id not in wanted:
            attendance.delete()
        elif attendance.role != wanted[member_id]:
            attendance.role = wanted[member_id]
            attendance.save()
    for member_id, role in wanted.items():
        if member_id not in current:
            Attendance.objects.create(
                club_id=evening.club_id, evening=evening, member_id=member_id, role=role
            )


@transaction.atomic
def evening_update(
    *,
    evening: Evening,
    date: datetime.date,
    secretary: Member,
    present_members: Sequence[Member],
    guests: Sequence[Member] = (),
    absent_members: Sequence[Member] = (),
    notes: str = "",
    expected_version: int | None = None,
    new_guests: Sequence[str] = (),
) -> Evening:
    """Change an evening's date, secretary, notes and attendance. Attendance rows are
    changed, added and removed one by one (so the audit trail shows each change).
    `new_guests`: names of first-time guests, as in `evening_create`.

    Raises BooksError as `evening_create`, plus stale_version (412) and attendance_in_use
    (409) when a person who lost or threw in this evening's games would be made absent
    or removed.
    """
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    check_version(evening, expected_version)
    season = season_for_date(club=evening.club, date=date)
    season_before = evening.season_id
    roles = _attendance_roles(
        club=evening.club,
        secretary=secretary,
        present_members=present_members,
        guests=[*guests, *_guests_by_name(club=evening.club, names=new_guests)],
        absent_members=absent_members,
        came_as_guest=set(
            evening.attendances.filter(role=Attendance.Role.GUEST).values_list(
                "member_id", flat=True
            )
        ),
    )
    _check_attendance_in_use(evening, {m.pk: r for m, r in roles.items()})
    try:
        with transaction.atomic():
            evening.date, evening.season, evening.secretary = date, season, secretary
            evening.notes = notes
            evening.save()
            _attendance_write(evening, {m.pk: r for m, r in roles.items()})
    except IntegrityError as exc:
        raise books_error_from_integrity(exc) from exc
    evening_changed(evening=evening)
    if season_before != evening.season_id:
        # The evening left a season: that season's books changed too (its charges were
        # reversed by the ledger when the evening's charges moved to the new season).
        books_changed(season_id=season_before, reason="evening_moved")
    return evening


@transaction.atomic
def evening_delete(
    *, evening: Evening, expected_version: int | None = None, with_games: bool = False
) -> None:
    """Delete an evening with its attendance (docs/rules.md 5: its absences' charges are
    reversed, booked today, reason "evening_deleted"), raising the books-changed event.

    An evening with games is refused (`evening_has_games`, 409) unless `with_games`: then
    each game is deleted first through `game_delete` (last game first), so that every
    charge it caused is reversed visibly, all in this one transaction.

    Raises BooksError: stale_version (412), evening_has_games (409), runde_given (409,
    with_games and a Runde of one of its Schock-Aus was marked as given).
    """
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    check_version(evening, expected_version)
    if with_games:
        for game in evening.games.order_by("-number"):
            game_delete(game=game)
    elif evening.games.exists():
        raise BooksError("evening_has_games", _("Delete the evening's games first."), status=409)
    evening.attendances.all().delete()
    books_changed(
        season_id=evening.season_id,
        evening_id=evening.pk,
        evening_deleted=True,
        reason="evening_deleted",
    )
    evening.delete()


def _present_ids(evening: Evening) -> set[int]:
    return set(
        evening.attendances.exclude(role=Attendance.Role.ABSENT).values_list("member_id", flat=True)
    )


def _check_people(
    evening: Evening, loser: Member, throwers: Sequence[Member], vorleger: Member | None
) -> None:
    present = _present_ids(evening)
    if loser.pk not in present:
        raise BooksError(
            "loser_not_present",
            _("%(name)s was not present at this evening.") % {"name": loser.name},
            field="loser",
        )
    for thrower in throwers:
        if thrower.pk not in present:
            raise BooksError(
                "thrower_not_present",
                _("%(name)s was not present at this evening.") % {"name": thrower.name},
                field="schock_aus",
            )
    if vorleger is not None and vorleger.pk not in present:
        raise BooksError(
            "vorleger_not_present",
            _("%(name)s was not present at this evening.") % {"name": vorleger.name},
            field="vorleger",
        )
    # docs/rules.md 4: a Schock-Aus ends the game (single format) or its half or final (halves)
    # once its round is complete, and everyone throws once per round: so a person throws
    # at most one Schock-Aus per game, or one per half and final.
    parts = 1 if season_rules(evening.season).format == "single" else 3
    counts = Counter(t.pk for t in throwers)
    for thrower in throwers:
        if counts[thrower.pk] > parts:
            if parts == 1:
                message = _("%(name)s cannot throw more than one Schock-Aus in one game.")
            else:
                message = _("%(name)s cannot throw more Schock-Aus than a game has parts.")
            raise BooksError(
                "schock_aus_twice",
                message % {"name": thrower.name},
                field="schock_aus",
            )


def _write_schock_aus(game: Game, throwers: Sequence[Member]) -> None:
    """The game's Schock-Aus rows in throwing order (positions 1, 2, ...), in bulk, each
    with its audit-trail record."""
    bulk_create_with_history(
        [
            SchockAus(club_id=game.club_id, game=game, thrower=t, position=i)
            for i, t in enumerate(throwers, start=1)
        ],
        SchockAus,
    )


def _game_number(evening: Evening, number: int | None) -> int:
    """The number of a new game of `evening`: `number`, or the next free one. Raises
    BooksError `invalid_number` below 1, `duplicate_game_number` (409) when taken, its
    `details` naming the game that has it (`game_number_holder`)."""
    if number is None:
        number = next_game_number(evening=evening)
    if number < 1:
        raise BooksError("invalid_number", _("The game number must be 1 or more."), field="number")
    holder = game_number_holder(evening=evening, number=number)
    if holder is not None:
        raise BooksError(
            "duplicate_game_number",
            db_refusal_messages()["game_unique_number"],
            field="number",
            status=409,
            details=holder,
        )
    return number


def _refuse_spent_client_key(evening: Evening, client_key: uuid.UUID) -> None:
    """Raise BooksError `duplicate_client_key` (409) when a game with `client_key` was
    recorded in the evening's club: a key is spent once the game was recorded, also when
    the game was undone or deleted since (its history keeps the key), so a late retry of a
    phone's queue never books it again."""
    if (
        Game.objects.filter(club_id=evening.club_id, client_key=client_key).exists()
        or Game.history.filter(evening_id=evening.pk, client_key=client_key).exists()
    ):
        raise BooksError(
            "duplicate_client_key",
            _("This game was recorded already: it was sent twice."),
            status=409,
        )


def _refuse_beyond_target(evening: Evening) -> None:
    """Raise BooksError `evening_target_reached` (409, `details.target`: the evening's
    target count of games) when the evening has its target count of games already."""
    reached, target = evening_target_reached(evening=evening)
    if reached:
        raise BooksError(
            "evening_target_reached",
            _("The evening's target is reached - save anyway?"),
            field="number",
            status=409,
            details={"target": target},
        )


@transaction.atomic
def game_record(
    *,
    evening: Evening,
    loser: Member,
    schock_aus_throwers: Sequence[Member] = (),
    number: int | None = None,
    vorleger: Member | None = None,
    expected_evening_version: int | None = None,
    entry_mode: str = Game.EntryMode.SHORT,
    client_key: uuid.UUID | None = None,
    target_confirmed: bool = True,
) -> Game:
    """Record a game: its loser and its Schock-Aus throwers in throwing order.

    `number` defaults to the next free number of the evening; `vorleger` to the previous
    game's loser (the secretary for game 1). The evening's row is locked (SELECT ... FOR
    UPDATE) before the number is counted, so clients adding games at once get consecutive,
    distinct numbers.

    `target_confirmed=False` (the entry page and the API, until the user confirms) refuses
    a game beyond the evening's target count ("Abendsoll", docs/rules.md 5: games per
    present club member) with `evening_target_reached` (409): usually a game entered twice.
    A taken number is refused with `duplicate_game_number` (409) whose `details` name the
    game that has it (`games.evenings.selectors.game_number_holder`).

    `client_key` (a UUID the client made for this game: a phone's offline queue) is
    applied once: a game with the same key, also one undone or deleted since, is refused
    (`duplicate_client_key`, 409, checked before the version): a resend records nothing.

    Raises BooksError: loser_not_present, thrower_not_present, vorleger_not_present,
    duplicate_game_number (409), duplicate_client_key (409), invalid_number,
    stale_version (412), evening_target_reached (409).
    """
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    if client_key is not None:
        _refuse_spent_client_key(evening, client_key)
    check_version(evening, expected_evening_version)
    number = _game_number(evening, number)
    if not target_confirmed:
        _refuse_beyond_target(evening)
    if vorleger is None:
        vorleger = next_vorleger(evening=evening, number=number)
    _check_people(evening, loser, schock_aus_throwers, vorleger)
    try:
        with transaction.atomic():
            game = Game.objects.create(
                club_id=evening.club_id,
                evening=evening,
                number=number,
                loser=loser,
                vorleger=vorleger,
                entry_mode=entry_mode,
                client_key=client_key,
            )
            _write_schock_aus(game, schock_aus_throwers)
    except IntegrityError as exc:
        raise books_error_from_integrity(exc) from exc
    evening_changed(evening=evening)
    return game


def _check_rounds_game_kept(
    game: Game, loser: Member, throwers: Sequence[Member], vorleger: Member | None
) -> None:
    """Refuse (`game_entered_by_rounds`, 409) a new loser, Vorleger or Schock-Aus for a game
    entered round by round: they come from its stored rounds (its number may change)."""
    if game.entry_mode != Game.EntryMode.ROUNDS:
        return
    if (
        game.loser_id != loser.pk
        or game.vorleger_id != (vorleger.pk if vorleger else None)
        or list(game.schock_aus.order_by("position").values_list("thrower_id", flat=True))
        != [t.pk for t in throwers]
    ):
        raise BooksError(
            "game_entered_by_rounds",
            _(
                "This game was entered round by round: its loser and Schock-Aus come from its "
                "rounds. Delete the game and enter it again to correct it."
            ),
            status=409,
        )


def _check_new_number(evening: Evening, game: Game, number: int) -> None:
    """Refuse a game number below 1 (`invalid_number`) or taken by another game of the
    evening (`duplicate_game_number`, 409)."""
    if number < 1:
        raise BooksError("invalid_number", _("The game number must be 1 or more."), field="number")
    if evening.games.filter(number=number).exclude(pk=game.pk).exists():
        raise BooksError(
            "duplicate_game_number",
            db_refusal_messages()["game_unique_number"],
            field="number",
            status=409,
        )


def _replace_schock_aus(game: Game, throwers: Sequence[Member]) -> None:
    """Replace the game's Schock-Aus rows when the throwers (in order) changed; the old rows'
    deletion stays in the audit trail. A Runde marked as given protects its Schock-Aus row:
    `runde_given` (409)."""
    old = [sa.thrower_id for sa in game.schock_aus.order_by("position")]
    if old == [t.pk for t in throwers]:
        return
    if game.schock_aus.filter(runde_given__isnull=False).exists():
        raise BooksError(
            "runde_given",
            _("A Runde for a Schock-Aus of this game was given already: undo that first."),
            status=409,
        )
    game.schock_aus.all().delete()
    _write_schock_aus(game, throwers)


@transaction.atomic
def game_update(
    *,
    game: Game,
    loser: Member,
    schock_aus_throwers: Sequence[Member] = (),
    vorleger: Member | None = None,
    number: int | None = None,
    expected_version: int | None = None,
) -> Game:
    """Correct a game's loser, Schock-Aus throwers, Vorleger or number. The Schock-Aus rows
    are replaced only where they changed (the audit trail keeps the old ones).

    A game entered round by round takes its loser, Schock-Aus and Vorleger from its stored
    rounds; changing them here would contradict the rounds, so it is refused
    (`game_entered_by_rounds`, 409): delete the game and enter it again. Its number may
    still be corrected.

    Raises BooksError as `game_record`, plus stale_version (412), game_entered_by_rounds
    (409), runde_given (409).
    """
    evening = Evening.objects.select_for_update().get(pk=game.evening_id)
    game = Game.objects.select_for_update().get(pk=game.pk)
    check_version(game, expected_version)
    _check_rounds_game_kept(game, loser, schock_aus_throwers, vorleger)
    _check_people(evening, loser, schock_aus_throwers, vorleger)
    if number is not None and number != game.number:
        _check_new_number(evening, game, number)
        game.number = number
    try:
        with transaction.atomic():
            game.loser, game.vorleger = loser, vorleger
            game.version += 1
            game.save()
            _replace_schock_aus(game, schock_aus_throwers)
    except IntegrityError as exc:
        raise books_error_from_integrity(exc) from exc
    evening_changed(evening=evening)
    return game


@transaction.atomic
def game_delete(*, game: Game, expected_version: int | None = None) -> None:
    """Delete a game with its Schock-Aus (and rounds). Its charge is reversed in the ledger.

    Raises BooksError stale_version (412), runde_given (409) when a Runde owed for one of
    its Schock-Aus was marked as given.
    """
    evening = Evening.objects.select_for_update().get(pk=game.evening_id)
    game = Game.objects.select_for_update().get(pk=game.pk)
    check_version(game, expected_version)
    if SchockAus.objects.filter(game=game, runde_given__isnull=False).exists():
        raise BooksError(
            "runde_given",
            _("A Runde for a Schock-Aus of this game was given already: undo that first."),
            status=409,
        )
    game.delete()
    evening_changed(evening=evening)


#: How long after saving the last game of an evening it can be undone (seconds).
UNDO_SECONDS = 120


@transaction.atomic
def game_undo(*, game: Game, now: datetime.datetime | None = None) -> int:
    """Undo the evening's last game within `UNDO_SECONDS` of saving it (a tap on the wrong
    name): the game goes through `game_delete` (audited; its charge reversed in the
    ledger; the season's books version moves). Returns the number of the game undone.

    Raises BooksError: undo_not_last (409) when a later game of the evening exists,
    undo_too_late (409) after `UNDO_SECONDS`, runde_given (409) as `game_delete`.
    """
    Evening.objects.select_for_update().get(pk=game.evening_id)
    game = Game.objects.get(pk=game.pk)
    if Game.objects.filter(evening_id=game.evening_id, number__gt=game.number).exists():
        raise BooksError(
            "undo_not_last",
            _("Only the evening's last game can be undone: game %(number)s has a later game.")
            % {"number": game.number},
            status=409,
        )
    moment = now or timezone.now()
    if (moment - game.created_at).total_seconds() > UNDO_SECONDS:
        raise BooksError(
            "undo_too_late",
            _(
                "Game %(number)s was saved more than %(minutes)s minutes ago: it can no longer "
                "be undone. Correct or delete it instead."
            )
            % {"number": game.number, "minutes": UNDO_SECONDS // 60},
            status=409,
        )
    game_delete(game=game)
    return game.number


def _merge_conflict_check(
    source: Member, target: Member, theirs: list[Attendance], kept: dict[int, Attendance]
) -> None:
    """Refuse a merge of two people present on one evening (`merge_conflict`, 409), naming
    the first such evening."""
    for a in sorted(theirs, key=lambda a: a.evening.date):
        other = kept.get(a.evening_id)
        if other is not None and other.present and a.present:
            raise BooksError(
                "merge_conflict",
                _(
                    "%(source)s and %(target)s both played on %(date)s: they cannot be one "
                    "person. Correct that evening first."
                )
                % {
                    "source": source.name,
                    "target": target.name,
                    "date": a.evening.date.strftime("%d.%m.%Y"),
                },
                field="target",
                status=409,
            )


def _merge_attendance(
    target: Member, theirs: list[Attendance], kept: dict[int, Attendance], reason: str
) -> None:
    """`target` listed where only the source was; listed present where the source was
    present and `target` absent."""
    added = [
        Attendance(club_id=a.club_id, evening_id=a.evening_id, member=target, role=a.role)
        for a in theirs
        if a.evening_id not in kept
    ]
    bulk_create_with_history(added, Attendance, default_change_reason=reason)
    now_present = []
    for a in theirs:
        other = kept.get(a.evening_id)
        if other is not None and a.present:  # the target was listed absent: now present
            other.role = a.role
            now_present.append(other)
    bulk_update_with_history(now_present, Attendance, ["role"], default_change_reason=reason)


def _merge_records(source: Member, target: Member, reason: str) -> list[Evening]:
    """The source's games lost, Vorleger places, Schock-Aus and evenings kept as secretary
    become `target`'s. Returns those evenings."""
    games = list(Game.objects.filter(Q(loser=source) | Q(vorleger=source)))
    for game in games:
        game.loser_id = target.pk if game.loser_id == source.pk else game.loser_id
        game.vorleger_id = target.pk if game.vorleger_id == source.pk else game.vorleger_id
    bulk_update_with_history(games, Game, ["loser", "vorleger"], default_change_reason=reason)
    thrown = list(SchockAus.objects.filter(thrower=source))
    for schock_aus in thrown:
        schock_aus.thrower = target
    bulk_update_with_history(thrown, SchockAus, ["thrower"], default_change_reason=reason)
    kept_books = list(Evening.objects.filter(secretary=source))
    for evening in kept_books:
        evening.secretary = target
    bulk_update_with_history(kept_books, Evening, ["secretary"], default_change_reason=reason)
    _merge_objections(source, target, reason)
    return kept_books


def _merge_objections(source: Member, target: Member, reason: str) -> None:
    """The objections `source` raised or answered become `target`'s (audited with
    `reason`). Raises BooksError `merge_conflict` (409) when both have an objection open
    to the same game (one person has one open objection a game: answer one first)."""
    objections = list(
        Objection.objects.filter(Q(raised_by=source) | Q(answered_by=source)).select_related(
            "evening"
        )
    )
    open_games = set(
        Objection.objects.filter(raised_by=target, status=Objection.Status.OPEN).values_list(
            "game_id", flat=True
        )
    )
    for objection in objections:
        if (
            objection.raised_by_id == source.pk
            and objection.status == Objection.Status.OPEN
            and objection.game_id in open_games
        ):
            raise BooksError(
                "merge_conflict",
                _(
                    "%(source)s and %(target)s both have an objection open to game "
                    "%(number)s of %(date)s: answer one of them first."
                )
                % {
                    "source": source.name,
                    "target": target.name,
                    "number": objection.game_number,
                    "date": f"{objection.evening.date:%d.%m.%Y}",
                },
                status=409,
            )
        if objection.raised_by_id == source.pk:
            objection.raised_by = target
        if objection.answered_by_id == source.pk:
            objection.answered_by = target
    bulk_update_with_history(
        objections, Objection, ["raised_by", "answered_by"], default_change_reason=reason
    )


@transaction.atomic
def evening_people_merge(
    *, source: Member, target: Member, reason: str
) -> set[tuple[int, int | None]]:
    """Play's part of merging a person entered twice (league.club.services.member_merge):
    `source`'s attendance, games lost, Vorleger places, Schock-Aus, objections raised or
    answered and evenings kept as secretary move to `target`; each evening touched gets a
    new version and the books-changed event (the ledger rebooks its charges, docs/rules.md
    5). Every row moved leaves an audit record with `reason`.

    Where both people are on one evening's list, the one present stays and the absent
    entry goes (a person cannot have been both); both present cannot be resolved.
    Returns the (season id, evening id) pairs touched.

    Raises BooksError `merge_conflict` (409) naming the evening and both people.
    """
    theirs = list(Attendance.objects.filter(member=source).select_related("evening"))
    kept = {
        a.evening_id: a
        for a in Attendance.objects.filter(
            member=target, evening_id__in=[a.evening_id for a in theirs]
        )
    }
    _merge_conflict_check(source, target, theirs, kept)
    _merge_attendance(target, theirs, kept, reason)
    kept_books = _merge_records(source, target, reason)
    for a in theirs:
        a._change_reason = reason  # type: ignore[attr-defined]
        a.delete()
    evening_ids = {a.evening_id for a in theirs} | {e.pk for e in kept_books}
    touched: set[tuple[int, int | None]] = set()
    for evening in Evening.objects.filter(pk__in=evening_ids).order_by("date"):
        evening_changed(evening=evening, reason=reason)
        touched.add((evening.season_id, evening.pk))
    return touched


# --- objections to a provisional evening ---------------------------------------------

#: The longest objection text and answer, in characters.
OBJECTION_TEXT_MAX = 1000


def _objection_text(text: str, *, field: str, required: bool) -> str:
    text = (text or "").strip()
    if required and not text:
        raise BooksError(
            f"{field}_required", _("Please say what is wrong, in a few words."), field=field
        )
    if len(text) > OBJECTION_TEXT_MAX:
        raise BooksError(
            f"{field}_too_long",
            _("At most %(n)d characters, please.") % {"n": OBJECTION_TEXT_MAX},
            field=field,
        )
    return text


def _objections_changed(club_id: int) -> None:
    """The audit pages show objections and the finalisation, kept by the club's versions:
    move the register's (not the books': no Mark or money moved, and no season's data
    version)."""
    register_changed(club=club_id)


@transaction.atomic
def objection_create(*, evening: Evening, game: Game, by: Member, text: str) -> Objection:
    """`by` objects to `game` of `evening` while the evening is provisional (its charges
    "vorläufig": the statutes' `provisional_hours` after its last game, league.club.statutes).
    The objection keeps the game's number and version (a correction of the game moves its
    version) and stays open until the secretary answers (`objection_answer`); while it is
    open the evening stays provisional and its season cannot be closed. Audited
    (django-simple-history). Not a change of the books: only the register's version
    moves (the audit pages show objections).

    Raises BooksError: `person_of_other_club` (403), `unknown_game` (400, field "game")
    when the game is not the evening's, `text_required` / `text_too_long` (400, field
    "text"; at most 1,000 characters), `season_closed` (409), `evening_final` (409) when
    the objection time has passed, `objection_open_already` (409) when `by` has an open
    objection to that game.
    """
    evening = Evening.objects.select_for_update().select_related("season").get(pk=evening.pk)
    if by.club_id != evening.club_id:
        raise BooksError(
            "person_of_other_club", db_refusal_messages()["person_of_other_club"], status=403
        )
    if game.evening_id != evening.pk:
        raise BooksError("unknown_game", _("The evening has no such game."), field="game")
    text = _objection_text(text, field="text", required=True)
    if evening.season.closed_at is not None:
        raise season_closed_error()
    if not evening_provisional_state(evening=evening).provisional:
        raise BooksError(
            "evening_final",
            _("The evening is final: its time for objections has passed."),
            status=409,
        )
    already = _("You have objected to this game already; the secretary will answer.")
    if Objection.objects.filter(game=game, raised_by=by, status=Objection.Status.OPEN).exists():
        raise BooksError("objection_open_already", already, field="game", status=409)
    try:
        with transaction.atomic():
            objection = Objection.objects.create(
                club_id=evening.club_id,
                evening=evening,
                game=game,
                game_number=game.number,
                game_version=game.version,
                raised_by=by,
                text=text,
            )
    except IntegrityError as exc:  # the same objection sent twice at once
        raise BooksError("objection_open_already", already, field="game", status=409) from exc
    _objections_changed(evening.club_id)
    return objection


@transaction.atomic
def objection_answer(
    *, objection: Objection, by: Member, outcome: str, reason: str = ""
) -> Objection:
    """The secretary `by` answers an open objection: `outcome` "corrected" (the game was
    corrected through the normal correction, `game_update` or `game_delete`, after the
    objection was raised: its version moved or it is gone) or "dismissed" (`reason`
    required). The answer, who gave it and when are kept on the objection and in its
    audit history. The interfaces check that `by` is the club's secretary.

    Raises BooksError: `invalid_outcome` (400, field "outcome"), `reason_required` /
    `reason_too_long` (400, field "reason"), `objection_answered` (409) when it was
    answered already, `game_not_corrected` (409) for "corrected" while the game is
    unchanged.
    """
    objection = (
        Objection.objects.select_for_update(of=("self",))
        .select_related("game", "evening")
        .get(pk=objection.pk)
    )
    if outcome not in (Objection.Status.CORRECTED, Objection.Status.DISMISSED):
        raise BooksError(
            "invalid_outcome",
            _("Answer with corrected or dismissed."),
            field="outcome",
        )
    reason = _objection_text(reason, field="reason", required=outcome == Objection.Status.DISMISSED)
    if objection.status != Objection.Status.OPEN:
        raise BooksError("objection_answered", _("The objection was answered already."), status=409)
    game = objection.game
    if (
        outcome == Objection.Status.CORRECTED
        and game is not None
        and game.version == objection.game_version
    ):
        raise BooksError(
            "game_not_corrected",
            _("Correct the game first, then mark the objection as corrected."),
            status=409,
        )
    objection.status = outcome
    objection.answer = reason
    objection.answered_by = by
    objection.answered_at = timezone.now()
    objection.save()
    _objections_changed(objection.evening.club_id)
    return objection


@transaction.atomic
def evening_finalise(*, evening: Evening, by: Member) -> Evening:
    """The secretary `by` declares `evening` final before its objection time has passed
    (`finalised_at`, audited in the evening's history). An evening final already is left
    as it is. The interfaces check that `by` is the club's secretary.

    Raises BooksError `objections_open` (409) while an objection to it is open.
    """
    evening = Evening.objects.select_for_update().select_related("season").get(pk=evening.pk)
    if Objection.objects.filter(evening=evening, status=Objection.Status.OPEN).exists():
        raise BooksError(
            "objections_open",
            _("Answer the open objections first."),
            status=409,
        )
    if evening.finalised_at is None and evening_provisional_state(evening=evening).provisional:
        _declare_final(evening, by=by, reason="evening_finalised", now=timezone.now())
        _objections_changed(evening.club_id)
    return evening


@transaction.atomic
def evenings_finalise(*, evening_ids: list[int], by: Member, reason: str) -> None:
    """Declare final every evening of `evening_ids` that is not final yet (`finalised_at`,
    audited in each evening's history with `reason`, author `by`), without asking whether
    it is provisional or has an objection open: the caller knows (the season close ends
    the objection time of its evenings, league.closing.services.season_close, and
    refuses while an objection is open)."""
    if not evening_ids:
        return
    now = timezone.now()
    evenings = Evening.objects.select_for_update().filter(
        pk__in=evening_ids, finalised_at__isnull=True
    )
    for evening in evenings:
        _declare_final(evening, by=by, reason=reason, now=now)
    _objections_changed(by.club_id)


def _declare_final(evening: Evening, *, by: Member, reason: str, now: datetime.datetime) -> None:
    """Set `evening`'s `finalised_at` to `now`, audited with `reason` and author `by`."""
    evening.finalised_at = now
    evening._change_reason = reason  # type: ignore[attr-defined]
    evening._history_user = by.user  # type: ignore[attr-defined]
    evening.save(update_fields=["finalised_at"])


# --- planned evenings (the calendar) ----------------------------------------------------

#: How far ahead the secretary may plan an evening, in days.
PLAN_AHEAD_DAYS = 366


def _plan_date(day: datetime.date, today: datetime.date, field: str) -> None:
    if day < today:
        raise BooksError("date_in_past", _("A planned evening lies today or later."), field=field)
    if day > today + datetime.timedelta(days=PLAN_AHEAD_DAYS):
        raise BooksError(
            "date_too_far",
            _("An evening is planned at most a year ahead."),
            field=field,
        )


def _planned_on(club: Club, day: datetime.date, today: datetime.date) -> PlannedEveningLine:
    weeks = max(PLANNED_WEEKS, (day - today).days // 7 + 1)
    for line in club_planned_evenings(club=club, today=today, weeks=weeks):
        if line.date == day and not line.cancelled:
            return line
    raise BooksError(
        "unknown_planned_evening",
        _("No evening is planned on %(date)s.") % {"date": day.strftime("%d.%m.%Y")},
        status=404,
    )


def _check_free(club: Club, day: datetime.date, today: datetime.date, field: str) -> None:
    weeks = max(PLANNED_WEEKS, (day - today).days // 7 + 1)
    taken = Evening.objects.filter(club=club, date=day).exists() or any(
        line.date == day and not line.cancelled
        for line in club_planned_evenings(club=club, today=today, weeks=weeks)
    )
    if taken:
        raise BooksError(
            "evening_planned_already",
            _("An evening is planned on %(date)s already.") % {"date": day.strftime("%d.%m.%Y")},
            field=field,
            status=409,
        )


@transaction.atomic
def planned_evening_add(
    *,
    club: Club,
    date: datetime.date,
    starts_at: datetime.time | None = None,
    today: datetime.date | None = None,
) -> PlannedEvening:
    """The secretary adds an evening to the calendar on `date` (from `today`, the club's
    day, to a year ahead) at `starts_at` (None: the statutes' `evening_time`). Audited.

    Raises BooksError `date_in_past`, `date_too_far` (400, field "date"),
    `evening_planned_already` (409) when an evening is planned or recorded on that date.
    """
    Club.objects.select_for_update().filter(pk=club.pk).first()  # one planner at a time
    today = today or timezone.localdate()
    _plan_date(date, today, "date")
    _check_free(club, date, today, "date")
    return PlannedEvening.objects.create(club=club, date=date, starts_at=starts_at)


@transaction.atomic
def planned_evening_move(
    *,
    club: Club,
    date: datetime.date,
    new_date: datetime.date,
    starts_at: datetime.time | None = None,
    today: datetime.date | None = None,
) -> PlannedEvening:
    """The secretary moves the evening planned on `date` to `new_date` at `starts_at`
    (None: the statutes' time); the calendar keeps it as the same event. Audited.

    Raises BooksError `unknown_planned_evening` (404) when none is planned on `date`,
    `date_in_past`, `date_too_far` (400, field "new_date"), `evening_planned_already`
    (409) when another is planned or recorded on `new_date`.
    """
    Club.objects.select_for_update().filter(pk=club.pk).first()
    today = today or timezone.localdate()
    line = _planned_on(club, date, today)
    _plan_date(new_date, today, "new_date")
    if new_date != date:
        _check_free(club, new_date, today, "new_date")
    row = (
        PlannedEvening.objects.get(pk=line.plan_id)
        if line.plan_id is not None
        else PlannedEvening(club=club, regular_date=line.regular_date)
    )
    row.date, row.starts_at = new_date, starts_at
    row.save()
    return row


@transaction.atomic
def planned_evening_cancel(
    *, club: Club, date: datetime.date, today: datetime.date | None = None
) -> PlannedEvening:
    """The secretary cancels the evening planned on `date`: the calendar shows it
    cancelled. Audited.

    Raises BooksError `unknown_planned_evening` (404) when none is planned on `date`.
    """
    Club.objects.select_for_update().filter(pk=club.pk).first()
    today = today or timezone.localdate()
    line = _planned_on(club, date, today)
    row = (
        PlannedEvening.objects.get(pk=line.plan_id)
        if line.plan_id is not None
        else PlannedEvening(club=club, regular_date=line.regular_date, date=date)
    )
    row.cancelled = True
    row.save()
    return row
