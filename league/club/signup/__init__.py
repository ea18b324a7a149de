"""Clubs that sign up themselves at /registrieren/ (off unless SIGNUP_OPEN is set): a club
name, the secretary's name and e-mail address; the secretary confirms by a signed link that
expires and sets a password there, and the club starts with a season as `club_create`
makes it (README "Clubs sign up")."""
