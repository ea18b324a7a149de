"""The league's pages, one URL conf per package, in the order Django tries them."""

from django.urls import include, path

from league.standings.home import home

urlpatterns = [
    path("", home, name="home"),
    path("", include("league.club.urls")),
    path("", include("league.club.accounts.urls")),
    path("", include("league.club.signup.urls")),
    path("", include("league.standings.urls")),
    path("", include("league.ledger.urls")),
    path("", include("league.runden.urls")),
    path("", include("league.clubbook.urls")),
    path("", include("league.audit.urls")),
    path("", include("league.reports.urls")),
    path("", include("league.sharing.urls")),
    path("", include("league.statistics.urls")),
    path("", include("league.banking.urls")),
    path("", include("league.closing.urls")),
]
