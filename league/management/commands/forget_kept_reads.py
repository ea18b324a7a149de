"""manage.py forget_kept_reads

Forgets every read the cache kept (league/club/caching.py `books_cache_forget`), leaving
sessions and the task queue alone. Run it after restoring the whole database from an older
dump (pg_restore) while the cache (Redis) kept running: the restored seasons are back at
older data versions, which they will reach again with other books. `club_restore` forgets
by itself.
"""

from django.core.management.base import BaseCommand

from league.club.caching import books_cache_forget


class Command(BaseCommand):
    help = "Forget every kept read of the books (after restoring the database from a dump)."

    def handle(self, *args, **options):
        removed = books_cache_forget()
        self.stdout.write(f"{removed:,} kept reads forgotten")
