"""Runden owed per evening (docs/rules.md section 5, seed 003 "Runden / Muss-Regel")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import runden_owed


def owed(n):
    throwers = [f"p{i}" for i in range(1, n + 1)]
    return [(r.ordinal, r.thrower, r.reason) for r in runden_owed(throwers)]


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, []),
        # Decision (docs/rules.md 5): a single Schock-Aus owes one round in all.
        (1, [(1, "p1", "first")]),
        (2, [(1, "p1", "first"), (2, "p2", "last")]),
        (4, [(1, "p1", "first"), (4, "p4", "last")]),
        # seed 003: "Sollte der letzte Schock-Aus schon eine Runde kosten (jeder fünfte),
        # fällt die Runde für den letzten Schock-Aus ausnahmsweise auf den vorletzten".
        (5, [(1, "p1", "first"), (4, "p4", "last"), (5, "p5", "fifth")]),
        (6, [(1, "p1", "first"), (5, "p5", "fifth"), (6, "p6", "last")]),
        (
            10,
            [(1, "p1", "first"), (5, "p5", "fifth"), (9, "p9", "last"), (10, "p10", "fifth")],
        ),
        (
            11,
            [(1, "p1", "first"), (5, "p5", "fifth"), (10, "p10", "fifth"), (11, "p11", "last")],
        ),
    ],
)
def test_runden_owed_for_n_schock_aus(n, expected):
    assert owed(n) == expected


def test_one_thrower_of_several_schock_aus_owes_each_of_their_rounds():
    result = runden_owed(["Anna", "Anna", "Bernd"])
    assert [(r.ordinal, r.thrower) for r in result] == [(1, "Anna"), (3, "Bernd")]


@given(n=st.integers(2, 60))
def test_two_or_more_schock_aus_owe_two_plus_a_fifth_of_their_number(n):
    assert len(owed(n)) == 2 + n // 5


@given(n=st.integers(0, 60))
def test_no_schock_aus_owes_two_rounds(n):
    ordinals = [ordinal for ordinal, _, _ in owed(n)]
    assert ordinals == sorted(set(ordinals))


@given(n=st.integers(1, 60))
def test_first_and_every_fifth_always_owe(n):
    ordinals = {ordinal for ordinal, _, _ in owed(n)}
    assert {1, *range(5, n + 1, 5)} <= ordinals


@given(n=st.integers(2, 60))
def test_the_last_round_falls_on_the_last_or_the_one_before(n):
    last = [ordinal for ordinal, _, reason in owed(n) if reason == "last"]
    assert last == [n - 1 if n % 5 == 0 else n]
