"""The answers' ModelSerializer (league/club/answer_serializers.py): fields built once per
class, a deep copy per instance, and never kept when a field holds a queryset."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from rest_framework import serializers

from games.evenings.serializers import EveningSerializer
from league.club.answer_serializers import AnswerSerializer
from league.club.models import Club, Member
from league.club.serializers import ClubSerializer


def test_the_fields_are_built_once_and_each_instance_gets_its_own(monkeypatch):
    built = []
    original = serializers.ModelSerializer.get_fields

    def counted(self):
        built.append(type(self).__name__)
        return original(self)

    monkeypatch.setattr(serializers.ModelSerializer, "get_fields", counted)
    monkeypatch.delattr(ClubSerializer, "_built_fields", raising=False)
    first, second = ClubSerializer(), ClubSerializer()
    assert list(first.fields) == list(second.fields) == ["id", "name", "rule_preset"]
    assert built == ["ClubSerializer"]
    assert first.fields["name"] is not second.fields["name"]
    assert first.fields["name"].parent is first and second.fields["name"].parent is second


def test_an_answer_reads_as_drf_builds_it():
    club = Club(id=7, name="Schockclub 1979", rule_preset="classic")
    assert (
        ClubSerializer([club, club], many=True).data
        == [{"id": 7, "name": "Schockclub 1979", "rule_preset": "classic"}] * 2
    )
    assert set(EveningSerializer().fields) >= {"attendance", "present_members", "version"}


def test_a_field_that_holds_a_queryset_is_refused():
    class Writable(AnswerSerializer):
        class Meta:
            model = Member
            fields = ["id", "club"]

    with pytest.raises(ImproperlyConfigured, match=r"hold a queryset: \['club'\]"):
        _ = Writable().fields
