"""The base of the API's answer serializers: a ModelSerializer whose fields are built from
the model once per class.

DRF's ModelSerializer builds its fields from the model on every instance (each model
field's options, choices and validators): for the club's three fields that was about
0.09 ms of the 0.14 ms `ClubSerializer([club], many=True).data` took, on every request of
the API's cheapest endpoint (bench/bench_api_profile.py). An answer's fields depend on the
class alone, so they are built once and each instance gets a deep copy, as DRF gives a
plain Serializer's declared fields.

No field so kept may hold a queryset, itself or in a validator (a writable related field's
choices, UniqueValidator): the club scope (league/club/scoping.py) filters a queryset when
it is made, so a kept one would check every club's input against the first club's rows. A
class with such a field raises ImproperlyConfigured when its fields are first built; the
answers' fields are read-only and hold none.
"""

from __future__ import annotations

import copy
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from rest_framework import serializers


class AnswerSerializer(serializers.ModelSerializer):
    """ModelSerializer for answers (see the module). Raises ImproperlyConfigured on a field
    that holds a queryset."""

    def get_fields(self) -> dict[str, Any]:
        cls = type(self)
        built = cls.__dict__.get("_built_fields")
        if built is None:
            built = super().get_fields()
            scoped = sorted(name for name, field in built.items() if _holds_queryset(field))
            if scoped:
                raise ImproperlyConfigured(
                    f"{cls.__name__} keeps its fields; these hold a queryset: {scoped}"
                )
            cls._built_fields = built  # type: ignore[attr-defined]
        return copy.deepcopy(built)


def _holds_queryset(field: Any) -> bool:
    """Whether `field` or one of its validators holds a queryset."""
    holders = [field, *getattr(field, "validators", ())]
    return any(getattr(holder, "queryset", None) is not None for holder in holders)
