"""The evening's share page and its image card."""

from django.urls import path

from . import views

urlpatterns = [
    path("abende/<int:pk>/teilen/", views.evening_share, name="evening_share"),
    path("abende/<int:pk>/teilen.png", views.evening_share_card, name="evening_share_card"),
]
