"""Logins of the club register: API tokens that expire
(django-rest-knox), the lockout after repeated failed logins (django-axes), changing and
resetting a password (Django's auth views), each of which revokes the login's API tokens.

Every password is set through `services.password_set` (the invitation, a reset, a change,
the admin): it revokes the login's API tokens, ends its other sessions and records whether
the holder set it; the password change and the password links are throttled like the
login (`lockout`). The club's logins API for its secretary (invite, lock, unlock) is in
`api`.

Part of the club register layer (league.club): it uses the register's models, error body
and API helpers; the register's services and pages use its password and lockout writes.
"""
