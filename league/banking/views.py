"""Pages of money in:

- ``verein/bankkonto/``  the club's bank account (secretary; audited);
- ``verein/bankimport/`` a bank statement (CAMT.053, MT940, CSV): lines with a person's RF
  reference are booked at once, name-and-amount guesses confirmed by the secretary;
- ``marken/girocode/``    the logged-in person's GiroCodes, one per EUR season with an open
  amount (the images come from ``GET /api/v1/members/{id}/girocode.png``);
- ``verein/export/datev.csv`` the DATEV Buchungsstapel of the kitty's payments (secretary);
- ``verein/export/jverein.zip`` the export for JVerein: people and bookings (secretary);
- ``benachrichtigungen/`` the logged-in person's reminder choices and calendar link;
- ``benachrichtigungen/abbestellen/<token>/`` the one-tap unsubscribe of a reminder kind
  (no login: the signed token names person and kind).
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt

from league.banking.bank_import import MAX_BYTES, BankLine, bank_lines_book
from league.banking.exports import datev_buchungsstapel, jverein_export
from league.banking.forms import BankStatementUploadForm, ClubBankAccountForm
from league.banking.models import NotificationKind
from league.banking.notifications import notification_unsubscribe_read
from league.banking.selectors import bank_account_of, member_girocode_rows
from league.banking.services import (
    club_bank_account_set,
    notification_choice_set,
    payment_reminders_set,
)
from league.banking.settlement import bank_statement_import
from league.banking.statement_files import parse_statement
from league.club.access import ClubRequest, member_required, secretary_required
from league.club.body_limits import body_limit
from league.club.errors import BooksError
from league.club.models import Member
from league.club.scoping import club_scope
from league.club.selectors import member_calendar_token
from league.club.services import member_calendar_revoke


@secretary_required
def club_bank_account(request: ClubRequest) -> HttpResponse:
    """Show and change the club's bank account (holder, IBAN, BIC)."""
    account = bank_account_of(club=request.club)
    initial = (
        {"holder": account.holder, "iban": account.iban, "bic": account.bic} if account else {}
    )
    form = ClubBankAccountForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            club_bank_account_set(club=request.club, **form.cleaned_data)
        except BooksError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("The bank account is saved."))
            return redirect("club_bank_account")
    history = account.history.select_related("history_user")[:10] if account else []
    context = {"form": form, "account": account, "history": history}
    return render(request, "league/banking/bank_account.html", context)


@member_required
def my_girocodes(request: ClubRequest) -> HttpResponse:
    """The logged-in person's open EUR amounts, each with its GiroCode."""
    member = request.member
    if request.method == "POST":
        payment_reminders_set(member=member, on=request.POST.get("reminders") == "on")
        messages.success(request, _("Your reminder setting is saved."))
        return redirect("my_girocodes")
    account = bank_account_of(club=request.club)
    rows = member_girocode_rows(club=request.club, member=member)
    context = {"member": member, "account": account, "rows": rows}
    return render(request, "league/banking/girocodes.html", context)


_SESSION_KEY = "bank_import_lines"


def _to_session(lines: list[BankLine]) -> list[dict]:
    return [
        {
            "line": x.line,
            "booked_on": x.booked_on.isoformat(),
            "value_on": x.value_on.isoformat() if x.value_on else None,
            "name": x.name,
            "reference": x.reference,
            "amount": str(x.amount),
            "line_hash": x.line_hash,
            "currency": x.currency,
            "bank_ref": x.bank_ref,
        }
        for x in lines
    ]


def _from_session(rows: list[dict]) -> list[BankLine]:
    return [
        BankLine(
            line=r["line"],
            booked_on=datetime.date.fromisoformat(r["booked_on"]),
            value_on=datetime.date.fromisoformat(r["value_on"]) if r["value_on"] else None,
            name=r["name"],
            reference=r["reference"],
            amount=Decimal(r["amount"]),
            line_hash=r["line_hash"],
            currency=r.get("currency", "EUR"),
            bank_ref=r.get("bank_ref", ""),
        )
        for r in rows
    ]


@body_limit(MAX_BYTES + 1024 * 1024)  # the statement and the form around it
@secretary_required
def bank_import(request: ClubRequest) -> HttpResponse:
    """Upload a bank statement (CAMT.053, MT940 or CSV): lines carrying a person's RF
    reference are booked at once (league/banking/settlement.py); the proposed guesses
    are booked when confirmed, through the ledger's payment service, each bank line once."""
    form = BankStatementUploadForm()
    proposals = None
    if request.method == "POST" and request.POST.get("action") == "confirm":
        lines = _from_session(request.session.get(_SESSION_KEY, []))
        confirmed = set(request.POST.getlist("line"))
        payments = bank_lines_book(
            club=request.club, lines=lines, confirmed=confirmed, user=request.user
        )
        request.session.pop(_SESSION_KEY, None)
        messages.success(
            request,
            ngettext("%(n)s payment booked.", "%(n)s payments booked.", len(payments))
            % {"n": len(payments)},
        )
        return redirect("bank_import")
    if request.method == "POST":
        form = BankStatementUploadForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                if upload.size > MAX_BYTES:
                    raise BooksError("file_too_large", _("The file is larger than 2 MB."))
                lines = parse_statement(club=request.club, data=upload.read(MAX_BYTES + 1))
            except BooksError as exc:
                form.add_error("file", exc.message)
            else:
                # Lines with a person's RF reference are booked now; the guesses wait.
                result = bank_statement_import(club=request.club, lines=lines, user=request.user)
                proposals = result.to_review
                request.session[_SESSION_KEY] = _to_session([p.bank_line for p in proposals])
                if result.settled:
                    messages.success(
                        request,
                        ngettext(
                            "%(n)s payment booked by its RF reference.",
                            "%(n)s payments booked by their RF reference.",
                            len(result.settled),
                        )
                        % {"n": len(result.settled)},
                    )
                if result.duplicates:
                    messages.info(
                        request,
                        _("Lines booked before (skipped): %(n)s") % {"n": len(result.duplicates)},
                    )
    context = {"form": form, "proposals": proposals}
    return render(request, "league/banking/bank_import.html", context)


def _export_year(request: ClubRequest) -> int | None:
    """The year of ``?jahr=YYYY`` (default: this year); None for anything but a year
    from 1950 to 2100."""
    raw = request.GET.get("jahr", "")
    if not raw:
        return timezone.localdate().year
    # Four ASCII digits before int(): a 5,000-digit year is refused, not converted.
    if not (len(raw) == 4 and raw.isascii() and raw.isdigit() and 1950 <= int(raw) <= 2100):
        return None
    return int(raw)


@secretary_required
def datev_export(request: ClubRequest) -> HttpResponse:
    """The DATEV Buchungsstapel of the kitty's euro payments of ``?jahr=YYYY`` (default:
    this year; anything but a year from 1950 to 2100: 400 with a German message)."""
    year = _export_year(request)
    if year is None:
        return HttpResponseBadRequest(_("Give the year as four digits, e.g. 2026."))
    data = datev_buchungsstapel(club=request.club, year=year)
    response = HttpResponse(data, content_type="text/csv; charset=windows-1252")
    response["Content-Disposition"] = f'attachment; filename="EXTF_Buchungsstapel_{year}.csv"'
    return response


@secretary_required
def jverein_export_view(request: ClubRequest) -> HttpResponse:
    """ "Export für JVerein": a ZIP of the club's people (JVerein's member import) and the
    kitty's euro bookings of ``?jahr=YYYY`` (default: this year; its booking import;
    league/banking/exports.py `jverein_export` names the columns). Secretary only;
    anything but a year from 1950 to 2100: 400 with a German message."""
    year = _export_year(request)
    if year is None:
        return HttpResponseBadRequest(_("Give the year as four digits, e.g. 2026."))
    response = HttpResponse(
        jverein_export(club=request.club, year=year), content_type="application/zip"
    )
    response["Content-Disposition"] = f'attachment; filename="JVerein_{year}.zip"'
    return response


@csrf_exempt  # the signed token is the credential; mail apps POST here (RFC 8058)
def notification_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """One-tap unsubscribe of a reminder kind (league/banking/notifications.py): GET
    shows a button, POST (the button, or a mail app's List-Unsubscribe-Post) turns both
    e-mail and push of that kind off for the person the signed token names. A forged
    token: 404."""
    found = notification_unsubscribe_read(token=token)
    if found is None:
        raise Http404
    member, kind = found
    done = request.method == "POST"
    if done:
        with club_scope(member.club_id):  # no login: the token's person's club
            notification_choice_set(member=member, kind=kind, email=False, push=False)
    context = {"done": done, "kind": NotificationKind(kind).label, "token": token}
    return render(request, "league/banking/unsubscribe.html", context)


@member_required
def notification_choices_page(request: ClubRequest) -> HttpResponse:
    """The person's reminders (by e-mail, by push, per kind), the buttons that switch web
    push on and off for this device (static/js/push.js; only when the site has a VAPID
    public key), and their secret calendar link. POST saves the choices
    (`notification_choice_set`), or with ``action=revoke`` revokes the calendar link
    (`member_calendar_revoke`) and shows the new one."""
    member = request.member
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            member_calendar_revoke(member=member)
            messages.success(
                request, _("The old calendar link no longer works; here is the new one.")
            )
        else:
            for kind in NotificationKind.values:
                notification_choice_set(
                    member=member,
                    kind=kind,
                    email=f"{kind}-email" in request.POST,
                    push=f"{kind}-push" in request.POST,
                )
            messages.success(request, _("Your choices are saved."))
        return redirect("notification_choices")
    member = Member.objects.get(pk=member.pk)  # the calendar version as it is now
    kept = {c.kind: c for c in member.notification_choices.all()}
    kinds = [
        {
            "kind": kind,
            "label": label,
            "email": kept[kind].email if kind in kept else True,
            "push": kept[kind].push if kind in kept else True,
        }
        for kind, label in NotificationKind.choices
    ]
    path = reverse("calendar_feed", args=[member_calendar_token(member=member)])
    context = {
        "kinds": kinds,
        "calendar_url": request.build_absolute_uri(path),
        "push_public_key": settings.VAPID_PUBLIC_KEY,
    }
    return render(request, "league/banking/notifications.html", context)
