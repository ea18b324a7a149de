"""The round-by-round entry form: reading what the secretary typed, and showing the rules'
answer beside it.

Translation only: text in, ``RoundInput``/``ThrowInput`` out, and back for re-display. The
rules decide whether a throw could have happened (games/rounds/services.py), and
games/rounds/feedback.py says what each played round and throw was.

Notation of a turn entered attempt by attempt (one text field): attempts separated by
``/``; each attempt is the dice rolled, then optionally ``:`` and what was laid out after
it: the ones kept, and ``u`` for each one made by Umwandlung. Examples (the sample's game
20): Erik ``145:1 / 61:1 / 1``, Bernd ``452 / 111``; two sixes turned into a one:
``663:u / 41:1 / 5``. A final throw is typed as its dice (``655``, ``6 5 5`` or ``6-5-5``)
with the attempts and whether it came "aus der Hand" (natural).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.http import QueryDict
from django.utils.translation import gettext as _

from games.rounds.feedback import PlayedRound
from games.rounds.selectors import (
    KINDS,
    RoundInput,
    ThrowInput,
)
from games.rules import RuleSet
from league.club.models import Member
from league.club.selectors import whole_number

_ATTEMPT_RE = re.compile(r"^\s*([0-9][0-9\s,.\-]*?)\s*(?:[:>]\s*([0-9uU\s,.\-]*))?\s*$")
_FIELD_RE = re.compile(r"^rounds\[(\d+)\](?:\.throws\[(\d+)\]|\.player|\.after)?$")
MAX_ROUNDS = 60
MAX_ROWS = 12


class NotationError(ValueError):
    """Text that cannot be read as dice or attempts."""


def parse_dice(text: str) -> list[int] | None:
    """``"655"``, ``"6 5 5"``, ``"6-5-5"`` -> ``[6, 5, 5]``; empty -> None. Any number of
    digits is returned: the rules say what is wrong with them."""
    digits = re.findall(r"[0-9]", text or "")
    return [int(d) for d in digits] or None


def parse_turn(text: str) -> list[dict] | None:
    """The attempt notation (module docstring) -> ``[{"rolled", "keep", "umwandlung"}]``;
    empty -> None. Raises NotationError for text that is not in the notation."""
    text = (text or "").strip()
    if not text:
        return None
    attempts = []
    for part in re.split(r"[/;\n]", text):
        if not part.strip():
            continue
        match = _ATTEMPT_RE.match(part)
        if not match:
            raise NotationError(part.strip())
        rolled = [int(d) for d in re.findall(r"[0-9]", match.group(1))]
        after = match.group(2) or ""
        attempts.append(
            {
                "rolled": rolled,
                "keep": [int(d) for d in re.findall(r"[0-9]", after)],
                "umwandlung": after.lower().count("u"),
            }
        )
    if not attempts:
        raise NotationError(text)
    return attempts


def notation_message(exc: NotationError) -> str:
    """The German message for attempts that cannot be read."""
    return _("The attempts cannot be read: “%(text)s”. Example: 145:1 / 61:1 / 1") % {"text": exc}


def default_attempts(dice: object, attempts: str, natural: bool) -> tuple[int | None, bool]:
    """The attempts and "aus der Hand" of a throw entered as its final dice: as given, or,
    when the secretary gave no attempts, what the dice show: three dice thrown once (one
    attempt, all three dice from it: aus der Hand). Without dice, None (nothing entered)."""
    if attempts in ("1", "2", "3"):
        return int(attempts), natural
    if dice is None:
        return None, natural
    return 1, True


def throw_query(query: QueryDict, *, default_max_attempts: int) -> dict:
    """The throw of the live-feedback query (``throw_feedback``'s arguments): ``dice``,
    ``attempts`` ("1" to "3", else None), ``natural``, ``turn`` (the attempt notation;
    raises NotationError) and ``max_attempts`` (1 to 3, else the default). Dice without
    attempts are what the dice show: three dice thrown once (`default_attempts`)."""
    dice = parse_dice(query.get("dice", ""))
    attempts, natural = default_attempts(
        dice, query.get("attempts", ""), query.get("natural") in ("1", "on", "true")
    )
    max_attempts = whole_number(query.get("max_attempts"), maximum=3)
    return {
        "dice": dice,
        "attempts": attempts,
        "natural": natural,
        "turn": parse_turn(query.get("turn", "")),
        "max_attempts": max_attempts or default_max_attempts,
    }


@dataclass
class Row:
    """One throw row of the form, as typed, with what the page shows beside it."""

    player_id: str = ""
    dice: str = ""
    attempts: str = ""
    natural: bool = True
    turn: str = ""
    error: str = ""
    result: dict | None = None  # after a check: label, deckel, muss_regel

    @property
    def empty(self) -> bool:
        """Nothing typed: a pre-filled player alone does not make a throw."""
        return not (self.dice.strip() or self.turn.strip() or self.attempts)


#: Entries without throws: they name a player (docs/rules.md 4).
PLAYER_KINDS = ("choose_opener", "join", "leave")


@dataclass
class RoundBlock:
    """One entry of the form (docs/rules.md 4): ``kind`` (services.KINDS), its throw rows, and
    for the seed actions ``who`` (member id: taker, opener, who joins or leaves),
    ``after`` (member id a joining player sits after) and ``covered`` (the covered dice of
    Deckel nehmen, as typed)."""

    rows: list[Row] = field(default_factory=list)
    error: str = ""
    summary: dict | None = None  # after a check: loser, moved, source, stock, deckel
    schock_aus_before: int = 0  # evening's Schock-Aus before this round (live feedback)
    kind: str = "round"
    who: str = ""
    after: str = ""
    covered: str = ""

    @property
    def thrown(self) -> bool:
        """The entry has throw rows (a round, an Ausscheidung step, Deckel nehmen)."""
        return self.kind not in PLAYER_KINDS

    @property
    def empty(self) -> bool:
        return not self.rows and not self.who


@dataclass
class RoundsEntry:
    """The whole form: game number and the rounds typed so far."""

    number: int | None
    rounds: list[RoundBlock]
    error: str = ""
    version: str = ""
    # The page asks whether to save a game beyond the evening's target count (Abendsoll);
    # its "Yes, save anyway" button posts the same rounds with action ``confirm_target``.
    target_question: bool = False

    @classmethod
    def initial(cls, *, number: int, order: list[Member], version: int) -> RoundsEntry:
        return cls(number=number, rounds=[_block(order)], version=str(version))

    @classmethod
    def from_post(cls, data: QueryDict) -> RoundsEntry:
        try:
            number = int(data.get("number", ""))
        except ValueError:
            number = None
        rounds = []
        count = _int(data.get("rounds"), 1, MAX_ROUNDS)
        for i in range(count):
            kind = data.get(f"r{i}_kind", "round")
            block = RoundBlock(
                kind=kind if kind in KINDS else "round",
                who=data.get(f"r{i}_who", "").strip(),
                after=data.get(f"r{i}_after", "").strip(),
                covered=data.get(f"r{i}_covered", "").strip(),
            )
            for j in range(_int(data.get(f"r{i}_n"), 0, MAX_ROWS)):
                p = f"r{i}_{j}_"
                block.rows.append(
                    Row(
                        player_id=data.get(p + "player", "").strip(),
                        dice=data.get(p + "dice", "").strip(),
                        attempts=data.get(p + "attempts", "").strip(),
                        natural=data.get(p + "natural") in ("on", "1", "true"),
                        turn=data.get(p + "turn", "").strip(),
                    )
                )
            rounds.append(block)
        return cls(number=number, rounds=rounds, version=data.get("version", ""))

    def drop_empty(self) -> None:
        """Forget empty rows and rounds (the secretary left them blank)."""
        for block in self.rounds:
            # Deckel nehmen: the rows after the taker keep their players (the seating).
            keep = block.kind == "deckel_nehmen"
            block.rows = [r for r in block.rows if not r.empty or (keep and r.player_id)]
        self.rounds = [b for b in self.rounds if not b.empty]

    def inputs(self, people: dict[int, Member]) -> list[RoundInput] | None:
        """The rounds as service input; None when a row cannot be read (its ``error`` is
        set). ``people``: the evening's present people by id."""
        result, ok = [], True
        for block in self.rounds:
            throws, seated = [], []
            for row in block.rows:
                if block.kind == "deckel_nehmen" and row.empty:
                    seated += [m for m in [_member(row.player_id, people)] if m is not None]
                    continue
                thrown = _row_input(row, people)
                if thrown is None:
                    ok = False
                else:
                    throws.append(thrown)
            entry = _block_input(block, throws, people, seated)
            if entry is None:
                ok = False
            else:
                result.append(entry)
        return result if ok else None

    def attach_error(self, field_name: str | None, message: str) -> None:
        """Show a service error (``field`` ``rounds[i].throws[j]``) at its row or round."""
        match = _FIELD_RE.match(field_name or "")
        if match:
            i = int(match.group(1))
            if i < len(self.rounds):
                block = self.rounds[i]
                j = match.group(2)
                if j is not None and int(j) < len(block.rows):
                    block.rows[int(j)].error = message
                else:
                    block.error = message
                return
        self.error = message

    def add_round(self, order: list[Member], kind: str = "round") -> None:
        if len(self.rounds) < MAX_ROUNDS:
            self.rounds.append(_block(order, kind))

    def show_play(
        self,
        played: list[PlayedRound],
        *,
        schock_aus_after: int,
        next_order: list[Member] | None,
        tied: list[Member] | None = None,
    ) -> None:
        """Show each played entry's result beside its rows; with ``next_order`` (the game
        goes on) add the next round's empty rows in that throwing order, or with ``tied``
        the re-throw of the Ausscheidung's tied players (docs/rules.md 4)."""
        for block, shown in zip(self.rounds, played, strict=True):
            block.schock_aus_before = shown.schock_aus_before
            block.summary = shown.summary
            for row in block.rows:
                row.result = shown.results.get(whole_number(row.player_id) or 0)
        if tied:
            self.add_round(tied, "ausscheidung")
        elif next_order is not None:
            self.add_round(next_order)
        else:
            return
        self.rounds[-1].schock_aus_before = schock_aus_after


def offered_kinds(rules: RuleSet) -> list[tuple[str, str]]:
    """The kinds of entry the page offers under ``rules`` (docs/rules.md 4: each seed action
    only where its flag is on), as (kind, label); empty when there is only the round."""
    kinds = [("round", _("Round"))]
    if rules.ausscheidung:
        kinds.append(("ausscheidung", _("Ausscheidung")))
    if rules.deckel_nehmen:
        kinds.append(("deckel_nehmen", _("Deckel nehmen")))
    if rules.opener_choice:
        kinds.append(("choose_opener", _("Opener of the second half")))
    if rules.einwuerfeln:
        kinds += [("join", _("A player joins")), ("leave", _("A player leaves"))]
    return kinds if len(kinds) > 1 else []


def _block(order: list[Member], kind: str = "round") -> RoundBlock:
    rows = [Row(player_id=str(m.pk)) for m in order] if kind not in PLAYER_KINDS else []
    return RoundBlock(rows=rows, kind=kind)


def _member(value: str, people: dict[int, Member]) -> Member | None:
    number = whole_number(value)
    return None if number is None else people.get(number)


def _block_input(
    block: RoundBlock,
    throws: list[ThrowInput],
    people: dict[int, Member],
    seated: list[Member],
) -> RoundInput | None:
    """The block as the service's RoundInput (docs/rules.md 4); ``seated``: the players of a
    Deckel-nehmen block's empty rows (those after the taker, and the taker). None when its
    player cannot be read (``block.error`` set). The rules decide whether it may happen."""
    if block.kind in ("round", "ausscheidung"):
        return RoundInput(throws=throws, kind=block.kind)
    player = _member(block.who, people)
    if player is None:
        block.error = _("Choose a player who was present.")
        return None
    covered = parse_dice(block.covered) if block.kind == "deckel_nehmen" else None
    after = _member(block.after, people) if block.kind == "join" else None
    not_thrown = [m for m in seated if m != player]
    return RoundInput(
        throws=throws,
        kind=block.kind,
        player=player,
        after=after,
        covered=covered,
        not_thrown=not_thrown,
    )


def _int(value: str | None, low: int, high: int) -> int:
    number = whole_number(value)
    return low if number is None else max(low, min(high, number))


def _row_input(row: Row, people: dict[int, Member]) -> ThrowInput | None:
    try:
        player = people.get(int(row.player_id))
    except ValueError:
        player = None
    if player is None:
        row.error = _("Choose a player who was present.")
        return None
    try:
        turn = parse_turn(row.turn)
    except NotationError as exc:
        row.error = notation_message(exc)
        return None
    if turn is not None:
        return ThrowInput(player=player, turn=turn)
    dice = parse_dice(row.dice)
    attempts, natural = default_attempts(dice, row.attempts, row.natural)
    return ThrowInput(player=player, dice=dice, attempts=attempts, natural=natural)
