"""The league's pages, one URL conf per package, in the order Django tries them."""

from django.urls import include, path

urlpatterns = [
    path("", include("league.club.urls")),
    path("", include("league.standings.urls")),
    path("", include("league.ledger.urls")),
    path("", include("league.runden.urls")),
    path("", include("league.clubbook.urls")),
    path("", include("league.audit.urls")),
    path("", include("league.reports.urls")),
]
