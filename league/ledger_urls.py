"""URLs of the kitty, the Runden, the club book and the audit trail (issue 6)."""

from django.urls import path

from . import ledger_views as views

urlpatterns = [
    path("kasse/", views.ledger_home, name="ledger_home"),
    path("kasse/konto/<int:member_id>/", views.ledger_statement, name="ledger_statement"),
    path("kasse/zahlung/", views.payment_create, name="payment_create"),
    path("kasse/zahlung/<int:pk>/storno/", views.payment_cancel_view, name="payment_cancel"),
    path("runden/", views.runden_list, name="runden_list"),
    path("runden/<int:schock_aus_id>/gegeben/", views.runde_given, name="runde_given"),
    path("runden/<int:schock_aus_id>/zuruecknehmen/", views.runde_undo, name="runde_undo"),
    path("vereinsbuch/import/", views.club_book_upload, name="club_book_upload"),
    path("vereinsbuch/import/<str:token>/", views.club_book_confirm, name="club_book_confirm"),
    path("vereinsbuch/export/<str:which>.csv", views.club_book_download, name="club_book_export"),
    path("verlauf/", views.audit_index, name="audit_index"),
    path("verlauf/abend/<int:evening_id>/", views.audit_evening, name="audit_evening"),
    path("verlauf/person/<int:member_id>/", views.audit_member, name="audit_member"),
]
