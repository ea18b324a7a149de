"""Pages of the club register: a new season, a season's rule set, and the secretary's club
administration under /verein/ (people, logins, seasons) with the invitation link."""

from django.urls import path

from . import views

urlpatterns = [
    path("saison/neu/", views.season_new, name="season_create"),
    path("regeln/", views.current_rules, name="current_rules"),
    path("saison/<int:year>/regeln/", views.season_rules_page, name="season_rules"),
    path("saison/<int:year>/regeln/bearbeiten/", views.season_rules_edit, name="season_rules_edit"),
    path("saison/<int:year>/satzung/", views.season_statutes_page, name="season_statutes"),
    path("verein/", views.club_admin, name="club_admin"),
    path("verein/personen/", views.club_members, name="club_members"),
    path("verein/personen/<int:pk>/", views.club_member, name="club_member"),
    path("verein/personen/<int:pk>/aendern/", views.club_member_action, name="club_member_action"),
    path("verein/zugaenge/", views.club_logins, name="club_logins"),
    path("verein/zugaenge/<int:pk>/neu/", views.club_login_new, name="club_login_new"),
    path("verein/zugaenge/<int:pk>/einladung/", views.club_login_invite, name="club_login_invite"),
    path("verein/saisons/", views.club_seasons, name="club_seasons"),
    path(
        "einladung/<str:uidb64>/<str:token>/",
        views.login_invitation_accept,
        name="login_invitation_accept",
    ),
]
