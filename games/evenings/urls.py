"""Evening pages: the list, the sheet, the secretary's attendance and game entry."""

from django.urls import path

from . import views

urlpatterns = [
    path("abende/", views.evening_index, name="evening_list"),
    path("abende/neu/", views.evening_create, name="evening_create"),
    path("abende/<int:pk>/", views.evening_detail, name="evening_detail"),
    path("abende/<int:pk>/bearbeiten/", views.evening_edit, name="evening_edit"),
    path("abende/<int:pk>/loeschen/", views.evening_delete, name="evening_delete"),
    path("abende/<int:pk>/spiele/", views.game_entry, name="game_entry"),
    path("abende/<int:pk>/spiele/<int:game_pk>/", views.game_edit, name="game_edit"),
    path("abende/<int:pk>/spiele/<int:game_pk>/loeschen/", views.game_delete, name="game_delete"),
    path("abende/<int:pk>/spiele/<int:game_pk>/rueckgaengig/", views.game_undo, name="game_undo"),
    path("abende/<int:pk>/einsprueche/", views.evening_objections_page, name="evening_objections"),
    path(
        "abende/<int:pk>/einsprueche/<int:objection_pk>/antwort/",
        views.objection_answer_page,
        name="objection_answer",
    ),
    path("abende/<int:pk>/abschliessen/", views.evening_finalise_page, name="evening_finalise"),
    path("abende/termine/", views.planned_evenings_page, name="planned_evenings"),
    path("kalender/<str:token>.ics", views.calendar_feed, name="calendar_feed"),
]
