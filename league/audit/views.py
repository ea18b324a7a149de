"""Pages of the audit trail (issue 6.4, issue 10 item 4): the club's latest changes, every
change of one evening (also of a deleted one) and every change concerning one person.

Secretary only; another club's evening or person is 404. The lines come from
league/audit/selectors.py; the views parse and render.
"""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.evenings.models import Evening
from league.audit.selectors import club_audit_recent, evening_audit, member_audit_page
from league.club.access import ClubRequest, secretary_required
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


@secretary_required
def audit_member(request: ClubRequest, member_id: int) -> HttpResponse:
    """Every change concerning one person, newest first, AUDIT_LINES_SHOWN a page
    (?seite=N); reads only the page's records (issue 15 item 4)."""
    person = get_object_or_404(Member, pk=member_id, club=request.club)
    number = whole_number(request.GET.get("seite"), maximum=10**6) or 1
    offset = (number - 1) * AUDIT_LINES_SHOWN
    page = member_audit_page(member=person, offset=offset, limit=AUDIT_LINES_SHOWN)
    context = {
        "person": person,
        "lines": page.lines,
        "more": max(0, page.total - offset - AUDIT_LINES_SHOWN),
        "page_number": number,
        "next_page": number + 1 if page.total > offset + AUDIT_LINES_SHOWN else None,
        "previous_page": number - 1 if number > 1 else None,
    }
    return render(request, "league/ledger/audit.html", context)
