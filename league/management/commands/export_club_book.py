"""manage.py export_club_book ATTENDANCE.csv GAMES.csv [--club NAME]

Writes the club's whole book in the import format, in canonical order.
"""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from league.club.models import Club
from league.club.scoping import club_scope
from league.clubbook.selectors import (
    club_book_export,
)


class Command(BaseCommand):
    help = "Export the club book as attendance and games CSV files."

    def add_arguments(self, parser):
        parser.add_argument("attendance", type=Path)
        parser.add_argument("games", type=Path)
        parser.add_argument("--club", default=getattr(settings, "CLUB_NAME", "Schockclub"))

    def handle(self, *args, **options):
        club = Club.objects.filter(name=options["club"]).first()
        if club is None:
            raise CommandError(f"No club named {options['club']!r}.")
        with club_scope(club):  # the club named: its rows only
            attendance, games = club_book_export(club=club)
        options["attendance"].write_bytes(attendance)
        options["games"].write_bytes(games)
        rows = attendance.count(b"\n") - 1, games.count(b"\n") - 1
        self.stdout.write(
            f"Wrote {options['attendance']} ({rows[0]} rows) and "
            f"{options['games']} ({rows[1]} rows)."
        )
