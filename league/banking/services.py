"""Writes of the club's bank account, of a person's reminder choices and of a browser's
push subscription. Not the books: no Marks or money move, so no books-changed event; the
changes are audited by django-simple-history (the request's user through its middleware)
where the model keeps a history."""

from __future__ import annotations

import unicodedata

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from schwifty import BIC, IBAN
from schwifty.exceptions import SchwiftyException

from league.banking.models import (
    ClubBankAccount,
    NotificationChoice,
    NotificationKind,
    PushSubscription,
)
from league.banking.selectors import push_endpoint_allowed
from league.club.books import register_changed
from league.club.errors import BooksError
from league.club.models import Club, Member


def _clean_text(value: str, *, field: str, maximum: int) -> str:
    text = " ".join(value.split())
    if not text or len(text) > maximum:
        raise BooksError(
            "invalid_holder",
            _("Enter the account holder (at most %(max)s characters).") % {"max": maximum},
            field=field,
        )
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise BooksError("invalid_holder", _("The account holder has invalid characters."))
    return text


def club_bank_account_set(*, club: Club, holder: str, iban: str, bic: str = "") -> ClubBankAccount:
    """Set the club's bank account: ``holder`` (1 to 70 characters, no control characters),
    ``iban`` (any spacing and case; stored compact; checksum, length and bank code checked
    by schwifty), ``bic`` (empty, or 8/11 characters checked by schwifty). Returns the row.

    Raises BooksError: invalid_holder, invalid_iban, invalid_bic (field named, German
    message); nothing is saved then.
    """
    holder = _clean_text(holder, field="holder", maximum=70)
    try:
        iban_compact = IBAN(iban).compact
    except (SchwiftyException, ValueError, TypeError) as exc:
        raise BooksError("invalid_iban", _("This IBAN is not valid."), field="iban") from exc
    bic_compact = ""
    if bic.strip():
        try:
            bic_compact = BIC(bic).compact
        except (SchwiftyException, ValueError, TypeError) as exc:
            raise BooksError("invalid_bic", _("This BIC is not valid."), field="bic") from exc
    with transaction.atomic():
        account, _created = ClubBankAccount.objects.select_for_update().get_or_create(
            club=club, defaults={"holder": holder, "iban": iban_compact, "bic": bic_compact}
        )
        if not _created and (account.holder, account.iban, account.bic) != (
            holder,
            iban_compact,
            bic_compact,
        ):
            account.holder, account.iban, account.bic = holder, iban_compact, bic_compact
            account.save()
            register_changed(club=club.pk)
        elif _created:
            register_changed(club=club.pk)
    return account


def payment_reminders_set(*, member: Member, on: bool) -> Member:
    """Turn `member`'s monthly payment reminder (and with it the weekly open-amount
    message, league.banking.notifications) on or off: the person's own choice on the
    GiroCode page. Recorded in the person's audit trail (reason "payment_reminders");
    no change of the books or the register (no page shows it but the person's own)."""
    if member.payment_reminders != on:
        member.payment_reminders = on
        member._change_reason = "payment_reminders"  # type: ignore[attr-defined]
        member.save(update_fields=["payment_reminders"])
    return member


@transaction.atomic
def notification_choice_set(
    *, member: Member, kind: str, email: bool, push: bool
) -> NotificationChoice:
    """Set how `member` hears of `kind` (a `NotificationKind` value): by e-mail, by push,
    both or neither. Audited (django-simple-history). Raises ValueError for an unknown
    kind (the interfaces offer only the kinds)."""
    if kind not in NotificationKind.values:
        raise ValueError(kind)
    choice, _created = NotificationChoice.objects.select_for_update().get_or_create(
        club_id=member.club_id, member=member, kind=kind
    )
    choice.email, choice.push = email, push
    choice.save()
    return choice


@transaction.atomic
def push_subscription_save(
    *, member: Member, endpoint: str, p256dh: str, auth: str
) -> PushSubscription:
    """Keep a browser's push subscription for `member` (the endpoint is the key: a browser
    that subscribes again, or passes to another login, updates its row and counts as new).
    A person keeps at most settings.PUSH_SUBSCRIPTIONS_PER_PERSON browsers: the oldest
    beyond that are deleted.

    Raises BooksError `push_endpoint_not_allowed` (field endpoint) when the endpoint is not
    an address of a known push service (`push_endpoint_allowed`); nothing is saved then."""
    if not push_endpoint_allowed(endpoint):
        raise BooksError(
            "push_endpoint_not_allowed",
            _("This address is not one of a known push service of a browser."),
            field="endpoint",
        )
    # The person's row lock: two browsers subscribing at once count one after the other.
    Member.objects.select_for_update().filter(pk=member.pk).exists()
    # The endpoint is unique per club: a browser passing to a login of another club leaves
    # its row there (the shared phone hears no more of the other club's person).
    PushSubscription.objects.filter(endpoint=endpoint).exclude(club_id=member.club_id).delete()
    subscription, _created = PushSubscription.objects.update_or_create(
        club_id=member.club_id,
        endpoint=endpoint,
        defaults={"member": member, "p256dh": p256dh, "auth": auth, "created_at": timezone.now()},
    )
    beyond = PushSubscription.objects.filter(member=member).order_by("-created_at", "-pk")[
        settings.PUSH_SUBSCRIPTIONS_PER_PERSON :
    ]
    PushSubscription.objects.filter(pk__in=list(beyond.values_list("pk", flat=True))).delete()
    return subscription


@transaction.atomic
def push_subscription_delete(*, member: Member, endpoint: str) -> bool:
    """Forget the browser subscription `endpoint` of `member` (its device switched push
    off). Only the person's own row: another login's subscription with that endpoint is
    left alone. Returns whether a row was deleted; deleting again deletes nothing."""
    deleted, _per_model = PushSubscription.objects.filter(member=member, endpoint=endpoint).delete()
    return deleted > 0


def push_subscriptions_of_login_delete(*, user: User) -> int:
    """Forget every browser push subscription of the person whose login is `user`; how many
    there were. Connected to the end of a login's access (league.club.accounts.services
    `login_ended_connect`: a logout, page or API, a password set by any path, the login
    locked), so that a shared phone no longer shows the previous person's reminders."""
    deleted: int = PushSubscription.objects.filter(member__user=user).delete()[0]
    return deleted
