"""Pages of the club book: import (upload, check, confirm) and export."""

from django.urls import path

from . import views

urlpatterns = [
    path("vereinsbuch/import/", views.club_book_upload, name="club_book_upload"),
    path("vereinsbuch/import/<str:token>/", views.club_book_confirm, name="club_book_confirm"),
    path("vereinsbuch/export/<str:which>.csv", views.club_book_download, name="club_book_export"),
]
