"""Template context: the logged-in user's membership (club, secretary or not)."""

from django.http import HttpRequest


def membership(request: HttpRequest) -> dict:
    """Adds `membership` (the user's Member or None) and `is_secretary` to every template.
    A page behind `member_required` has read the member already (`request.member`); other
    pages read it from the user (one query)."""
    member = getattr(request, "member", None)
    if member is None:
        user = getattr(request, "user", None)
        member = getattr(user, "member", None) if user and user.is_authenticated else None
    return {"membership": member, "is_secretary": bool(member and member.is_secretary)}
