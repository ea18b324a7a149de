"""The base of every admin that writes the books through the services (games/admin.py,
league/admin.py): a service's refusal (`BooksError`) rolls the admin's transaction back and
shows on the form or as a message; actions run all or nothing; no history "revert" (it
would write rows past the services and the books-changed event)."""

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponseRedirect
from django.urls import reverse
from simple_history.admin import SimpleHistoryAdmin

from league.club.errors import BooksError


def _refused_form(form_class: type[forms.ModelForm], refusal: BooksError) -> type[forms.ModelForm]:
    """`form_class` showing a service's refusal: on the field it names, else on top."""

    def clean(form: forms.ModelForm) -> dict[str, Any] | None:
        data = form_class.clean(form)
        form.add_error(refusal.field if refusal.field in form.fields else None, refusal.message)
        return data

    return type(f"Refused{form_class.__name__}", (form_class,), {"clean": clean})


def across_clubs_formfield(db_field, **kwargs: Any) -> forms.Field | None:
    """`formfield_callback` of an admin ModelForm declared at import: a relation's choices
    from every club (the model's base manager). Its default manager is club-scoped
    (league.club.scoping) and outside a scope refuses the query the field is built with;
    the operator's admin works across clubs."""
    if db_field.is_relation and db_field.remote_field is not None and "queryset" not in kwargs:
        kwargs["queryset"] = db_field.remote_field.model._base_manager.all()
    return db_field.formfield(**kwargs)


def adopt(obj, saved) -> None:
    """Make the admin's unsaved instance the row the service stored (the answer and the
    admin's log name it)."""
    for f in saved._meta.concrete_fields:
        setattr(obj, f.attname, getattr(saved, f.attname))
    obj._state.adding = False
    obj._state.fields_cache = {}


class BooksAdmin(SimpleHistoryAdmin):
    """Base of the admins of the books: writes go through the services (subclasses call
    them in `save_model` / `delete_model`); a refusal rolls back and shows; no "revert"."""

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except BooksError as refusal:
            # The admin's transaction was rolled back: show the same input again, refused.
            request.books_refusal = refusal
            return super().changeform_view(request, object_id, form_url, extra_context)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        refusal = getattr(request, "books_refusal", None)
        return form if refusal is None else _refused_form(form, refusal)

    def delete_view(self, request, object_id, extra_context=None):
        try:
            return super().delete_view(request, object_id, extra_context)
        except BooksError as refusal:
            self.message_user(request, refusal.message, messages.ERROR)
            opts = self.model._meta
            url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[object_id])
            return HttpResponseRedirect(url)

    def changelist_view(self, request, extra_context=None):
        # An action ("delete selected", ...) runs in one transaction: all or nothing.
        try:
            with transaction.atomic():
                return super().changelist_view(request, extra_context)
        except BooksError as refusal:
            self.message_user(request, refusal.message, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())

    def revert_disabled(self, request, obj=None):
        return True

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method == "POST":  # a revert would write the row past the services
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)
