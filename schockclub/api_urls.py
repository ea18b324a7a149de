"""The REST API under /api/v1/ (issue 4): one router for every area.

Add a viewset with one `router.register(...)` line below; plain views go into
`urlpatterns`. Schema at /api/schema/, Swagger UI at /api/docs/ (schockclub/urls.py).
"""

from django.urls import path
from rest_framework.routers import DefaultRouter

from games.api import EveningViewSet, GameViewSet, RulesEvaluateView, RundeViewSet
from league.api import ClubViewSet, MemberViewSet, MeView, SeasonViewSet, TokenView
from league.report_api import SeasonReportPdfView, SeasonReportView

router = DefaultRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("seasons", SeasonViewSet, basename="season")
router.register("members", MemberViewSet, basename="member")
router.register("evenings", EveningViewSet, basename="evening")
router.register("games", GameViewSet, basename="game")
router.register("runden", RundeViewSet, basename="runde")

urlpatterns: list = [
    path("me/", MeView.as_view(), name="api-me"),
    path("rules/evaluate/", RulesEvaluateView.as_view(), name="api-rules-evaluate"),
    path("auth/token/", TokenView.as_view(), name="api-token"),
    # Season report (issue 5, league/report_api.py).
    path("seasons/<int:season_id>/report/", SeasonReportView.as_view(), name="api-season-report"),
    path(
        "seasons/<int:season_id>/report/pdf/",
        SeasonReportPdfView.as_view(),
        name="api-season-report-pdf",
    ),
    *router.urls,
]
