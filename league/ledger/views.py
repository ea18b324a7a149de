"""Pages of the kitty: the secretary's overview of who owes what, a person's statement,
entering a payment and cancelling one.

Members read their own statement; the secretary reads every statement and the overview,
enters payments and cancels them. Another club's objects are 404 (querysets scoped to
request.club). Figures come from league/ledger/services.py; the views parse and render.
"""

import datetime

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.evenings.selectors import provisional_evenings_key
from league.club.access import ClubRequest, member_required, secretary_required
from league.club.caching import KeptRead, books_page
from league.club.errors import BooksError
from league.club.fields import DateFormField, MoneyFormField
from league.club.forms import PeopleSelect
from league.club.idempotency import Kept, idempotency_new_key, idempotent_form_post
from league.club.models import Member, Season
from league.club.selectors import club_seasons, query_year, season_from_query
from league.ledger.models import PAYMENT_MAX, PAYMENT_MIN, Payment
from league.ledger.selectors import (
    club_balances_kept,
    member_balance_by_currency,
    member_season_summaries,
    member_statement,
)
from league.ledger.services import (
    payment_cancel,
    payment_record,
)


def _season_query(request: ClubRequest) -> tuple[str | int, datetime.date | None]:
    """What names the season a Kasse page shows, for its kept part's key: "alle", the
    year asked for (a number, as `season_from_query` reads it), or without one the day
    (the current season follows the date). The season itself is read only when the
    part is built (`season_from_query`: an unknown year is a 404 then, and nothing is
    kept), so a repeated read asks neither the database nor the cache for it. An
    unreadable year is a 404 at once."""
    raw = request.GET.get("saison", "")
    if raw == "alle":
        return raw, None
    if not raw:
        return raw, timezone.localdate()
    year = query_year(request)
    if year is None:
        raise Http404
    return year, None


#: The Kasse overview's books part (the call adds the season asked for, `_season_query`).
LEDGER_OVERVIEW_BODY = KeptRead("ledger_overview_body", depends=("books",))
#: A statement's books part: the books and the role; the call adds the provisional
#: evenings, the person's id and name, the season asked for, the day and whether it is the
#: viewer's own (the GiroCode link).
STATEMENT_BODY = KeptRead("statement_body", depends=("books", "role"))


@member_required
@books_page()
def ledger_home(request: ClubRequest) -> HttpResponse:
    """The secretary's overview: who owes what in the current season (?saison=YYYY or
    ?saison=alle for others), the kitty per currency. A member is sent to the own
    statement.

    The page's books part (templates/league/ledger/_overview_body.html) is rendered once
    per books version and season asked for (`_season_query`) and kept (`KeptRead.fragment`): a
    repeated read renders only the per-user frame."""
    if not request.member.is_secretary:
        return redirect("ledger_statement", member_id=request.member.pk)

    def context() -> dict:
        season = season_from_query(request, default_current=True)
        return {
            "season": season,
            "seasons": list(club_seasons(club=request.club)),
            "balances": club_balances_kept(club=request.club, season=season),
        }

    body = LEDGER_OVERVIEW_BODY.fragment(
        *_season_query(request),
        request=request,
        template="league/ledger/_overview_body.html",
        context=context,
    )
    return render(request, "league/ledger/overview.html", {"body": body})


def _statement_context(request: ClubRequest, person: Member, season: Season | None) -> dict:
    """What the statement's books part shows: one season's lines, or (no season) one row
    a season with the balance per currency (league/ledger/selectors.py)."""
    seasons = list(club_seasons(club=request.club))
    context: dict = {"person": person, "season": season, "seasons": seasons}
    if season is not None:
        statement = member_statement(member=person, season=season)
        context["statement"] = statement
        context["balance_by_currency"] = statement.balance_by_currency
        # A payment's own line can be cancelled as long as no reversal took it back.
        context["cancellable"] = {
            line.entry_id
            for account in statement.seasons
            for line in account.lines
            if line.payment_id is not None and not line.reversed
        }
    else:
        summaries = member_season_summaries(member=person, seasons=seasons)
        context["summaries"] = summaries
        context["balance_by_currency"] = member_balance_by_currency(summaries)
    return context


@member_required
@books_page(extra=provisional_evenings_key)
def ledger_statement(request: ClubRequest, member_id: int) -> HttpResponse:
    """A person's statement: the current season unless ?saison=YYYY names another, every
    line newest first (tonight's on top, marked) with running balance in money and Marks,
    each opening what it is made of, the statute that charges it and the arithmetic;
    ?saison=alle gives one row a season (carried in, charged, paid, carried out, balance
    at the season's end, in that season's currency), each linking to that season's lines.
    Members see their own, the secretary everyone's (403 otherwise).

    The books part (templates/league/ledger/_statement_body.html) is rendered once per
    books version, person, season asked for (`_season_query`), role and whether it is the
    viewer's own (the GiroCode link) and kept (`KeptRead.fragment`); a repeated read renders
    only the per-user frame. Its payment-cancel forms carry the request's own CSRF token."""
    own = member_id == request.member.pk
    person = request.member if own else get_object_or_404(Member, pk=member_id, club=request.club)
    is_secretary = request.member.is_secretary
    if not own and not is_secretary:
        raise PermissionDenied

    # Tonight's lines are marked: the club's day is part of what is kept.
    today = timezone.localdate()
    provisional = provisional_evenings_key(request)

    def context() -> dict:
        season = season_from_query(request, default_current=True)
        return {
            **_statement_context(request, person, season),
            "is_secretary": is_secretary,
            "is_self": own,
            "today": today,
            "provisional": frozenset(provisional),
        }

    body = STATEMENT_BODY.fragment(
        provisional,
        person.pk,
        person.name,
        *_season_query(request),
        today.isoformat(),
        own,
        request=request,
        template="league/ledger/_statement_body.html",
        context=context,
    )
    return render(request, "league/ledger/statement.html", {"person": person, "body": body})


class PaymentForm(forms.Form):
    # The club's people and seasons written by PeopleSelect (the same HTML as Django's
    # select, without a template render per option: the page was 4x the trivial
    # read at 48 seasons).
    member = forms.ModelChoiceField(
        queryset=Member.objects.none(), label=gettext_lazy("Person"), widget=PeopleSelect
    )
    season = forms.ModelChoiceField(
        queryset=Season.objects.none(),
        label=gettext_lazy("Season"),
        widget=PeopleSelect,
        required=False,
        help_text=gettext_lazy("Empty: the season of the payment's date."),
    )
    # Decimal bounds: a float minimum (0.01) refused Decimal("0.01").
    amount = MoneyFormField(
        label=gettext_lazy("Amount"),
        max_digits=10,
        decimal_places=2,
        min_value=PAYMENT_MIN,
        max_value=PAYMENT_MAX,
        localize=True,
    )
    paid_on = DateFormField(label=gettext_lazy("Date"))
    method = forms.ChoiceField(
        label=gettext_lazy("How"), choices=Payment.Method.choices, widget=PeopleSelect
    )
    note = forms.CharField(label=gettext_lazy("Note"), max_length=200, required=False)
    # A new key for every form rendered (league/club/idempotency.py): the same form sent
    # twice (a double tap, a reload that posts again) books once.
    idempotency_key = forms.CharField(
        widget=forms.HiddenInput, max_length=255, required=False, initial=idempotency_new_key
    )

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
        data = dict(form.cleaned_data)
        key = data.pop("idempotency_key")

        def record() -> tuple[None, Kept]:
            payment = payment_record(created_by=request.user, **data)
            message = _("Payment of %(name)s recorded.") % {"name": payment.member.name}
            location = reverse("ledger_statement", kwargs={"member_id": payment.member_id})
            return None, Kept(status=302, body=message, headers={"Location": location})

        try:
            done = idempotent_form_post(request, key=key, run=record)
        except BooksError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, done.body)
            return redirect(done.headers["Location"])
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
