"""Pages of the kitty, the Runden, the club-book import/export and the audit trail (issue 6).

Members read their own statement and the Runden; the secretary reads every statement and
the overview, enters payments, marks Runden as given, imports and exports the club book
and browses the audit trail. Another club's objects are 404 (querysets scoped to
request.club). Figures come from services and selectors; the views parse and render.
"""

import datetime
import hashlib
import secrets
import shutil
import time
from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.models import Evening, SchockAus
from games.services.runden import (
    STATUS_ALL,
    STATUS_GIVEN,
    STATUS_OPEN,
    runde_mark_given,
    runde_unmark,
    runden_overview,
)
from league.access import member_required, secretary_required
from league.audit import club_audit_recent, evening_audit, member_audit
from league.errors import BooksError
from league.models import Member, Payment, Season
from league.services.club_book import club_book_export, club_book_import
from league.services.ledger import club_balances, member_statement, payment_cancel, payment_record

AUDIT_LINES_SHOWN = 300
MAX_UPLOAD_BYTES = 20 * 1024 * 1024


def _season_param(request: HttpRequest, *, default_current: bool = False) -> Season | None:
    """The club's season named by ?saison=YYYY (404 if unknown); None for ?saison=alle or
    no parameter, unless `default_current`: then the season of today (else the latest)."""
    year = request.GET.get("saison", "")
    if year == "alle" or (not year and not default_current):
        return None
    if not year:
        today = timezone.localdate()
        seasons = Season.objects.filter(club=request.club)
        current = seasons.filter(starts_on__lte=today, ends_on__gte=today).first()
        return current or seasons.order_by("-year").first()
    if not year.isdigit():
        raise Http404
    return get_object_or_404(Season, club=request.club, year=int(year))


def _seasons(request: HttpRequest):
    return Season.objects.filter(club=request.club).order_by("-year")


# --- kitty --------------------------------------------------------------------------------


@member_required
def ledger_home(request: HttpRequest) -> HttpResponse:
    """The secretary's overview: who owes what in the current season (?saison=YYYY or
    ?saison=alle for others), the kitty per currency. A member is sent to the own
    statement."""
    if not request.member.is_secretary:
        return redirect("ledger_statement", member_id=request.member.pk)
    season = _season_param(request, default_current=True)
    balances = club_balances(club=request.club, season=season)
    context = {
        "season": season,
        "seasons": _seasons(request),
        "balances": balances,
        "show_all": request.GET.get("alle") == "1",
    }
    return render(request, "league/ledger/overview.html", context)


@member_required
def ledger_statement(request: HttpRequest, member_id: int) -> HttpResponse:
    """A person's statement: every line with running balance in money and Marks, per
    season. Members see their own, the secretary everyone's (403 otherwise)."""
    person = get_object_or_404(Member, pk=member_id, club=request.club)
    if person != request.member and not request.member.is_secretary:
        raise PermissionDenied
    season = _season_param(request)
    statement = member_statement(member=person, season=season)
    context = {
        "person": person,
        "season": season,
        "seasons": _seasons(request),
        "statement": statement,
        "cancellable": set(
            Payment.objects.filter(
                member=person, ledger_entry__reversed_by__isnull=True
            ).values_list("ledger_entry__pk", flat=True)
        ),
    }
    return render(request, "league/ledger/statement.html", context)


class PaymentForm(forms.Form):
    member = forms.ModelChoiceField(queryset=Member.objects.none(), label=gettext_lazy("Person"))
    season = forms.ModelChoiceField(
        queryset=Season.objects.none(),
        label=gettext_lazy("Season"),
        required=False,
        help_text=gettext_lazy("Empty: the season of the payment's date."),
    )
    amount = forms.DecimalField(
        label=gettext_lazy("Amount"),
        max_digits=10,
        decimal_places=2,
        min_value=0.01,
        localize=True,
    )
    paid_on = forms.DateField(label=gettext_lazy("Date"))
    method = forms.ChoiceField(label=gettext_lazy("How"), choices=Payment.Method.choices)
    note = forms.CharField(label=gettext_lazy("Note"), max_length=200, required=False)

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = Member.objects.filter(club=club).order_by("name")
        self.fields["season"].queryset = Season.objects.filter(club=club).order_by("-year")
        self.fields["season"].label_from_instance = lambda s: f"{s.year} ({s.currency})"


@secretary_required
def payment_create(request: HttpRequest) -> HttpResponse:
    """The secretary enters money received: person, amount, date, how, note."""
    initial = {"paid_on": timezone.localdate(), "member": request.GET.get("person")}
    form = PaymentForm(request.POST or None, club=request.club, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            payment = payment_record(
                member=data["member"],
                amount=data["amount"],
                paid_on=data["paid_on"],
                method=data["method"],
                note=data["note"],
                season=data["season"],
                created_by=request.user,
            )
        except BooksError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(
                request, _("Payment of %(name)s recorded.") % {"name": payment.member.name}
            )
            return redirect("ledger_statement", member_id=payment.member_id)
    return render(request, "league/ledger/payment_form.html", {"form": form})


@secretary_required
@require_POST
def payment_cancel_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Cancel a payment entered by mistake (a visible reversal line)."""
    payment = get_object_or_404(Payment, pk=pk, club=request.club)
    try:
        payment_cancel(payment=payment)
        messages.success(request, _("The payment was cancelled."))
    except BooksError as exc:
        messages.error(request, exc.message)
    return redirect("ledger_statement", member_id=payment.member_id)


# --- Runden -------------------------------------------------------------------------------


@member_required
def runden_list(request: HttpRequest) -> HttpResponse:
    """The Runden owed: open, given or all, in the current season (?saison=YYYY, or
    ?saison=alle for every season)."""
    season = _season_param(request, default_current=True)
    status = request.GET.get("status", STATUS_OPEN)
    if status not in (STATUS_OPEN, STATUS_GIVEN, STATUS_ALL):
        status = STATUS_OPEN
    person = None
    if request.GET.get("person", "").isdigit():
        person = get_object_or_404(Member, pk=int(request.GET["person"]), club=request.club)
    rows = runden_overview(club=request.club, season=season, member=person, status=status)
    context = {
        "rows": rows,
        "season": season,
        "seasons": _seasons(request),
        "status": status,
        "person": person,
        "today": timezone.localdate(),
    }
    return render(request, "league/ledger/runden.html", context)


def _back(request: HttpRequest) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}):
        return redirect(target)
    return redirect("runden_list")


@secretary_required
@require_POST
def runde_given(request: HttpRequest, schock_aus_id: int) -> HttpResponse:
    """Mark the Runde of a Schock-Aus as given on the posted date (default today)."""
    sa = get_object_or_404(
        SchockAus.objects.select_related("game"),
        pk=schock_aus_id,
        game__evening__club=request.club,
    )
    try:
        given_on = datetime.date.fromisoformat(request.POST.get("given_on") or "")
    except ValueError:
        given_on = timezone.localdate()
    try:
        runde_mark_given(
            schock_aus=sa,
            given_on=given_on,
            note=request.POST.get("note", ""),
            recorded_by=request.user,
        )
        messages.success(request, _("The Runde is marked as given."))
    except BooksError as exc:
        messages.error(request, exc.message)
    return _back(request)


@secretary_required
@require_POST
def runde_undo(request: HttpRequest, schock_aus_id: int) -> HttpResponse:
    """Take back the record that a Runde was given."""
    sa = get_object_or_404(SchockAus, pk=schock_aus_id, game__evening__club=request.club)
    try:
        runde_unmark(schock_aus=sa)
        messages.success(request, _("The Runde is open again."))
    except BooksError as exc:
        messages.error(request, exc.message)
    return _back(request)


# --- club book ----------------------------------------------------------------------------


class ClubBookForm(forms.Form):
    attendance = forms.FileField(label=gettext_lazy("Attendance (club-book-attendance.csv)"))
    games = forms.FileField(label=gettext_lazy("Games (club-book-games.csv)"))


def _upload_dir(token: str) -> Path:
    if not token.isalnum():
        raise Http404
    return Path(settings.MEDIA_ROOT) / "club-book-uploads" / token


def _forget_old_uploads(max_age_hours: int = 24) -> None:
    """Remove dry-run uploads that were never confirmed (older than a day)."""
    root = Path(settings.MEDIA_ROOT) / "club-book-uploads"
    if not root.is_dir():
        return
    limit = time.time() - max_age_hours * 3600
    for folder in root.iterdir():
        if folder.is_dir() and folder.stat().st_mtime < limit:
            shutil.rmtree(folder, ignore_errors=True)


@secretary_required
def club_book_upload(request: HttpRequest) -> HttpResponse:
    """Upload the two files; a dry run shows what would be created and the recomputed
    totals per season (or every bad row); the files wait for the confirmation."""
    form = ClubBookForm(request.POST or None, request.FILES or None)
    context = {"form": form}
    if request.method == "POST" and form.is_valid():
        files = form.cleaned_data["attendance"], form.cleaned_data["games"]
        if any(f.size > MAX_UPLOAD_BYTES for f in files):
            form.add_error(None, _("A file is too large (at most 20 MB)."))
        else:
            data = [f.read() for f in files]
            names = [f.name for f in files]
            result = club_book_import(
                club_name=request.club.name,
                attendance=data[0],
                games=data[1],
                dry_run=True,
                attendance_name=names[0],
                games_name=names[1],
            )
            context["result"] = result
            if result.ok and result.changed:
                _forget_old_uploads()
                token = secrets.token_hex(16)
                folder = _upload_dir(token)
                folder.mkdir(parents=True)
                (folder / "attendance.csv").write_bytes(data[0])
                (folder / "games.csv").write_bytes(data[1])
                (folder / "names.txt").write_text("\n".join(names), encoding="utf-8")
                context["token"] = token
                context["digest"] = hashlib.sha256(data[0] + data[1]).hexdigest()[:12]
    return render(request, "league/ledger/import.html", context)


@secretary_required
@require_POST
def club_book_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """Import the files of a dry run (all or nothing) and show what was created."""
    folder = _upload_dir(token)
    if not folder.is_dir():
        messages.error(request, _("The upload has expired. Please upload the files again."))
        return redirect("club_book_upload")
    names = (folder / "names.txt").read_text(encoding="utf-8").split("\n")
    result = club_book_import(
        club_name=request.club.name,
        attendance=(folder / "attendance.csv").read_bytes(),
        games=(folder / "games.csv").read_bytes(),
        user=request.user,
        attendance_name=names[0],
        games_name=names[1],
    )
    shutil.rmtree(folder, ignore_errors=True)
    if result.ok:
        messages.success(request, _("The club book was imported."))
    return render(request, "league/ledger/import.html", {"result": result, "form": ClubBookForm()})


@secretary_required
def club_book_download(request: HttpRequest, which: str) -> HttpResponse:
    """Download the club book: `which` is "anwesenheit" or "spiele" (import format)."""
    attendance, games = club_book_export(club=request.club)
    files = {
        "anwesenheit": (attendance, "club-book-attendance.csv"),
        "spiele": (games, "club-book-games.csv"),
    }
    if which not in files:
        raise Http404
    data, filename = files[which]
    response = HttpResponse(data, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# --- audit trail --------------------------------------------------------------------------


@secretary_required
def audit_index(request: HttpRequest) -> HttpResponse:
    """The latest changes, and links to the trail of every evening and person."""
    context = {
        "lines": club_audit_recent(club=request.club),
        "evenings": Evening.objects.filter(club=request.club).order_by("-date")[:60],
        "people": Member.objects.filter(club=request.club).order_by("name"),
    }
    return render(request, "league/ledger/audit_index.html", context)


@secretary_required
def audit_evening(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Every change of one evening (also of a deleted one of this club)."""
    evening = Evening.objects.filter(pk=evening_id, club=request.club).first()
    if evening is None and not Evening.history.filter(id=evening_id, club=request.club).exists():
        raise Http404
    lines = evening_audit(evening_id=evening_id)
    context = {
        "evening": evening,
        "evening_id": evening_id,
        "lines": lines[:AUDIT_LINES_SHOWN],
        "more": max(0, len(lines) - AUDIT_LINES_SHOWN),
    }
    return render(request, "league/ledger/audit.html", context)


@secretary_required
def audit_member(request: HttpRequest, member_id: int) -> HttpResponse:
    """Every change concerning one person, newest first."""
    person = get_object_or_404(Member, pk=member_id, club=request.club)
    lines = member_audit(member=person)
    context = {
        "person": person,
        "lines": lines[:AUDIT_LINES_SHOWN],
        "more": max(0, len(lines) - AUDIT_LINES_SHOWN),
    }
    return render(request, "league/ledger/audit.html", context)
