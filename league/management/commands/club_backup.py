"""manage.py club_backup "CLUB NAME" FILE

Writes everything of one club into one backup file (gzip-compressed JSON, format
"schockclub-backup" version 1; what is in it: league/backup/tables.py). Reads only.
"""

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from league.backup.selectors import (
    club_backup,
)
from league.club.models import Club
from league.club.scoping import club_scope


class Command(BaseCommand):
    help = "Write everything of one club (books, logins, audit history) into one backup file."

    def add_arguments(self, parser):
        parser.add_argument("club", help="The club's name.")
        parser.add_argument("file", type=Path, help="The backup file to write, e.g. club.json.gz")

    def handle(self, *args, **options):
        club = Club.objects.filter(name=options["club"]).first()
        if club is None:
            raise CommandError(f"No club named {options['club']!r}.")
        start = time.perf_counter()
        with club_scope(club):  # the club named: its rows only
            data = club_backup(club=club)
        path: Path = options["file"]
        try:
            path.write_bytes(data)
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror or exc}") from exc
        self.stdout.write(
            f"{club.name}: {len(data):,} bytes written to {path} in "
            f"{time.perf_counter() - start:.1f} s"
        )
