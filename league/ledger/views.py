"""Pages of the kitty: the secretary's overview of who owes what, a person's statement,
entering a payment and cancelling one.

Members read their own statement; the secretary reads every statement and the overview,
enters payments and cancels them. Another club's objects are 404 (querysets scoped to
request.club). Figures come from league/ledger/services.py; the views parse and render.
"""

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from league.club.access import ClubRequest, member_required, secretary_required
from league.club.caching import books_cached, books_page
from league.club.errors import BooksError
from league.club.fields import MoneyFormField
from league.club.models import Member, Season
from league.club.selectors import club_seasons, season_from_query
from league.ledger.models import PAYMENT_MAX, PAYMENT_MIN, Payment
from league.ledger.services import (
    club_balances,
    member_statement,
    member_statement_seasons,
    payment_cancel,
    payment_record,
)

STATEMENT_SEASONS_PER_PAGE = 4
"""Seasons on one page of a statement's "all seasons" (issue 15 item 4: bounded work)."""


@member_required
@books_page()
def ledger_home(request: ClubRequest) -> HttpResponse:
    """The secretary's overview: who owes what in the current season (?saison=YYYY or
    ?saison=alle for others), the kitty per currency. A member is sent to the own
    statement."""
    if not request.member.is_secretary:
        return redirect("ledger_statement", member_id=request.member.pk)
    season = season_from_query(request, default_current=True)
    balances = books_cached(
        "club_balances",
        request.books_version,  # type: ignore[attr-defined]
        season.pk if season else None,
        build=lambda: club_balances(club=request.club, season=season),
    )
    context = {
        "season": season,
        "seasons": list(club_seasons(club=request.club)),
        "balances": balances,
        "show_all": request.GET.get("alle") == "1",
    }
    return render(request, "league/ledger/overview.html", context)


def _statement(request: ClubRequest, person: Member, season: Season | None):
    """The statement of one season, or one page (?seite=N) of all seasons, newest first;
    cached by the club's books version. Returns (statement, page or None)."""
    version = request.books_version  # type: ignore[attr-defined]
    if season is not None:
        return books_cached(
            "member_statement",
            version,
            person.pk,
            season.pk,
            build=lambda: member_statement(member=person, season=season),
        ), None
    seasons = books_cached(
        "member_statement_seasons",
        version,
        person.pk,
        build=lambda: member_statement_seasons(member=person),
    )
    paginator = Paginator(seasons, STATEMENT_SEASONS_PER_PAGE)
    page = paginator.get_page(request.GET.get("seite"))
    shown = sorted(page.object_list, key=lambda s: s.year)
    statement = books_cached(
        "member_statement_page",
        version,
        person.pk,
        page.number,
        build=lambda: member_statement(member=person, seasons=shown),
    )
    return statement, page


@member_required
@books_page()
def ledger_statement(request: ClubRequest, member_id: int) -> HttpResponse:
    """A person's statement: every line with running balance in money and Marks, per
    season: the current season unless ?saison=YYYY names another, or ?saison=alle for
    every season, a few a page (?seite=N, newest first; issue 15 item 4). Members see
    their own, the secretary everyone's (403 otherwise)."""
    person = get_object_or_404(Member, pk=member_id, club=request.club)
    if person != request.member and not request.member.is_secretary:
        raise PermissionDenied
    season = season_from_query(request, default_current=True)
    # No season (?saison=alle, or a club without seasons yet): all seasons, page by page.
    statement, page = _statement(request, person, season)
    context = {
        "person": person,
        "season": season,
        "seasons": list(club_seasons(club=request.club)),
        "statement": statement,
        "page": page,
        # A payment's own line can be cancelled as long as no reversal took it back.
        "cancellable": {
            line.entry_id
            for account in statement.seasons
            for line in account.lines
            if line.payment_id is not None and not line.reversed
        },
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
    # Decimal bounds: a float minimum (0.01) refused Decimal("0.01") (issue 13 item 1).
    amount = MoneyFormField(
        label=gettext_lazy("Amount"),
        max_digits=10,
        decimal_places=2,
        min_value=PAYMENT_MIN,
        max_value=PAYMENT_MAX,
        localize=True,
    )
    paid_on = forms.DateField(label=gettext_lazy("Date"))
    method = forms.ChoiceField(label=gettext_lazy("How"), choices=Payment.Method.choices)
    note = forms.CharField(label=gettext_lazy("Note"), max_length=200, required=False)

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        member_field = self.fields["member"]
        season_field = self.fields["season"]
        assert isinstance(member_field, forms.ModelChoiceField)
        assert isinstance(season_field, forms.ModelChoiceField)
        member_field.queryset = Member.objects.filter(club=club).order_by("name")
        season_field.queryset = Season.objects.filter(club=club).order_by("-year")
        season_field.label_from_instance = lambda s: f"{s.year} ({s.currency})"  # type: ignore[assignment,method-assign]


@secretary_required
def payment_create(request: ClubRequest) -> HttpResponse:
    """The secretary enters money received: person, amount, date, how, note."""
    initial = {"paid_on": timezone.localdate(), "member": request.GET.get("person")}
    form = PaymentForm(request.POST or None, club=request.club, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            payment = payment_record(created_by=request.user, **form.cleaned_data)
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
def payment_cancel_view(request: ClubRequest, pk: int) -> HttpResponse:
    """Cancel a payment entered by mistake (a visible reversal line)."""
    payment = get_object_or_404(Payment, pk=pk, club=request.club)
    try:
        payment_cancel(payment=payment)
        messages.success(request, _("The payment was cancelled."))
    except BooksError as exc:
        messages.error(request, exc.message)
    return redirect("ledger_statement", member_id=payment.member_id)
