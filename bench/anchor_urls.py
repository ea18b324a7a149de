"""The app's URLs and `/bench/bare/`: a view that returns a few bytes, no database, no
template, through the whole middleware stack (sessions, CSRF, auth, CSP, ...)."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [path("bench/bare/", bare), path("", include("schockclub.urls"))]
