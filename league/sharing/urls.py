"""The evening's share page and its image card; the wall screen and its links."""

from django.urls import path

from . import views

urlpatterns = [
    path("abende/<int:pk>/teilen/", views.evening_share, name="evening_share"),
    path("abende/<int:pk>/teilen.png", views.evening_share_card, name="evening_share_card"),
    path("tafel/<str:token>/", views.wall, name="wall"),
    path("verein/tafel/", views.wall_screens, name="wall_screens"),
]
