"""manage.py club_restore FILE

Loads a club backup (written by club_backup) into this database, all or nothing: every row
as it was, primary keys kept, logins matched by username and created without any right over
the installation (never superuser, staff, groups or permissions). Refuses, naming the
conflict, when the club, a person's login or a row's number is there already, and refuses
files of another format or version, damaged or edited files (digest, row counts) and books
that disagree with their records, naming the first difference (league/backup/services.py).
Exits non-zero when it refuses; nothing is written then.
"""

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from league.backup.services import club_restore
from league.club.errors import BooksError
from league.club.scoping import across_clubs


class Command(BaseCommand):
    help = "Restore one club from a backup file (all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="The backup file written by club_backup.")

    @across_clubs()  # a whole club restored, its logins matched across clubs
    def handle(self, *args, **options):
        path: Path = options["file"]
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror or exc}") from exc
        start = time.perf_counter()
        try:
            result = club_restore(data=data)
        except BooksError as exc:
            raise CommandError(f"{exc.message} {_('Nothing was restored.')}") from exc
        rows = sum(result.counts.values())
        self.stdout.write(
            f"{result.club.name}: {rows:,} rows restored in {time.perf_counter() - start:.1f} s; "
            f"logins created: {', '.join(result.users_created) or '-'}; "
            f"existing logins used as authors: {', '.join(result.users_existing) or '-'}"
        )
        if result.rights_dropped:
            self.stdout.write(
                "rights over the installation in the file, not given (superuser, staff, "
                f"groups, permissions): {', '.join(result.rights_dropped)}"
            )
        if not result.digest_checked:
            self.stdout.write(
                "a version 1 file without a digest: its rows and books were checked, "
                "an edit that keeps them consistent cannot be told"
            )
