"""The login backend: Django's `ModelBackend`, reading a session's login with its person
and club in one query.

Every page request of a logged-in person reads the session's user and then the person
with the club (to open the club's scope, league/club/middleware.py): two queries, each
built anew by the ORM. Here the user is read with `select_related("member__club")` by SQL
built once per database (league/club/compiled_read.py), and marked as read along with its
person (`club_read_with_login`), so the scope and `member_for_user` take the person from
it. Logging in (passwords, django-axes before it) is ModelBackend's, unchanged.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError

from league.club.compiled_read import CompiledRead

# Its path, for `login(request, user, backend=LOGIN_BACKEND)` after a password is set.
LOGIN_BACKEND = "league.club.accounts.backends.LoginBackend"

_login_read: CompiledRead[Any] = CompiledRead(
    get_user_model(),
    lambda alias: (
        get_user_model()._default_manager.using(alias).filter(pk=0).select_related("member__club")
    ),
    placeholder=0,
)


class LoginBackend(ModelBackend):
    """ModelBackend whose `get_user(user_id)` returns the active login with primary key
    `user_id` (None if there is none, or it cannot log in), its person (`user.member`,
    None without) and the person's club read in the same query."""

    def get_user(self, user_id: Any) -> Any:
        try:
            pk = get_user_model()._meta.pk.to_python(user_id)
        except ValidationError:  # a session's id that is no key: no login
            return None
        found = _login_read.read(pk)
        if not found or not self.user_can_authenticate(found[0]):
            return None
        user = found[0]
        user.club_read_with_login = True
        return user
