"""The REST API under /api/v1/ (issue 4): one router for both apps."""

from django.urls import path
from rest_framework.routers import DefaultRouter

router = DefaultRouter()

urlpatterns: list = [] + router.urls
