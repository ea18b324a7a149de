"""Monthly payment reminders: an e-mail to every member who owes more
than ``REMINDER_THRESHOLD`` EUR, with the GiroCode of each open season attached as a PNG.

Once a month per member (PaymentReminder's unique member and month: a second run, or two
workers, send nothing more); members who opted out (``Member.payment_reminders`` off),
guests, and people without a login e-mail get none. The e-mail goes through Django's
backend (the console unless EMAIL_HOST is set, settings.py).
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import translation
from django.utils.translation import gettext as _

from league.banking.girocode import (
    girocode_of,
    girocode_png,
)
from league.banking.models import (
    ClubBankAccount,
    NotificationChoice,
    NotificationKind,
    PaymentReminder,
)
from league.banking.selectors import (
    member_open_seasons,
)
from league.club.models import Member
from league.club.scoping import across_clubs, club_scope

#: The open amount (EUR, all seasons together) above which a member is reminded.
REMINDER_THRESHOLD = Decimal("5.00")


def payment_reminders_send(*, today: datetime.date) -> int:
    """Send this month's reminders (``today``: the club's date, Europe/Berlin); returns how
    many e-mails were sent. A failed e-mail is not recorded, so the next run tries again.
    Not to a person who turned reminders off on the GiroCode page (`payment_reminders`)
    or turned the open-amount messages off by e-mail (`NotificationChoice`)."""
    month = today.replace(day=1)
    with across_clubs():  # the people to remind, of every club
        accounts = {a.club_id: a for a in ClubBankAccount.objects.all()}
        members = (
            Member.objects.filter(
                kind=Member.Kind.MEMBER,
                payment_reminders=True,
                user__isnull=False,
                club_id__in=accounts,
            )
            .exclude(user__email="")
            .exclude(payment_reminders_sent__month=month)
            # One consent, two switches: the open-amount messages turned off by e-mail (the
            # notifications page, the one-tap unsubscribe) stop this reminder too.
            # (an Exists: the two conditions must hold for the same choice, which a single
            # exclude() across the relation does not promise)
            .exclude(
                Exists(
                    NotificationChoice.objects.filter(
                        member=OuterRef("pk"), kind=NotificationKind.OPEN_AMOUNT, email=False
                    )
                )
            )
            .select_related("user", "club")
        )
        due = list(members)
    sent = 0
    for member in due:
        with club_scope(member.club_id):  # each person in the scope of its club
            sent += _remind(member, month, accounts[member.club_id])
    return sent


def _remind(member: Member, month: datetime.date, account: ClubBankAccount) -> int:
    """Reminds `member` of its open amount: 1 when the e-mail went out, 0 when the amount
    is too small or another run reminded the person this month."""
    open_seasons = member_open_seasons(member=member)
    total = sum((amount for _season, amount in open_seasons), Decimal("0"))
    if total <= REMINDER_THRESHOLD:
        return 0
    try:
        with transaction.atomic():
            PaymentReminder.objects.create(
                club_id=member.club_id, member=member, month=month, amount=total
            )
            _mail(member, account, open_seasons, total)
    except IntegrityError:
        return 0  # another run reminded this member this month
    return 1


def _mail(member: Member, account: ClubBankAccount, open_seasons, total: Decimal) -> None:
    with translation.override("de"):
        lines = [
            _("Hello %(name)s,") % {"name": member.name},
            "",
            _("%(club)s: you still owe %(total)s EUR to the kitty.")
            % {"club": member.club.name, "total": f"{total:.2f}".replace(".", ",")},
        ]
        for season, amount in open_seasons:
            lines.append(
                _("Season %(year)s: %(amount)s EUR")
                % {"year": season.year, "amount": f"{amount:.2f}".replace(".", ",")}
            )
        lines += [
            "",
            _("Scan the attached GiroCode with your banking app to pay."),
            f"{account.holder} · {account.iban}",
            "",
            _("You can turn these reminders off on your GiroCode page."),
        ]
        message = EmailMessage(
            subject=_("Schockclub: open amount"),
            body="\n".join(lines),
            to=[member.user.email] if member.user else [],
        )
    for season, amount in open_seasons:
        code = girocode_of(account=account, member=member, season=season, amount=amount)
        if code is not None:
            message.attach(f"girocode-{season.year}.png", girocode_png(code), "image/png")
    message.send()
