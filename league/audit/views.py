"""Pages of the audit trail: the club's latest changes, every
change of one evening (also of a deleted one) and every change concerning one person.

Secretary only; another club's evening or person is 404. The lines come from
league/audit/selectors.py; the views parse and render.
"""

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from games.evenings.models import Evening
from league.audit.selectors import (
    AuditState,
    audit_state,
    club_audit_recent,
    evening_audit,
    member_audit_page,
)
from league.club.access import ClubRequest, secretary_required
from league.club.caching import KeptRead, books_page
from league.club.models import Member
from league.club.selectors import whole_number

AUDIT_LINES_SHOWN = 300


class AuditRequest(ClubRequest):
    """A history page's request: `_club_state` leaves the history's state on it."""

    audit_state: AuditState


def _club_state(request: AuditRequest, *args: object, **kwargs: object) -> tuple[object, ...]:
    """The history's state beyond the books version (`audit_state`: the club's and the
    people's newest records, whether the asked-for evening or person is the club's), left
    on the request for the view."""
    state = audit_state(
        club=request.club,
        evening_id=kwargs.get("evening_id"),  # type: ignore[arg-type]
        member_id=kwargs.get("member_id"),  # type: ignore[arg-type]
    )
    request.audit_state = state
    return (*state.key, state.evening_known, state.member_known)


def _state_of(
    request: AuditRequest, evening_id: int | None = None, member_id: int | None = None
) -> AuditState:
    """The history's state `_club_state` left on the request, else read now (not a GET:
    `books_page` asked no state) and left there (the "audit" part of the kept reads)."""
    state = getattr(request, "audit_state", None)
    if state is None:
        state = audit_state(club=request.club, evening_id=evening_id, member_id=member_id)
        request.audit_state = state
    return state


#: The history pages' kept parts: the club, its books and the history's state beyond them
#: (`AuditState`); the calls add the evening's id, or the person's id and page number.
AUDIT_INDEX_BODY = KeptRead("audit_index_body", depends=("club", "books", "audit"))
AUDIT_EVENING_BODY = KeptRead("audit_evening_body", depends=("club", "books", "audit"))
AUDIT_MEMBER_LINES = KeptRead("audit_member_lines", depends=("club", "books", "audit"))


@secretary_required
@books_page(extra=_club_state)
def audit_index(request: AuditRequest) -> HttpResponse:
    """The latest changes, and links to the trail of every evening and person.

    The page's part below its frame is rendered once per club books version and
    `AuditState` and kept (league/club/caching.py); with the ETag a repeat gets 304."""
    _state_of(request)  # the "audit" part of the kept read

    def body() -> str:
        context = {
            "lines": club_audit_recent(club=request.club),
            "evenings": Evening.objects.filter(club=request.club).order_by("-date")[:60],
            "people": Member.objects.filter(club=request.club).order_by("name"),
        }
        return render_to_string("league/ledger/_audit_index_body.html", context)

    html = AUDIT_INDEX_BODY.cached(request=request, build=body)
    context = {"body": mark_safe(html)}  # our own render
    return render(request, "league/ledger/audit_index.html", context)


@secretary_required
@books_page(extra=_club_state)
def audit_evening(request: AuditRequest, evening_id: int) -> HttpResponse:
    """Every change of one evening (also of a deleted one of this club), the newest
    AUDIT_LINES_SHOWN; another club's or an unknown evening is 404.

    The page's heading and lines are rendered once per club books version and
    `AuditState` and kept; with the ETag a repeat gets 304."""
    state = _state_of(request, evening_id=evening_id)
    if not state.evening_known:
        raise Http404

    def body() -> str:
        evening = Evening.objects.filter(pk=evening_id, club=request.club).first()
        lines = evening_audit(evening_id=evening_id)
        context = {
            "evening": evening,
            "evening_id": evening_id,
            "lines": lines[:AUDIT_LINES_SHOWN],
            "more": max(0, len(lines) - AUDIT_LINES_SHOWN),
        }
        return render_to_string("league/ledger/_audit_evening_body.html", context)

    html = AUDIT_EVENING_BODY.cached(evening_id, request=request, build=body)
    context = {"body": mark_safe(html)}  # our own render
    return render(request, "league/ledger/audit.html", context)


@secretary_required
@books_page(extra=_club_state)
def audit_member(request: AuditRequest, member_id: int) -> HttpResponse:
    """Every change concerning one person, newest first, AUDIT_LINES_SHOWN a page
    (?seite=N); reads only the page's records. Another club's or an
    unknown person is 404.

    The page's heading and lines are rendered once per club books version, `AuditState`
    (the person's own records that move no books version among the people's) and page
    number and kept (league/club/caching.py): a repeated visit renders only the page's
    frame; with the ETag it gets 304."""
    state = _state_of(request, member_id=member_id)
    if not state.member_known:
        raise Http404
    number = whole_number(request.GET.get("seite"), maximum=10**6) or 1
    offset = (number - 1) * AUDIT_LINES_SHOWN

    def body() -> str:
        person = Member.objects.get(pk=member_id, club=request.club)
        page = member_audit_page(member=person, offset=offset, limit=AUDIT_LINES_SHOWN)
        context = {
            "person": person,
            "lines": page.lines,
            "more": max(0, page.total - offset - AUDIT_LINES_SHOWN),
            "next_page": number + 1 if page.total > offset + AUDIT_LINES_SHOWN else None,
            "previous_page": number - 1 if number > 1 else None,
        }
        return render_to_string("league/ledger/_audit_member_lines.html", context)

    html = AUDIT_MEMBER_LINES.cached(member_id, number, request=request, build=body)
    context = {"body": mark_safe(html)}  # our own render
    return render(request, "league/ledger/audit.html", context)
