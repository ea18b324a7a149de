"""Logins of the club register (issue 13 item 3, issue 12 item 2): API tokens that expire
(django-rest-knox), the lockout after repeated failed logins (django-axes), changing and
resetting a password (Django's auth views), each of which revokes the login's API tokens.

Part of the club register layer (league.club): it uses the register's error body and API
helpers; nothing in league.club imports it.
"""
