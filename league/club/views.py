"""Pages of the club register: a new season and a season's rule set (the secretary's),
the rules page every member reads, and the secretary's club administration under
/verein/ (people, logins, seasons) with the invitation link's page.

The forms (league/club/forms.py) hand their data to league/club/services.py; the views
render and redirect.
"""

import segno
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlsafe_base64_decode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST
from drf_spectacular.views import SpectacularSwaggerSplitView

from games.rules import PRESET_SOURCES, PRESETS
from league.club.access import ClubRequest, member_required, secretary_required
from league.club.accounts.backends import LOGIN_BACKEND
from league.club.accounts.lockout import (
    lockout_response,
    password_link_failed,
    password_link_locked,
)
from league.club.accounts.selectors import logins_locked_out
from league.club.accounts.services import password_set
from league.club.caching import KeptRead, books_page
from league.club.errors import BooksError
from league.club.forms import (
    LoginForm,
    MergeForm,
    PersonForm,
    RenameForm,
    SeasonForm,
    SeasonRulesForm,
    StatutesForm,
    preset_initial,
)
from league.club.models import RULE_PRESET_CHOICES, Member, Season
from league.club.selectors import club_latest_season, club_season, season_rules_overview
from league.club.selectors import club_seasons as club_seasons_of
from league.club.services import (
    guest_to_member,
    login_invitation,
    login_lock,
    member_update,
    secretary_set,
)
from league.club.statutes import season_statutes

# The rules page's sections: games.rules.FlagInfo.group -> heading.
RULE_GROUPS = [
    ("section_6", _lazy("Throws and rounds")),
    ("seed", _lazy("Start and flow of a game")),
    ("variant", _lazy("Variants")),
]


def _preset_flags() -> dict[str, dict[str, bool | int | str]]:
    """Every preset's flags, for the form's script that fills them in when the Grundlage
    changes (without script: the "apply preset" button)."""
    return {name: rules.to_dict() for name, rules in PRESETS.items()}


def _applied(request: HttpRequest, form_class, **kwargs):
    """The form again, its flags those of the preset chosen (the "apply preset" button),
    everything else as posted; unbound, so nothing is refused yet."""
    preset = request.POST.get("rule_preset")
    if preset not in PRESETS:
        preset = "club"
    kept = {k: request.POST.get(k) for k in ("year", "starts_on", "ends_on") if k in request.POST}
    return form_class(initial={**kept, **preset_initial(preset)}, **kwargs)


#: A season form's GET body: the books (the call adds what else its initial values depend
#: on: the new season's state, or the season's id).
SEASON_FORM_BODY = KeptRead("season_form_body", depends=("books",))
#: A season's statutes page body: the books and the role (the call adds the season's id).
SEASON_STATUTES_BODY = KeptRead("season_statutes_body", depends=("books", "role"))
#: The logins page's list: nothing of the books (the call adds what it shows of each
#: person: name, kind, secretary, login name, locked, invitation open).
CLUB_LOGINS_BODY = KeptRead("club_logins", depends=())


def _season_form_page(request: ClubRequest, form_context, *parts: object) -> HttpResponse:
    """The season form page. A GET's form (unbound: the initial values of the season it is
    built for) is kept per books version and `parts` (everything else its initial values
    depend on): the two dozen flag widgets are rendered once, not on every read.
    A form after a POST (errors, a preset taken over) is rendered as it is."""
    if request.method == "GET":
        context = {"preset_flags": _preset_flags(), **form_context(lazy=True)}
        context["body"] = SEASON_FORM_BODY.fragment(
            *parts,
            request=request,
            template="league/_season_form_body.html",
            context=lambda: form_context(lazy=False),
        )
    else:
        context = {"preset_flags": _preset_flags(), **form_context(lazy=False)}
    return render(request, "league/season_form.html", context)


def _season_form_state(request: ClubRequest, *args, **kwargs) -> tuple[int, str]:
    """What a season form shows beyond the books: the year a new season is offered for
    (today's at the earliest) and the club's own rule preset."""
    return timezone.localdate().year, request.club.rule_preset


@secretary_required
@books_page(_season_form_state)
def season_new(request: ClubRequest) -> HttpResponse:
    """A new season of the club (the secretary's, so evenings of its dates can be entered),
    with its rule set: a preset, then flag by flag."""
    form: SeasonForm | None = None
    if request.method == "POST" and "apply_preset" in request.POST:
        form = _applied(request, SeasonForm, club=request.club)
    elif request.method == "POST":
        latest = club_latest_season(club=request.club)
        form = SeasonForm(request.POST, club=request.club, previous=latest)
        if form.is_valid() and (season := form.save()):
            messages.success(request, _("Season %(year)s created.") % {"year": season.year})
            return redirect("season_standings", year=season.year)

    def form_context(*, lazy: bool) -> dict:
        shown = form
        if shown is None and not lazy:
            latest = club_latest_season(club=request.club)
            shown = SeasonForm(club=request.club, previous=latest)
        return {"form": shown, "new": True}

    return _season_form_page(request, form_context, *_season_form_state(request))


@secretary_required
@books_page(season_year="year")
def season_rules_edit(request: ClubRequest, year: int) -> HttpResponse:
    """Change a season's rule set (the secretary's): Grundlage and flags."""
    season = request.season
    form: SeasonRulesForm | None = None
    if request.method == "POST" and "apply_preset" in request.POST:
        form = _applied(request, SeasonRulesForm, season=season)
    elif request.method == "POST":
        form = SeasonRulesForm(request.POST, season=season)
        if form.is_valid() and form.save():
            messages.success(request, _("Rules of %(year)s saved.") % {"year": year})
            return redirect("season_rules", year=year)

    def form_context(*, lazy: bool) -> dict:
        shown = form
        if shown is None and not lazy:
            shown = SeasonRulesForm(season=season)
        return {"form": shown, "season": season, "new": False}

    return _season_form_page(request, form_context, season.pk)


@member_required
def season_rules_page(request: ClubRequest, year: int) -> HttpResponse:
    """The season's rule set in German: every flag, its explanation and an example, and the
    preset it equals (or how it differs from its Grundlage)."""
    season = club_season(request.club, year)
    overview = season_rules_overview(season=season)
    names = dict(RULE_PRESET_CHOICES)
    context = {
        "overview": overview,
        "preset_label": names.get(overview.preset or "", overview.preset),
        "basis_label": names.get(overview.basis, overview.basis),
        "preset_source": PRESET_SOURCES.get(overview.preset or overview.basis, ""),
        "groups": RULE_GROUPS,
    }
    return render(request, "league/season_rules.html", context)


@member_required
@books_page(season_year="year")
def season_statutes_page(request: ClubRequest, year: int) -> HttpResponse:
    """The statutes a season's books are kept under: every member reads
    them; the secretary changes them, and on a season with evenings confirms first ("Die
    Saison hat schon N Abende; alle Beträge und Punkte werden neu berechnet.").

    A GET's summary and form (unbound: the season's statutes) are kept per books version,
    season and role (the statutes change only through `season_statutes_update`, a change
    of the books); a form after a POST is rendered as it is."""
    season = request.season
    is_secretary = request.member.is_secretary
    if request.method == "POST" and not is_secretary:
        raise PermissionDenied
    if request.method == "POST":
        form = StatutesForm(request.POST, season=season)
        if form.is_valid() and form.save():
            messages.success(request, _("Statutes of %(year)s saved.") % {"year": year})
            return redirect("season_statutes", year=year)
        return render(request, "league/season_statutes.html", _statutes_context(season, form))
    body = SEASON_STATUTES_BODY.fragment(
        season.pk,
        request=request,
        template="league/_season_statutes_body.html",
        context=lambda: _statutes_context(
            season, StatutesForm(season=season) if is_secretary else None
        ),
    )
    return render(request, "league/season_statutes.html", {"season": season, "body": body})


def _statutes_context(season: Season, form: StatutesForm | None) -> dict:
    return {
        "season": season,
        "statutes": season_statutes(season),
        "form": form,
        "confirmation": form.confirmation if form is not None else None,
    }


@member_required
def current_rules(request: ClubRequest) -> HttpResponse:
    """The rules of the current season (the navigation's link)."""
    season = club_season(request.club)
    if season is None:
        raise Http404
    return redirect("season_rules", year=season.year)


# --- the secretary's club administration ---------------------------------


def _person(request: ClubRequest, pk: int) -> Member:
    """The club's person with this id (404 for an unknown one or another club's)."""
    return get_object_or_404(Member.objects.select_related("user"), pk=pk, club=request.club)


@secretary_required
def club_admin(request: ClubRequest) -> HttpResponse:
    """The secretary's overview: people, logins, seasons, with their counts."""
    people = Member.objects.filter(club=request.club)
    context = {
        "members": people.filter(kind=Member.Kind.MEMBER, active=True).count(),
        "guests": people.filter(kind=Member.Kind.GUEST, active=True).count(),
        "logins": people.filter(user__isnull=False).count(),
        "seasons": club_seasons_of(club=request.club),
    }
    return render(request, "league/club_admin/index.html", context)


@secretary_required
def club_members(request: ClubRequest) -> HttpResponse:
    """Members and guests (active first, then the inactive), and a form for a new person."""
    form = PersonForm(request.POST or None, club=request.club)
    if request.method == "POST" and form.is_valid() and (person := form.save()):
        messages.success(request, _("%(name)s added.") % {"name": person.name})
        return redirect("club_members")
    people = Member.objects.filter(club=request.club).select_related("user").order_by("name")
    context = {
        "form": form,
        "members": [p for p in people if p.active and not p.is_guest],
        "guests": [p for p in people if p.active and p.is_guest],
        "inactive": [p for p in people if not p.active],
    }
    return render(request, "league/club_admin/members.html", context)


@secretary_required
def club_member(request: ClubRequest, pk: int) -> HttpResponse:
    """One person: rename, deactivate or reactivate, turn a guest into a member, merge an
    entry made twice into the person it really is."""
    person = _person(request, pk)
    rename = RenameForm(person=person, prefix="rename")
    merge = MergeForm(person=person, prefix="merge")
    if request.method == "POST" and "rename-name" in request.POST:
        rename = RenameForm(request.POST, person=person, prefix="rename")
        if rename.is_valid() and rename.save():
            messages.success(request, _("Name saved."))
            return redirect("club_member", pk=pk)
    elif request.method == "POST" and "merge-target" in request.POST:
        merge = MergeForm(request.POST, person=person, acting=request.member, prefix="merge")
        if merge.is_valid() and (kept := merge.save()):
            messages.success(
                request,
                _("%(source)s merged into %(target)s.")
                % {"source": person.name, "target": kept.name},
            )
            return redirect("club_member", pk=kept.pk)
    context = {"person": person, "rename": rename, "merge": merge}
    return render(request, "league/club_admin/member.html", context)


def _member_action(person: Member, action: str, by: User) -> str:
    """Run one of the person page's buttons; the German message of what was done.

    Raises BooksError when the service refuses, Http404 for an unknown action."""
    name = {"name": person.name}
    if action == "deactivate":
        member_update(member=person, active=False)
        return _("%(name)s is inactive now.") % name
    if action == "reactivate":
        member_update(member=person, active=True)
        return _("%(name)s is active again.") % name
    if action == "to_member":
        guest_to_member(person=person)
        return _("%(name)s is a club member now.") % name
    if action == "secretary_on":
        secretary_set(person=person, is_secretary=True)
        return _("%(name)s is a secretary now.") % name
    if action == "secretary_off":
        secretary_set(person=person, is_secretary=False)
        return _("%(name)s is no longer a secretary.") % name
    if action == "lock":
        login_lock(person=person, locked=True, by=by)
        return _("The login of %(name)s is locked.") % name
    if action == "unlock":
        login_lock(person=person, locked=False)
        return _("The login of %(name)s is open again.") % name
    raise Http404


@secretary_required
@require_POST
def club_member_action(request: ClubRequest, pk: int) -> HttpResponse:
    """A button of the people or logins page (deactivate, reactivate, guest to member,
    secretary on or off, lock or unlock the login); back to the page it came from."""
    person = _person(request, pk)
    try:
        messages.success(
            request, _member_action(person, request.POST.get("action", ""), request.user)
        )
    except BooksError as exc:
        messages.error(request, exc.message)
    if request.POST.get("back") == "logins":
        return redirect("club_logins")
    return redirect("club_member", pk=pk)


@secretary_required
def club_logins(request: ClubRequest) -> HttpResponse:
    """Who can log in, who is secretary, whose login is locked (by a secretary, or after
    failed logins: django-axes; either has an "Unlock" button); a login for a person
    without one.

    The list is read on every request and its HTML kept per what it shows of each person
    (name, kind, secretary, login name, locked, invitation open): logins are not the books,
    so no books version keys it; the same people in the same state are rendered once."""
    people = list(Member.objects.filter(club=request.club, active=True).select_related("user"))
    locked_out = logins_locked_out(usernames=[p.user.username for p in people if p.user])
    shown = tuple(
        (p.pk, p.name, p.kind, p.is_secretary)
        + (
            (
                p.user.username,
                p.user.is_active,
                p.user.has_usable_password(),
                p.user.username in locked_out,
            )
            if p.user
            else ()
        )
        for p in people
    )
    body = CLUB_LOGINS_BODY.fragment(
        shown,
        request=request,
        template="league/club_admin/_logins_body.html",
        context=lambda: {
            "with_login": [p for p in people if p.user_id],
            "without_login": [p for p in people if not p.user_id],
            "locked_out": locked_out,
        },
    )
    return render(request, "league/club_admin/logins.html", {"body": body})


def _invitation_page(request: HttpRequest, person: Member, username: str) -> HttpResponse:
    """The invitation just made, shown once: the link to hand on and the same link as a
    QR code the person scans from the secretary's phone (a PNG in a data URI: the page's
    Content-Security-Policy allows `data:` images, and nothing is stored).

    Raises BooksError when `login_invitation` refuses (`no_login`, `login_has_password`)."""
    uidb64, token = login_invitation(person=person)
    url = request.build_absolute_uri(
        reverse("login_invitation_accept", kwargs={"uidb64": uidb64, "token": token})
    )
    context = {
        "person": person,
        "username": username,
        "invitation": url,
        "qr": segno.make(url, error="m").png_data_uri(scale=5, border=4),
    }
    return render(request, "league/club_admin/login_created.html", context)


@secretary_required
def club_login_new(request: ClubRequest, pk: int) -> HttpResponse:
    """Give a person a login: its user name, and an invitation link (and QR code) where the
    person sets their own password; shown once on the next page (never stored readable).
    The secretary never chooses nor learns a password."""
    person = _person(request, pk)
    form = LoginForm(request.POST or None, person=person)
    if request.method == "POST" and form.is_valid() and (user := form.save()):
        return _invitation_page(request, person, user.username)
    return render(request, "league/club_admin/login_form.html", {"person": person, "form": form})


@secretary_required
@require_POST
def club_login_invite(request: ClubRequest, pk: int) -> HttpResponse:
    """A new invitation link for a person's login that has no password yet (the old one
    still works until a password is set); shown once. A login with a password gets none
    (German message: the person uses "Passwort vergessen")."""
    person = _person(request, pk)
    try:
        return _invitation_page(request, person, person.user.username if person.user else "")
    except BooksError as exc:
        messages.error(request, exc.message)
        return redirect("club_logins")


def login_invitation_accept(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """The invitation link's page: the person sets their own password (Django's
    password validators; `password_set` by the holder) and is logged in. A used, unknown
    or expired link says so and counts against the address (`password_link_failed`; too
    many and every link is refused from there for a while, like the login)."""
    if password_link_locked(request):
        return lockout_response(request, None, None)
    user = _invited_user(uidb64, token)
    if user is None:
        password_link_failed(request)
        return render(request, "league/club_admin/invitation.html", {"invalid": True}, status=404)
    form = SetPasswordForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        password_set(user=user, password=form.cleaned_data["new_password1"], by_holder=True)
        login(request, user, backend=LOGIN_BACKEND)
        messages.success(request, _("Welcome! Your password is set."))
        return redirect("home")
    return render(request, "league/club_admin/invitation.html", {"form": form, "login_user": user})


def _invited_user(uidb64: str, token: str) -> User | None:
    """The active user an invitation link names, when its token is still good and the
    login has no password yet (an invitation never replaces a password, whatever link is
    shown: the person resets a forgotten one by e-mail)."""
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (ValueError, UnicodeDecodeError):
        return None
    user = User.objects.filter(pk=pk, is_active=True).first()
    if user is None or user.has_usable_password():
        return None
    if not default_token_generator.check_token(user, token):
        return None
    return user


@secretary_required
@books_page()
def club_seasons(request: ClubRequest) -> HttpResponse:
    """The club's seasons with their Mark value, currency and rule set; the next one to
    start. The list is kept by the club's books version (every change of a season moves
    it), with ETag/304."""
    seasons = club_seasons_of(club=request.club)
    latest = seasons.first()
    context = {
        "seasons": seasons,
        "next_year": (latest.year + 1) if latest else timezone.localdate().year,
    }
    return render(request, "league/club_admin/seasons.html", context)


def api_docs(request: HttpRequest) -> HttpResponse:
    """The API's documentation (Swagger UI) for a logged-in user (session or token, as the
    API authenticates); a visitor gets a German page asking to log in, with a link back
    here (401), instead of the API's bare JSON refusal."""
    # The split view loads its start-up script as a file (no inline script, CSP).
    response = SpectacularSwaggerSplitView.as_view(url_name="schema")(request)
    if response.status_code in (401, 403):
        return render(request, "api/docs_login.html", status=401)
    return response


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """settings.CSRF_FAILURE_VIEW: a form sent without a valid CSRF token (a page left open
    over a login elsewhere, cookies blocked) gets a German page in the site's frame, 403,
    with nothing inline the Content-Security-Policy would block (Django's own page is
    English with an inline style). The API never gets here: its views are exempt from
    Django's CSRF middleware, and DRF's session check answers in JSON itself. Django's
    `reason` is logged by its CSRF middleware and not shown."""
    message = _("The form could not be sent: its security check failed.")
    return render(request, "403_csrf.html", {"message": message}, status=403)
