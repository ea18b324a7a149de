from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("Club and seasons")

    def ready(self) -> None:
        # The books connect to the one books-changed event of the register (league.club.books):
        # the register sits below the books and cannot import them.
        from games.evenings.services import evening_people_merge
        from games.rounds.services import rounds_people_merge
        from league.club.books import books_changed_connect
        from league.club.services import member_merge_connect
        from league.ledger.services import ledger_member_merge, ledger_on_books_changed

        books_changed_connect(ledger_on_books_changed)

        # The season page shows the season report's build state, which changes without
        # the books (a worker finishes): it joins the page's ETag (league.club.caching).
        from league.club.caching import season_page_state_connect
        from league.reports.builds import report_state

        def report_build_state(season) -> str:
            state = report_state(season=season)
            return f"{state.state}:{state.build.pk if state.build else ''}:{state.message}"

        season_page_state_connect(report_build_state)
        # A merge of a person entered twice: play first (it refuses conflicts and moves the
        # attendance the games need), then rounds, then the ledger's lines.
        for receiver in (evening_people_merge, rounds_people_merge, ledger_member_merge):
            member_merge_connect(receiver)
        # A login's access ends (logout, password set, login locked): its browsers' push
        # subscriptions go, so a shared phone shows no more of the person's reminders.
        from league.banking.services import push_subscriptions_of_login_delete
        from league.club.accounts.services import login_ended_connect

        login_ended_connect(push_subscriptions_of_login_delete)
        # A club-owned row saved alone without its club takes its parent's (the writers
        # set it; this is the safety net, league.club.club_of_row).
        from django.apps import apps

        from league.club.club_of_row import club_from_parent_connect

        for model, parent in CLUB_PARENTS.items():
            club_from_parent_connect(apps.get_model(model), parent)


#: The club-owned models whose club comes from a parent row, and that parent's field.
CLUB_PARENTS = {
    "games.Attendance": "evening",
    "games.Game": "evening",
    "games.Objection": "evening",
    "games.SchockAus": "game",
    "games.Round": "game",
    "games.RoundThrow": "round",
    "league.RundeGiven": "schock_aus",
    "league.SeasonSignOff": "season",
    "league.ReportBuild": "season",
    "league.PaymentReminder": "member",
    "league.NotificationChoice": "member",
    "league.PushSubscription": "member",
    "league.NotificationSent": "member",
}
