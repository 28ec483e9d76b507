"""Who wins a trick: following, ruffs, over-ruffs, discards and ties (RULES.md §4)."""

from __future__ import annotations

from shengji.core.cards import parse_cards
from shengji.core.tricks import dominant_component, trick_points
from shengji.core.units import decompose
from tests.core.helpers import C, ctx, ruffs, rules, winner

# Level 10, hearts trump throughout unless stated.


def test_highest_of_the_led_suit_wins() -> None:
    assert winner("S5", "S9", "SK", "S7") == 2
    assert winner("SK", "S9", "S2", "S7") == 0
    assert winner("S5 S5", "S9 S9", "SA SA", "S3 S3") == 2


def test_off_suit_cards_cannot_win() -> None:
    assert winner("S5", "CA", "DA", "S4") == 0
    assert winner("S5 S5", "CA CA", "S4 S4", "DK DK") == 0


def test_the_follower_needs_the_lead_shape() -> None:
    assert winner("S5 S5", "SA SK") == 0
    assert winner("S5 S5 S4 S4", "SA SA SQ SQ") == 0  # two pairs, not a tractor
    assert winner("S5 S5 S4 S4", "SA SA SK SK") == 1


def test_ruff_single() -> None:
    assert winner("SA", "H2") == 1
    assert winner("SA", "H2", "S10") == 2  # off-suit level card over-ruffs
    assert winner("SA", "S10", "C10") == 1  # equal trumps: the first stands
    assert winner("SA", "C10", "H10", "BJ") == 3


def test_ruff_pair_and_tractor() -> None:
    assert winner("SK SK", "H3 H3") == 1
    assert winner("SK SK", "H3 H3", "H2 H2") == 1
    assert winner("SK SK", "H3 H3", "H4 H4") == 2
    assert winner("SK SK SQ SQ", "H3 H3 H4 H4") == 1
    assert winner("SK SK SQ SQ", "H3 H3 H5 H5") == 0  # no tractor: a discard
    assert winner("SK SK SQ SQ", "H3 H3 H4 H4", "LJ LJ BJ BJ") == 2


def test_discards_never_win() -> None:
    assert winner("SK SK", "H3 C4") == 0
    assert winner("SK SK", "C4 C4") == 0
    assert winner("SK SK", "H3 H3", "HA C2") == 1


def test_ties_go_to_the_earlier_play() -> None:
    assert winner("S10", "C10", "D10") == 0  # trump lead of equal level cards
    assert winner("S10 S10", "D10 D10") == 0
    assert winner("SA", "C10", "D10") == 1
    # over-ruffs of a throw compared by their biggest structure, ties to the earlier
    assert winner("S5 S4 S4", "H9 S10 S10", "HK C10 C10") == 1
    assert winner("S5 S4 S4", "H9 S10 S10", "H2 H10 H10") == 2


def test_trump_leads() -> None:
    assert winner("H3", "H4", "S2", "SA") == 1
    assert winner("H3", "S10", "H10", "C10") == 2
    assert winner("BJ", "BJ", "LJ", "H10") == 0
    assert winner("H3 H3", "LJ LJ", "HA HK") == 1
    assert winner("HA HA S10 S10", "C10 C10 H10 H10") == 1


def test_trump_throw_is_never_beaten() -> None:
    assert winner("BJ LJ", "BJ LJ") == 0
    assert winner("H9 H9 H3", "BJ BJ H10") == 0


def test_throws_beaten_only_by_a_ruff() -> None:
    lead = "SA SK SK"
    assert winner(lead, "SA SQ SQ") == 0  # following in suit cannot win
    assert winner(lead, "H2 H3 H3") == 1
    assert winner(lead, "H2 H3 H4") == 0  # no pair: a discard
    assert winner(lead, "H2 H3 H3", "H5 H4 H4") == 2
    assert winner(lead, "H2 H3 H3", "HA HK HQ") == 1


def test_over_ruff_by_biggest_structure() -> None:
    # tractors first: 9988 + 2 singles against 4433 + 2 big singles
    lead = "SA SK S5 S5 S4 S4"
    assert winner(lead, "H9 H9 H8 H8 H7 H2", "H4 H4 H3 H3 BJ LJ") == 1
    assert winner(lead, "H4 H4 H3 H3 BJ LJ", "H9 H9 H8 H8 H7 H2") == 2
    # singles only: the highest single
    assert winner("S5 S6 S7", "H9 H7 H7", "HA H3 H2") == 2


def test_three_deck_ruffs() -> None:
    three = rules("three-deck")
    lead = "S3 S3 S3 S4 S4"
    assert winner(lead, "H7 H7 H7 H9 H9", level="2", ruleset=three) == 1
    assert winner(lead, "H7 H7 H8 H8 H9", level="2", ruleset=three) == 0
    assert winner(lead, "H7 H7 H7 H9 H9", "H8 H8 H8 H3 H3", level="2", ruleset=three) == 2
    assert winner("S3 S3 S3", "H7 H7 H7", "H8 H8 H9", level="2", ruleset=three) == 1


def test_no_trump_ruffs_with_jokers_and_level_cards() -> None:
    assert winner("SA", "H10", level="10", trump="NT") == 1
    assert winner("SA", "HA", level="10", trump="NT") == 0
    assert winner("SA SA", "S10 S10", "LJ LJ", level="10", trump="NT") == 2


def test_is_valid_ruff() -> None:
    assert ruffs("SA SK S5 S5 S4 S4", "H9 H9 H8 H8 H7 H2")
    assert not ruffs("SA SA S5 S5 S4 S4", "H9 H9 H8 H8 H7 H2")
    assert not ruffs("SA SK", "H9 S2")  # not all trump
    assert not ruffs("H3 H4", "H9 H8")  # a trump lead cannot be ruffed
    assert ruffs("SK SK", "LJ LJ")


def test_dominant_component() -> None:
    c = ctx()
    assert dominant_component(decompose(C("SA SK S5 S5 S4 S4"), c)) == (2, 2)
    assert dominant_component(decompose(C("SA SK S5 S5"), c)) == (2, 1)
    assert dominant_component(decompose(C("SA SK S5"), c)) == (1, 1)


def test_trick_points() -> None:
    assert trick_points([parse_cards("S5 SK"), parse_cards("H10 H3"), parse_cards("BJ D5")]) == 30
    assert trick_points([parse_cards("SA"), parse_cards("S2")]) == 0
    assert trick_points([]) == 0
