"""The REST API under /api/v1/: one router for every area.

Add a viewset with one `router.register(...)` line below; plain views go into
`urlpatterns`. Schema at /api/schema/, Swagger UI at /api/docs/ (schockclub/urls.py).
"""

from django.urls import path
from rest_framework.routers import DefaultRouter

from games.evenings.api import (
    EveningFinaliseView,
    EveningObjectionsView,
    EveningViewSet,
    ObjectionAnswerView,
    PlannedEveningCancelView,
    PlannedEveningMoveView,
    PlannedEveningsView,
)
from games.rounds.api import GameViewSet, RulesEvaluateView
from league.audit.api import HistoryView
from league.banking.api import (
    BankStatementView,
    MemberGiroCodeView,
    MemberPaymentView,
    NotificationChoicesView,
    PushSubscriptionView,
)
from league.closing.api import SeasonCloseView, SeasonReopenView, SeasonSignOffView
from league.club.accounts.api import (
    ClubLoginInviteView,
    ClubLoginListView,
    ClubLoginLockView,
    ClubLoginUnlockView,
    LogoutAllView,
    LogoutView,
    PasswordChangeView,
    TokenDetailView,
    TokenListView,
    TokenView,
)
from league.club.api import CalendarRevokeView, ClubViewSet, MeView
from league.clubbook.api import ClubBookExportView, ClubBookImportView
from league.ledger.api import BalancesView, MemberStatementView, PaymentViewSet
from league.reports.api import SeasonReportPdfView, SeasonReportView
from league.runden.api import RundeViewSet
from league.sharing.api import EveningShareView
from league.standings.api import AllTimeStandingsView, MemberViewSet, SeasonViewSet
from league.statistics.api import RecordsView, SeasonStatisticsView

router = DefaultRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("seasons", SeasonViewSet, basename="season")
router.register("members", MemberViewSet, basename="member")
router.register("evenings", EveningViewSet, basename="evening")
router.register("games", GameViewSet, basename="game")
router.register("runden", RundeViewSet, basename="runde")
router.register("payments", PaymentViewSet, basename="payment")

urlpatterns: list = [
    path("me/", MeView.as_view(), name="api-me"),
    path("me/calendar/revoke/", CalendarRevokeView.as_view(), name="api-calendar-revoke"),
    # The calendar's planned evenings (games/evenings/api.py).
    path("planned-evenings/", PlannedEveningsView.as_view(), name="api-planned-evenings"),
    path(
        "planned-evenings/<str:date>/move/",
        PlannedEveningMoveView.as_view(),
        name="api-planned-evening-move",
    ),
    path(
        "planned-evenings/<str:date>/cancel/",
        PlannedEveningCancelView.as_view(),
        name="api-planned-evening-cancel",
    ),
    path("rules/evaluate/", RulesEvaluateView.as_view(), name="api-rules-evaluate"),
    # Objections to a provisional evening (games/evenings/api.py).
    path(
        "evenings/<int:evening_id>/objections/",
        EveningObjectionsView.as_view(),
        name="api-evening-objections",
    ),
    path(
        "evenings/<int:evening_id>/finalise/",
        EveningFinaliseView.as_view(),
        name="api-evening-finalise",
    ),
    path(
        "objections/<int:objection_id>/answer/",
        ObjectionAnswerView.as_view(),
        name="api-objection-answer",
    ),
    path("auth/token/", TokenView.as_view(), name="api-token"),
    # Logins (league/club/accounts/api.py).
    path("auth/logout/", LogoutView.as_view(), name="api-logout"),
    path("auth/logout-all/", LogoutAllView.as_view(), name="api-logout-all"),
    path("auth/tokens/", TokenListView.as_view(), name="api-tokens"),
    path("auth/tokens/<str:id>/", TokenDetailView.as_view(), name="api-token-detail"),
    path("auth/password/", PasswordChangeView.as_view(), name="api-password"),
    # The club's logins, for its secretary (league/club/accounts/api.py).
    path("logins/", ClubLoginListView.as_view(), name="api-logins"),
    path("logins/<int:member_id>/invite/", ClubLoginInviteView.as_view(), name="api-login-invite"),
    path("logins/<int:member_id>/lock/", ClubLoginLockView.as_view(), name="api-login-lock"),
    path("logins/<int:member_id>/unlock/", ClubLoginUnlockView.as_view(), name="api-login-unlock"),
    # Season report (league/report_api.py).
    path("seasons/<int:season_id>/report/", SeasonReportView.as_view(), name="api-season-report"),
    path(
        "seasons/<int:season_id>/report/pdf/",
        SeasonReportPdfView.as_view(),
        name="api-season-report-pdf",
    ),
    # Kitty, club book and audit trail (league/ledger_api.py).
    path(
        "members/<int:id>/statement/",
        MemberStatementView.as_view(),
        name="api-member-statement",
    ),
    path("balances/", BalancesView.as_view(), name="api-balances"),
    # Money in: transfer details and bank statements (league/banking/api.py).
    path("members/<int:id>/payment/", MemberPaymentView.as_view(), name="api-member-payment"),
    path("bank-statements/", BankStatementView.as_view(), name="api-bank-statements"),
    # Reminders by web push and e-mail (league/banking/api.py).
    path("push-subscriptions/", PushSubscriptionView.as_view(), name="api-push-subscriptions"),
    path("me/notifications/", NotificationChoicesView.as_view(), name="api-notifications"),
    path("club-book/import/", ClubBookImportView.as_view(), name="api-club-book-import"),
    path(
        "club-book/export/attendance.csv",
        ClubBookExportView.as_view(which="attendance"),
        name="api-club-book-export-attendance",
    ),
    path(
        "club-book/export/games.csv",
        ClubBookExportView.as_view(which="games"),
        name="api-club-book-export-games",
    ),
    path("history/", HistoryView.as_view(), name="api-history"),
    # The evening's share: text for the club's chat and the card.
    path("evenings/<int:evening_id>/share/", EveningShareView.as_view(), name="api-evening-share"),
    # Statistics and records (league/statistics/api.py).
    path(
        "seasons/<int:season_id>/statistics/",
        SeasonStatisticsView.as_view(),
        name="api-season-statistics",
    ),
    path("statistics/records/", RecordsView.as_view(), name="api-statistics-records"),
    # The all-time standings from per-season parts.
    path("standings/all-time/", AllTimeStandingsView.as_view(), name="api-standings-all-time"),
    # Season close with the Kassenprüfer sign-off (league/closing/api.py).
    path("seasons/<int:season_id>/close/", SeasonCloseView.as_view(), name="api-season-close"),
    path("seasons/<int:season_id>/reopen/", SeasonReopenView.as_view(), name="api-season-reopen"),
    path(
        "seasons/<int:season_id>/sign-off/",
        SeasonSignOffView.as_view(),
        name="api-season-sign-off",
    ),
    # Money in: the GiroCode of a member's open amount.
    path(
        "members/<int:id>/girocode.png",
        MemberGiroCodeView.as_view(),
        name="api-member-girocode",
    ),
    *router.urls,
]
