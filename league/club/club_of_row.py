"""The club of a club-owned row taken from its parent: the safety net of `save()`.

Every club-owned table carries `club_id` (README "Distributing by club (Citus)"), and the
writers set it themselves (bulk paths cannot do otherwise: `bulk_create` sends no
signal). A row saved one at a time (`save()`, `objects.create()`) without a club gets its
parent's here, before the INSERT: an admin form or a test that names only the parent
still writes a row the database accepts. On PostgreSQL a composite foreign key refuses a
club other than the parent's (games migration 0013, league migration 0026).
"""

from django.db import models
from django.db.models.signals import pre_save


def club_from_parent_connect(model: type[models.Model], parent: str) -> None:
    """Before a `model` row is saved with `club_id` None, set it to the club of the row's
    `parent` (the name of its foreign key to a row with a `club_id`, e.g. "evening").
    A parent not loaded yet costs one query; an unset parent leaves the club unset (the
    database refuses the row: NOT NULL)."""

    def fill(sender: type[models.Model], instance: models.Model, **kwargs: object) -> None:
        if getattr(instance, "club_id", None) is None:
            if getattr(instance, f"{parent}_id", None) is not None:
                instance.club_id = getattr(instance, parent).club_id  # type: ignore[attr-defined]

    pre_save.connect(
        fill, sender=model, weak=False, dispatch_uid=f"club_from_parent:{model._meta.label}"
    )
