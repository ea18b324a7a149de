"""A read whose SQL Django builds once per database, for the reads every request makes.

Every request reads its login: the session's user (league/club/accounts/backends.py) or
the API token's (league/club/accounts/authentication.py), each with the person and club
(`select_related`). The ORM builds a query's SQL anew each time it runs, and for these
small joins that build cost more CPU than the query and the rest of a bare request
(bench/bench_api_profile.py). A `CompiledRead` asks Django for the SQL of its queryset once
per database alias, then runs that SQL with each call's parameter and makes the objects
with Django's own row converters and related-object populators: the same objects, with the
same related objects cached, as iterating the queryset gives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections, models, router
from django.db.models.query import get_related_populators

M = TypeVar("M", bound=models.Model)


@dataclass(frozen=True)
class _Compiled:
    """One queryset's SQL and what turns its rows into objects, for one connection."""

    sql: str
    converters: dict[int, Any]
    apply_converters: Any
    init_list: list[str]
    columns: slice
    populators: list[Any]


class CompiledRead(Generic[M]):
    """The rows of `queryset(alias)` for one parameter value, its SQL built once per
    database alias.

    `queryset(alias)` builds the query on `alias` with exactly one parameter, whose value
    when compiling is `placeholder` (a filter such as `filter(pk=0)`, then
    `select_related(...)`); each call `read(value)` runs the same SQL with `value` in its
    place and returns the model objects (a list), related objects populated as the ORM does.

    Raises RuntimeError when the query's parameters are not exactly `[placeholder]`
    (another parameter would be baked into the SQL for every later call)."""

    def __init__(
        self, model: type[M], queryset: Callable[[str], models.QuerySet[M]], placeholder: Any
    ) -> None:
        self.model = model
        self.queryset = queryset
        self.placeholder = placeholder
        self._compiled: dict[str, _Compiled] = {}

    def _compile(self, alias: str) -> _Compiled:
        compiler = self.queryset(alias).query.get_compiler(using=alias)
        sql, params = compiler.as_sql()  # also lays out compiler.select and klass_info
        if list(params) != [self.placeholder]:
            raise RuntimeError(f"a compiled read takes one parameter, not {params!r}")
        select, klass_info = compiler.select, compiler.klass_info
        columns = klass_info["select_fields"]
        return _Compiled(
            sql=sql,
            converters=compiler.get_converters([s[0] for s in select[: compiler.col_count]]),
            apply_converters=compiler.apply_converters,
            init_list=[f[0].target.attname for f in select[columns[0] : columns[-1] + 1]],
            columns=slice(columns[0], columns[-1] + 1),
            # Django 5.2's signature (the type stubs describe a later one)
            populators=get_related_populators(klass_info, select, alias),  # type: ignore[call-arg]
        )

    def read(self, value: Any) -> list[M]:
        """The objects the queryset gives with `value` for the placeholder, read from the
        database the router names for reading the model."""
        alias = router.db_for_read(self.model)
        compiled = self._compiled.get(alias)
        if compiled is None:
            compiled = self._compiled.setdefault(alias, self._compile(alias))
        with connections[alias].cursor() as cursor:
            cursor.execute(compiled.sql, [value])
            rows: Any = cursor.fetchall()
        if compiled.converters:
            rows = compiled.apply_converters(rows, compiled.converters)
        objects = []
        for row in rows:
            obj = self.model.from_db(alias, compiled.init_list, row[compiled.columns])
            for populator in compiled.populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects
