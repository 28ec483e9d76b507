"""Units of play: tuples, tractors, decomposition and shape search (RULES.md §3)."""

from __future__ import annotations

import pytest

from shengji.core.cards import counts_of, parse_card
from shengji.core.order import TRUMP
from shengji.core.units import (
    best_placement_top,
    can_place,
    classify,
    decompose,
    max_tractor_cover,
    placements,
    pos_counts,
    pos_counts_from_hand,
    suit_of_play,
)
from tests.core.helpers import C, ctx, kind, rules, shape, units

THREE = rules("three-deck")
FOUR = rules("four-deck")


@pytest.mark.parametrize(
    ("cards", "what", "ruleset"),
    [
        ("S7", "single", "classic"),
        ("BJ", "single", "classic"),
        ("S7 S7", "pair", "classic"),
        ("S10 S10", "pair", "classic"),  # trump pair
        ("S7 S7 S7", "triple", THREE),
        ("S7 S7 S7 S7", "quad", FOUR),
        ("S7 S7 S8 S8", "tractor", "classic"),
        ("S7 S8", "throw", "classic"),
        ("S7 H7", "mixed", "classic"),
        ("", "empty", "classic"),
    ],
)
def test_kinds(cards: str, what: str, ruleset: object) -> None:
    assert kind(cards, ruleset=ruleset) == what  # type: ignore[arg-type]


def test_classification_fields() -> None:
    c = classify(C("S5 S5 S4 S4 S3 S3"), ctx())
    assert (c.width, c.length, c.suit, len(c.units)) == (2, 3, 0, 1)
    t = classify(C("S9 S8 S8"), ctx())
    assert (t.kind, t.width, t.length, t.suit) == ("throw", None, None, 0)
    m = classify(C("S9 H9 H9"), ctx())
    assert m.suit is None
    assert sorted(str(u) for u in m.units) == ["H9 H9", "S9"]


def test_decompose_orders_widest_longest_highest() -> None:
    assert units("S9 S8 S8 S4 S4") == ["S8 S8", "S4 S4", "S9"]
    assert units("SA SK SK SQ SQ S3 S3 S5") == ["SK SK SQ SQ", "S3 S3", "SA", "S5"]
    assert units("S3 S3 S3 S4 S4 S9", level="2", ruleset=THREE) == ["S3 S3 S3", "S4 S4", "S9"]


def test_unit_fields() -> None:
    (u,) = decompose(C("SQ SQ SK SK"), ctx())
    assert (u.width, u.length, u.size, u.shape, u.kind) == (2, 2, 4, (2, 2), "tractor")
    assert str(u) == "SK SK SQ SQ"
    assert u.cards() == C("SK SK SQ SQ")
    assert u.top == ctx().pos[parse_card("SK")]
    assert u.suit == 0


def test_trump_units_join_across_suits() -> None:
    assert units("HA HA S10 S10 C10 C10 H10 H10") == ["H10 H10 S10 S10 HA HA", "C10 C10"]
    assert shape("LJ LJ BJ BJ H10 H10 S10 S10 HA HA HK HK") == (2, 6)


def test_three_deck_widths_do_not_mix() -> None:
    # 33344: a triple and a pair, not a tractor; 333444 is a Titanic
    assert kind("S3 S3 S3 S4 S4", level="2", ruleset=THREE) == "throw"
    assert shape("S3 S3 S3 S4 S4 S4", level="2", ruleset=THREE) == (3, 2)
    assert units("S3 S3 S3 S4 S4 S4 S5 S5", level="2", ruleset=THREE) == [
        "S4 S4 S4 S3 S3 S3", "S5 S5"]


def test_longest_run_first() -> None:
    assert units("S3 S3 S4 S4 S5 S5 S7 S7 S8 S8") == ["S5 S5 S4 S4 S3 S3", "S8 S8 S7 S7"]


def test_decompose_refuses_mixed_cards() -> None:
    with pytest.raises(ValueError):
        decompose(C("S3 H3"), ctx())
    with pytest.raises(ValueError):
        decompose([], ctx())


def test_suit_of_play() -> None:
    c = ctx()
    assert suit_of_play(C("S3 S4"), c) == 0
    assert suit_of_play(C("S10 H3 BJ"), c) == TRUMP
    assert suit_of_play(C("S3 S10"), c) is None
    assert suit_of_play([], c) is None


def test_pos_counts_from_cards_and_hand_agree() -> None:
    c = ctx()
    cards = C("S3 S3 S9 H10 S10 S10 D10 BJ")
    for suit in (0, TRUMP):
        assert pos_counts(cards, suit, c) == pos_counts_from_hand(counts_of(cards), suit, c)


def test_two_colour_counts_merge_faces() -> None:
    tc = rules("two-color")
    c = ctx("2", "S", tc)
    pc = pos_counts_from_hand(counts_of(C("HK DK H9")), 1, c)
    assert pc[c.pos[parse_card("HK")]] == [[parse_card("HK"), 2]]
    assert pos_counts(C("HK DK H9"), 1, c) == pc


def test_placements_highest_first() -> None:
    c = ctx()
    pc = pos_counts(C("S3 S3 S4 S4 S5 S5 SK SK"), 0, c)
    tops = [top for top, _ in placements(pc, 2, 2)]
    assert tops == [c.pos[parse_card("S5")], c.pos[parse_card("S4")]]
    assert best_placement_top(pc, (2, 1)) == c.pos[parse_card("SK")]
    assert best_placement_top(pc, (2, 4)) == -1


def test_placements_through_equal_trumps() -> None:
    c = ctx()
    pc = pos_counts(C("HA HA S10 S10 C10 C10"), TRUMP, c)
    # ♥A pair + either off-suit 10 pair: two ways to form the tractor
    assert len(list(placements(pc, 2, 2))) == 2


def test_can_place_needs_disjoint_cards() -> None:
    c = ctx()
    pc = pos_counts(C("H9 H9 H8 H8 H7 H2"), TRUMP, c)
    assert can_place(pc, [(2, 2), (1, 1), (1, 1)])
    assert not can_place(pc, [(2, 2), (2, 1)])
    assert can_place(pc, [(2, 1), (2, 1)])
    assert not can_place(pc, [(2, 1), (2, 1), (2, 1)])
    assert can_place(pc, [])
    # the search leaves the counts as it found them
    assert pc == pos_counts(C("H9 H9 H8 H8 H7 H2"), TRUMP, c)


def test_can_place_backtracks() -> None:
    # the highest tractor 5544 would spoil the triple; 4433 leaves 555
    c = ctx("2", "H", THREE)
    pc = pos_counts(C("S3 S3 S4 S4 S5 S5 S5"), 0, c)
    assert best_placement_top(pc, (2, 2)) == c.pos[parse_card("S5")]
    assert can_place(pc, [(2, 2), (3, 1)])


def test_max_tractor_cover() -> None:
    c = ctx()
    pc = pos_counts(C("S3 S3 S4 S4 S5 S5 S8 S8 S9 S9"), 0, c)
    assert max_tractor_cover(pc, [(2, 3), (2, 2)]) == 10
    assert max_tractor_cover(pc, [(2, 3), (2, 3)]) == 6
    assert max_tractor_cover(pc, [(2, 4)]) == 0
    assert max_tractor_cover(pc, []) == 0
    wide = pos_counts(C("S3 S3 S3 S4 S4 S4"), 0, ctx("2", "H", THREE))
    assert max_tractor_cover(wide, [(2, 2)]) == 4  # pairs found inside triples
    assert max_tractor_cover(wide, [(3, 2)]) == 6
