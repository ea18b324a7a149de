"""Runden owed under a club's own statutes (games.rules.runden_owed_by)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import runden_owed, runden_owed_by


def owed(n, **rule):
    throwers = [f"p{i}" for i in range(1, n + 1)]
    return [(r.ordinal, r.reason) for r in runden_owed_by(throwers, **rule)]


@given(st.lists(st.sampled_from("abcdef"), max_size=40))
def test_the_defaults_are_seed_003s_rule(throwers):
    assert runden_owed_by(throwers) == runden_owed(throwers)


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, []),
        (1, [(1, "first")]),
        (2, [(1, "first")]),
        (3, [(1, "first"), (3, "fifth")]),
        (5, [(1, "first"), (3, "fifth")]),
        (7, [(1, "first"), (3, "fifth"), (6, "fifth")]),
    ],
)
def test_first_and_every_third_without_the_last(n, expected):
    assert owed(n, first=True, last=False, every=3, shift=False) == expected


def test_without_the_shift_a_last_that_owes_already_owes_nothing_more():
    # 6 Schock-Aus, every third: the 6th owes as a third; no shift, so the 5th owes none.
    assert owed(6, every=3, shift=False) == [(1, "first"), (3, "fifth"), (6, "fifth")]
    assert owed(6, every=3, shift=True) == [(1, "first"), (3, "fifth"), (5, "last"), (6, "fifth")]


def test_the_shift_never_gives_one_schock_aus_two_runden():
    # 2 Schock-Aus, every second: the 2nd owes as a second, the 1st as the first: the
    # last's Runde has nowhere to go.
    assert owed(2, every=2, shift=True) == [(1, "first"), (2, "fifth")]


def test_only_the_last_owes_and_none_owe_none():
    assert owed(4, first=False, last=True, every=0) == [(4, "last")]
    assert owed(4, first=False, last=False, every=0) == []


def test_a_negative_interval_is_refused():
    with pytest.raises(ValueError):
        runden_owed_by(["a"], every=-1)


@given(
    st.integers(min_value=0, max_value=60),
    st.booleans(),
    st.booleans(),
    st.integers(min_value=0, max_value=10),
    st.booleans(),
)
def test_no_schock_aus_owes_two_runden(n, first, last, every, shift):
    ordinals = [o for o, _ in owed(n, first=first, last=last, every=every, shift=shift)]
    assert ordinals == sorted(set(ordinals))
    assert all(1 <= o <= n for o in ordinals)
