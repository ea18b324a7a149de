from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("Club and seasons")

    def ready(self) -> None:
        # The books connect to the one books-changed event of the register (league.club.books):
        # the register sits below the books and cannot import them.
        from league.club.books import books_changed_connect
        from league.ledger.services import ledger_on_books_changed

        books_changed_connect(ledger_on_books_changed)
