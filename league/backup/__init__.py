"""Backup and restore of one club: every row of its books, logins and audit history in one
versioned file. `tables` says what is in it, `services` writes and reads it."""
