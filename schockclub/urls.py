"""URL wiring: pages of both apps, the REST API, its schema and docs, the admin, login."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from league.club import views as club_views
from league.club.accounts import views as account_views
from schockclub import webapp
from schockclub.health import HealthView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    # Logging out revokes the login's API tokens too.
    path("logout/", account_views.LogoutView.as_view(), name="logout"),
    path("api/v1/", include("schockclub.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view loads its start-up script as a file: no inline script (CSP).
    path("api/docs/", club_views.api_docs, name="swagger-ui"),
    path("health/", HealthView.as_view(), name="health"),
    # The installable app: manifest and service worker from the site root.
    path("manifest.webmanifest", webapp.manifest, name="web_manifest"),
    path("sw.js", webapp.service_worker, name="service_worker"),
    path("", include("league.urls")),
    path("", include("games.urls")),
]
