"""URL conf of the error-page tests: the project's pages plus one view that fails."""

from django.urls import include, path


def fails(request):
    raise RuntimeError("a bug")


urlpatterns = [
    path("kaputt/", fails),
    path("", include("schockclub.urls")),
]
