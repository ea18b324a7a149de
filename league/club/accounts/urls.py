"""Pages of a login: password change and reset, "Meine Anmeldungen" (league/club/accounts/
views.py). The login and logout pages are wired in schockclub/urls.py. The URL names are
Django's, so that its views and e-mails find them."""

from django.contrib.auth import views as auth_views
from django.urls import path

from league.club.accounts import views

urlpatterns = [
    path("passwort/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "passwort/geaendert/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("passwort/vergessen/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "passwort/vergessen/gesendet/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "passwort/neu/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "passwort/neu/fertig/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("anmeldungen/", views.my_logins, name="my_logins"),
    path("anmeldungen/email/", views.my_login_email, name="my_login_email"),
    path("anmeldungen/<str:key>/widerrufen/", views.my_login_revoke, name="my_login_revoke"),
]
