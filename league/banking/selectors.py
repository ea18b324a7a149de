"""Reads of a member's GiroCode (EPC069-12 version 002, league/banking/girocode.py): which
amount of which season it asks for, with which reference, and who may see it.

A code exists only when the club has a bank account, the season is kept in EUR (a DM season
cannot be paid by SEPA) and the member owes money in it (the ledger's balance,
``league.ledger.selectors.member_balance``; nothing open or a credit: no code). The person
themself and the club's secretary see it; anyone else is refused (`not_own_statement`).
Money is Decimal EUR. Nothing here writes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import Sum
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from league.banking.girocode import GiroCode, girocode_of, girocode_png, girocode_reference
from league.banking.models import ClubBankAccount, PushSubscription
from league.club.caching import KeptRead
from league.club.errors import BooksError
from league.club.models import Club, Member, Season
from league.club.money import round_money
from league.ledger.selectors import member_balance


def member_girocode(*, member: Member, season: Season) -> GiroCode | None:
    """The GiroCode of ``member``'s open amount in ``season``, or None: no club bank account,
    a season not in EUR, or nothing open (balance <= 0). Two queries."""
    account = ClubBankAccount.objects.filter(club_id=member.club_id).first()
    if account is None or season.currency != "EUR":
        return None
    amount = member_balance(member=member, season=season)
    return girocode_of(account=account, member=member, season=season, amount=amount)


def member_open_seasons(*, member: Member) -> list[tuple[Season, Decimal]]:
    """The EUR seasons in which ``member`` owes money (balance > 0), newest first, with the
    amount (Decimal EUR, cents). One query."""
    seasons = (
        Season.objects.filter(club_id=member.club_id, currency="EUR", ledger_entries__member=member)
        .annotate(open_amount=Sum("ledger_entries__amount"))
        .filter(open_amount__gt=0)
        .order_by("-year")
    )
    return [(season, round_money(season.open_amount)) for season in seasons]


def bank_account_of(*, club: Club) -> ClubBankAccount | None:
    """The club's bank account, or None when the secretary has not entered one. One query."""
    return ClubBankAccount.objects.filter(club=club).first()


def girocode_access_check(*, member: Member, viewer: Member | None) -> None:
    """Who may see a person's GiroCode and transfer details: the person themself or a
    secretary of the club. Raises BooksError `not_own_statement` (403) for anyone else."""
    if viewer is not None and (viewer.pk == member.pk or viewer.is_secretary):
        return
    raise BooksError(
        "not_own_statement", _("Only the member themself or the secretary."), status=403
    )


def _no_girocode(account: ClubBankAccount | None) -> BooksError:
    """`no_girocode` (404): the club has no bank account, or nothing is open."""
    if account is None:
        return BooksError(
            "no_girocode", _("The club has not entered its bank account yet."), status=404
        )
    return BooksError("no_girocode", _("There is nothing open to pay."), status=404)


def member_girocode_asked(
    *, member: Member, season: Season | None, account: ClubBankAccount | None
) -> GiroCode:
    """The GiroCode a person asks for: of `season` when given (the person's balance in it),
    else of the newest EUR season with an open amount (one query whether or not anything
    is open). Raises BooksError `no_girocode` (404) without a club bank account, for a DM
    season, or when nothing is open (a credit included)."""
    code = None
    if account is not None and season is not None:
        amount = member_balance(member=member, season=season)
        code = girocode_of(account=account, member=member, season=season, amount=amount)
    elif account is not None:
        open_seasons = member_open_seasons(member=member)
        if open_seasons:
            newest, amount = open_seasons[0]
            code = girocode_of(account=account, member=member, season=newest, amount=amount)
    if code is None:
        raise _no_girocode(account)
    return code


#: A person's GiroCode PNG: the books and the person (the call adds the season's id
#: asked for and the bank account's fields, which the books do not hold).
GIROCODE_PNG = KeptRead("girocode_png", depends=("books", "person"))


def member_girocode_png(*, club: Club, member: Member, season_id: int | None) -> bytes:
    """The PNG of `member_girocode_asked` for the season of id `season_id` (None: the
    newest open one). Raises Http404 for a season not of `club`, BooksError `no_girocode`
    (404) as `member_girocode_asked`.

    The PNG (drawing it costs about twice a trivial read) is kept per books version (the
    amount, the member's name in the reference), member, season asked for and bank account
    (not part of the books: its fields are in the key). A refusal raises in the build and
    is never kept; without an account every answer is one."""
    account = bank_account_of(club=club)

    def build() -> bytes:
        season = None if season_id is None else get_object_or_404(Season, pk=season_id, club=club)
        return girocode_png(member_girocode_asked(member=member, season=season, account=account))

    if account is None:
        return build()
    return GIROCODE_PNG.cached(
        season_id,
        (account.holder, account.iban, account.bic),
        club=club,
        member=member,
        build=build,
    )


def member_payment_girocode(*, club: Club, member: Member) -> GiroCode:
    """How a person pays everything open at once: the GiroCode of the sum over every EUR
    season with an open amount (Decimal EUR; the oldest is settled first when the transfer
    arrives), with the reference of the newest of them. Raises BooksError `no_girocode`
    (404) without a club bank account or when nothing is open."""
    account = bank_account_of(club=club)
    if account is None:
        raise _no_girocode(account)
    open_seasons = member_open_seasons(member=member)
    total = sum((amount for _season, amount in open_seasons), Decimal(0))
    code = (
        girocode_of(account=account, member=member, season=open_seasons[0][0], amount=total)
        if open_seasons
        else None
    )
    if code is None:
        raise _no_girocode(account)
    return code


@dataclass(frozen=True)
class GiroCodeRow:
    """One open EUR season of a person's GiroCode page: the season, the open `amount`
    (Decimal EUR) and the RF `reference` of its transfer."""

    season: Season
    amount: Decimal
    reference: str


#: A person's open EUR seasons with amounts and references: the books and the person.
GIROCODE_ROWS = KeptRead("girocode_rows", depends=("books", "person"))


def member_girocode_rows(*, club: Club, member: Member) -> list[GiroCodeRow]:
    """The person's open EUR seasons, newest first, each with its amount and reference (the
    GiroCode page; the images come from the API). Kept per books version and person: the
    sum over the person's ledger lines of every EUR season is not made on each read."""
    return GIROCODE_ROWS.cached(
        club=club,
        member=member,
        build=lambda: [
            GiroCodeRow(
                season=season,
                amount=amount,
                reference=girocode_reference(member=member, season=season),
            )
            for season, amount in member_open_seasons(member=member)
        ],
    )


_HOST = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")


def push_endpoint_allowed(endpoint: str) -> bool:
    """Whether `endpoint` is an address of a known browser push service: https, no user or
    password part, port 443 or none, and a host (letters, digits, dots and dashes) that is
    one of settings.PUSH_SERVICE_HOSTS or lies under one on a dot boundary
    (`updates.push.services.mozilla.com` under `push.services.mozilla.com`, not
    `evilpush.services.mozilla.com.example`). The worker POSTs every reminder there, so
    nothing else (the site's own network, localhost, an address) is let through."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    host = parts.hostname or ""
    if (
        parts.scheme != "https"
        or parts.netloc.lower() not in (host, f"{host}:443")  # no user part, no odd port
        or port not in (None, 443)
        or not _HOST.fullmatch(host)
    ):
        return False
    return any(
        host == allowed or host.endswith("." + allowed) for allowed in settings.PUSH_SERVICE_HOSTS
    )


def push_subscription_kept(*, member: Member, endpoint: str) -> bool:
    """Whether `member` keeps a browser push subscription with exactly `endpoint`: the
    reminders page asks before it says "on" (a subscription the browser holds may belong
    to an earlier login on a shared phone, or the server dropped it). Another person's
    row with that endpoint does not count. One query on the unique (club, endpoint)
    index; not kept in the cache."""
    return PushSubscription.objects.filter(
        club_id=member.club_id, member=member, endpoint=endpoint
    ).exists()
