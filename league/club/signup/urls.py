"""The sign-up pages (404 unless settings.SIGNUP_OPEN)."""

from django.urls import path

from league.club.signup import views

urlpatterns = [
    path("registrieren/", views.club_signup, name="club_signup"),
    path("registrieren/<str:token>/", views.club_signup_confirm, name="club_signup_confirm"),
]
