"""Pages of the kitty: balances, a member's statement, payments and their cancellation."""

from django.urls import path

from . import views

urlpatterns = [
    path("kasse/", views.ledger_home, name="ledger_home"),
    path("kasse/konto/<int:member_id>/", views.ledger_statement, name="ledger_statement"),
    path("kasse/zahlung/", views.payment_create, name="payment_create"),
    path("kasse/zahlung/<int:pk>/storno/", views.payment_cancel_view, name="payment_cancel"),
]
