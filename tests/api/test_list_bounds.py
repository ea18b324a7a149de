"""Every list and every free-form object a request body of the API may carry is bounded:
the schema says how long it may be (`maxItems`, `maxProperties`), and the serializer field
behind it is one of league.club.fields' bounded fields, which check the length before the
first element. A list field added later without a bound fails here."""

from collections.abc import Iterator

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers

from league.club.fields import BoundedDictField, BoundedListField, BoundedListSerializer

METHODS = {"post", "put", "patch"}


@pytest.fixture(scope="module")
def generator() -> SchemaGenerator:
    generator = SchemaGenerator()
    generator.schema = generator.get_schema(request=None, public=True)
    return generator


def _resolve(schema: dict, node: dict) -> dict:
    ref = node.get("$ref")
    if ref:
        return schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    return node


def _unbounded(schema: dict, node: dict, where: str, seen: set[str]) -> Iterator[str]:
    """The places under `node` (a JSON schema) of a list without maxItems or an object of
    free keys without maxProperties."""
    ref = node.get("$ref")
    if ref:
        if ref in seen:
            return
        seen.add(ref)
        node = _resolve(schema, node)
        where = ref.rsplit("/", 1)[-1]
    if node.get("readOnly"):
        return
    if node.get("type") == "array":
        if "maxItems" not in node:
            yield where
        yield from _unbounded(schema, node.get("items", {}), f"{where}[]", seen)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        if "maxProperties" not in node:
            yield where
        yield from _unbounded(schema, extra, f"{where}{{}}", seen)
    for name, child in node.get("properties", {}).items():
        yield from _unbounded(schema, child, f"{where}.{name}", seen)
    for key in ("oneOf", "anyOf", "allOf"):
        for child in node.get(key, []):
            yield from _unbounded(schema, child, where, seen)


def test_every_list_of_a_request_body_has_a_maximum_length_in_the_schema(generator):
    schema = generator.schema
    unbounded = set()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            for media in operation.get("requestBody", {}).get("content", {}).values():
                where = f"{method.upper()} {path}"
                unbounded.update(_unbounded(schema, media.get("schema", {}), where, set()))
    assert sorted(unbounded) == []


def _unbounded_fields(serializer: serializers.BaseSerializer, where: str) -> Iterator[str]:
    """Writable list and dict fields of `serializer` (nested ones too) that are not
    league.club.fields' bounded ones."""
    if isinstance(serializer, serializers.ListSerializer):
        if not isinstance(serializer, BoundedListSerializer):
            yield where
        yield from _unbounded_fields(serializer.child, f"{where}[]")
        return
    for name, field in serializer.fields.items():
        if field.read_only:
            continue
        place = f"{where}.{name}"
        if isinstance(field, serializers.BaseSerializer):
            yield from _unbounded_fields(field, place)
        elif isinstance(field, serializers.ListField) and not isinstance(field, BoundedListField):
            yield place
        elif isinstance(field, serializers.DictField) and not isinstance(field, BoundedDictField):
            yield place


def test_every_request_serializer_checks_the_length_of_its_lists_first(generator):
    requests = [
        component
        for component in generator.registry._components.values()
        if component.name.endswith("Request")
        and isinstance(component.object, serializers.BaseSerializer)
    ]
    assert len(requests) > 10  # the walk found the API's request bodies
    unbounded = [
        place
        for component in requests
        for place in _unbounded_fields(component.object, component.name)
    ]
    assert unbounded == []
