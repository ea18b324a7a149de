"""Backup and restore of one club: every row of its books, logins and audit history in one
versioned file (issue 13 item 6). `tables` says what is in it, `services` writes and reads it."""
