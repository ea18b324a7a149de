"""Pages of the audit trail (issue 6.4, issue 10 item 4): the club's latest changes, every
change of one evening (also of a deleted one) and every change concerning one person.

Secretary only; another club's evening or person is 404. The lines come from
league/audit/selectors.py; the views parse and render.
"""

from django.db.models import Max
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from games.evenings.models import Evening
from league.audit.selectors import club_audit_recent, evening_audit, member_audit_page
from league.club.access import ClubRequest, secretary_required
from league.club.caching import books_cached, books_page
from league.club.models import Member
from league.club.selectors import whole_number

AUDIT_LINES_SHOWN = 300


@secretary_required
def audit_index(request: ClubRequest) -> HttpResponse:
    """The latest changes, and links to the trail of every evening and person."""
    context = {
        "lines": club_audit_recent(club=request.club),
        "evenings": Evening.objects.filter(club=request.club).order_by("-date")[:60],
        "people": Member.objects.filter(club=request.club).order_by("name"),
    }
    return render(request, "league/ledger/audit_index.html", context)


@secretary_required
def audit_evening(request: ClubRequest, evening_id: int) -> HttpResponse:
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


def _person_state(request: ClubRequest, member_id: int) -> tuple[int, int | None]:
    """The person's own latest history record (its login, active and secretary flags
    change without the books; everything else the page shows moves the club's books
    version). Leaves the person on the request; another club's person is 404."""
    person = get_object_or_404(Member, pk=member_id, club=request.club)
    request.person = person  # type: ignore[attr-defined]
    latest = person.history.aggregate(latest=Max("history_id"))["latest"]
    request.person_state = (person.pk, latest)  # type: ignore[attr-defined]
    return request.person_state  # type: ignore[attr-defined]


@secretary_required
@books_page(extra=_person_state)
def audit_member(request: ClubRequest, member_id: int) -> HttpResponse:
    """Every change concerning one person, newest first, AUDIT_LINES_SHOWN a page
    (?seite=N); reads only the page's records (issue 15 item 4).

    The page's lines are rendered once per club books version, person's own latest
    record and page number and kept (league/club/caching.py): a repeated visit renders
    only the page's frame; with the ETag it gets 304."""
    person = getattr(request, "person", None) or get_object_or_404(
        Member, pk=member_id, club=request.club
    )
    state = getattr(request, "person_state", None) or _person_state(request, member_id)
    number = whole_number(request.GET.get("seite"), maximum=10**6) or 1
    offset = (number - 1) * AUDIT_LINES_SHOWN

    def body() -> str:
        page = member_audit_page(member=person, offset=offset, limit=AUDIT_LINES_SHOWN)
        context = {
            "person": person,
            "lines": page.lines,
            "more": max(0, page.total - offset - AUDIT_LINES_SHOWN),
            "next_page": number + 1 if page.total > offset + AUDIT_LINES_SHOWN else None,
            "previous_page": number - 1 if number > 1 else None,
        }
        return render_to_string("league/ledger/_audit_member_lines.html", context)

    version = request.books_version  # type: ignore[attr-defined]
    html = books_cached("audit_member_lines", version, state, number, build=body)
    context = {"person": person, "body": mark_safe(html)}  # noqa: S308 - our own render
    return render(request, "league/ledger/audit.html", context)
