"""Pages of the audit trail: recent changes, per evening, per person."""

from django.urls import path

from . import views

urlpatterns = [
    path("verlauf/", views.audit_index, name="audit_index"),
    path("verlauf/abend/<int:evening_id>/", views.audit_evening, name="audit_evening"),
    path("verlauf/person/<int:member_id>/", views.audit_member, name="audit_member"),
]
