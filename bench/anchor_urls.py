"""The app's URLs and the anchors the app's cheapest endpoint is compared with, each
through the whole middleware stack (sessions, CSRF, auth, CSP, ...):

- `/bench/bare/`: a bare Django view that returns a few bytes: no database, no template;
- `/bench/drf/`: the same answer from a Django REST framework view with no
  authentication, permission or throttle: the framework's own floor (its request, content
  negotiation and JSON rendering);
- `/bench/drf-token/`: that view behind the app's API authentication and permission (the
  token's one query, the club's scope), but no throttle;
- `/bench/wait/`: a request that waits 200 ms without the CPU, as one waits on a slow
  PostgreSQL query or a slow client (bench_gunicorn.py `--waiting`).

The steps from the bare view to `GET /api/v1/clubs/` (which adds the throttle and the
club's serializer) show where the trivial endpoint's cost comes from
(bench/bench_api_profile.py)."""

import time

from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


def wait(request: HttpRequest) -> HttpResponse:
    time.sleep(0.2)
    return HttpResponse(b"waited", content_type="text/plain")


class FrameworkFloor(APIView):
    """DRF's cost alone: no authentication, permission or throttle."""

    authentication_classes: list = []
    permission_classes: list = []
    throttle_classes: list = []

    def get(self, request: Request) -> Response:
        return Response({"ok": True})


class TokenOnly(APIView):
    """DRF with the app's authentication and permission (settings.REST_FRAMEWORK), no
    throttle."""

    throttle_classes: list = []

    def get(self, request: Request) -> Response:
        return Response({"ok": True})


urlpatterns = [
    path("bench/bare/", bare),
    path("bench/drf/", FrameworkFloor.as_view()),
    path("bench/drf-token/", TokenOnly.as_view()),
    path("bench/wait/", wait),
    path("", include("schockclub.urls")),
]
