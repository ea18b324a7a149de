"""manage.py import_club_book ATTENDANCE.csv GAMES.csv [--club NAME] [--dry-run] [--user NAME]

Imports the club book all or nothing; prints every bad row as file:line: reason,
or what was (or, with --dry-run, would be) created and the recomputed totals per season.
"""

from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from league.club.models import Club
from league.club.money import format_money
from league.club.scoping import across_clubs
from league.clubbook.services import club_book_import


class Command(BaseCommand):
    help = "Import the club book: attendance and games CSV files (all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("attendance", type=Path, help="club-book-attendance.csv")
        parser.add_argument("games", type=Path, help="club-book-games.csv")
        parser.add_argument(
            "--club",
            default=getattr(settings, "CLUB_NAME", "Schockclub"),
            help="The club's name (created if missing).",
        )
        parser.add_argument("--dry-run", action="store_true", help="Check and count only.")
        parser.add_argument(
            "--user", help="Username recorded as the author in the audit trail (optional)."
        )

    @across_clubs()  # the club named is found or made
    def handle(self, *args, **options):
        paths = options["attendance"], options["games"]
        for path in paths:
            if not path.is_file():
                raise CommandError(f"{path}: no such file")
        club_name = options["club"].strip()
        longest = Club._meta.get_field("name").max_length or 100
        if not club_name or len(club_name) > longest or not club_name.isprintable():
            raise CommandError(
                f"--club: a club's name is 1 to {longest} printable characters, "
                f"not {len(club_name)}."
            )
        user = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"No user named {options['user']!r}.")
        result = club_book_import(
            user=user,
            club_name=club_name,
            attendance=paths[0].read_bytes(),
            games=paths[1].read_bytes(),
            dry_run=options["dry_run"],
            attendance_name=str(paths[0]),
            games_name=str(paths[1]),
        )
        if result.errors:
            for error in result.errors:
                self.stderr.write(str(error))
            raise CommandError(f"{len(result.errors)} bad rows: nothing was imported.")
        head = "Dry run, nothing written. Would create" if result.dry_run else "Created"
        counts = ", ".join(f"{k} {v}" for k, v in result.created.items())
        self.stdout.write(f"{head}: {counts}; unchanged evenings: {result.skipped}")
        for s in result.seasons:
            self.stdout.write(
                f"{s.year}: {s.evenings} evenings ({s.new_evenings} new), {s.games} games, "
                f"{s.schock_aus} Schock-Aus, {s.runden} Runden, {s.marks_total} Marks = "
                f"{format_money(s.money_total, s.currency)}"
            )
