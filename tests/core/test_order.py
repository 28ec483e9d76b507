"""Effective suits, order and adjacency (RULES.md §2)."""

from __future__ import annotations

import pytest

from shengji.core.cards import NO_TRUMP, NUM_KINDS, cards_str, parse_card, parse_cards
from shengji.core.order import TRUMP, TrumpContext, context, context_for
from shengji.core.ruleset import PRESETS
from tests.core.helpers import ctx


def order(c: TrumpContext, suit: int) -> list[str]:
    """The layers of an effective suit, high to low; equal cards share a layer."""
    return [cards_str(layer) for layer in reversed(c.pos_faces[suit])]


def test_trump_order_level_ten_hearts() -> None:
    assert order(ctx("10", "H"), TRUMP) == [
        "BJ", "LJ", "H10", "S10 D10 C10",
        "HA", "HK", "HQ", "HJ", "H9", "H8", "H7", "H6", "H5", "H4", "H3", "H2",
    ]


def test_off_suit_order_skips_the_level_rank() -> None:
    assert order(ctx("10", "H"), 0) == [
        "SA", "SK", "SQ", "SJ", "S9", "S8", "S7", "S6", "S5", "S4", "S3", "S2",
    ]
    assert order(ctx("2", "H"), 3)[-1] == "C3"
    assert order(ctx("A", "H"), 2)[0] == "DK"


def test_permanent_twos() -> None:
    # 常主2: after the off-suit level cards come the trump 2, the other 2s, then trump A..3
    c = context(8, 1, permanent_twos=True)
    assert order(c, TRUMP) == [
        "BJ", "LJ", "H10", "S10 D10 C10", "H2", "S2 D2 C2",
        "HA", "HK", "HQ", "HJ", "H9", "H8", "H7", "H6", "H5", "H4", "H3",
    ]
    assert order(c, 0) == ["SA", "SK", "SQ", "SJ", "S9", "S8", "S7", "S6", "S5", "S4", "S3"]
    assert all(c.is_trump(k) for k in parse_cards("S2 H2 D2 C2"))


def test_permanent_twos_when_the_level_is_two() -> None:
    # the 2s are simply the level cards then
    assert order(context(0, 1, permanent_twos=True), TRUMP)[:4] == ["BJ", "LJ", "H2", "S2 D2 C2"]
    assert order(context(0, 1, permanent_twos=True), TRUMP)[4] == "HA"


def test_no_trump() -> None:
    c = ctx("10", "NT")
    assert order(c, TRUMP) == ["BJ", "LJ", "S10 H10 D10 C10"]
    for suit in range(4):
        assert len(order(c, suit)) == 12
    assert c.esuit[parse_card("HA")] == 1


def test_no_trump_with_permanent_twos() -> None:
    c = context(3, NO_TRUMP, permanent_twos=True)
    assert order(c, TRUMP) == ["BJ", "LJ", "S5 H5 D5 C5", "S2 H2 D2 C2"]
    assert len(order(c, 0)) == 11


def test_four_deck_preset_uses_permanent_twos() -> None:
    c = context_for(PRESETS["four-deck"], 3, 0)  # level 5, spades
    assert order(c, TRUMP)[:6] == ["BJ", "LJ", "S5", "H5 D5 C5", "S2", "H2 D2 C2"]


@pytest.mark.parametrize(
    ("level", "low", "high"),
    [("10", "S9", "SJ"), ("5", "S4", "S6"), ("2", "S3", "S4"), ("A", "SQ", "SK"),
     ("K", "SQ", "SA")],
)
def test_adjacency_skips_the_level_rank(level: str, low: str, high: str) -> None:
    c = ctx(level, "H")
    assert c.pos[parse_card(high)] - c.pos[parse_card(low)] == 1


def test_trump_adjacency_across_layers() -> None:
    c = ctx("10", "H")
    p = c.pos
    assert p[parse_card("S10")] - p[parse_card("HA")] == 1
    assert p[parse_card("H10")] - p[parse_card("C10")] == 1
    assert p[parse_card("LJ")] - p[parse_card("H10")] == 1
    assert p[parse_card("BJ")] - p[parse_card("LJ")] == 1
    assert p[parse_card("S10")] == p[parse_card("D10")]  # equal, not adjacent


def test_no_wrap_around() -> None:
    c = ctx("10", "H")
    assert c.pos[parse_card("SA")] - c.pos[parse_card("S2")] == 11


def test_every_kind_has_a_place() -> None:
    for level in range(13):
        for trump in (NO_TRUMP, 0, 1, 2, 3):
            c = context(level, trump)
            seen = sorted(k for suit in c.pos_faces for layer in suit for k in layer)
            assert seen == list(range(NUM_KINDS))
            for k in range(NUM_KINDS):
                assert k in c.pos_faces[c.esuit[k]][c.pos[k]]


def test_two_colour_faces() -> None:
    c = context(0, 0, two_color=True)  # level 2, black trump
    assert c.face[parse_card("DK")] == parse_card("HK")
    assert c.face[parse_card("CK")] == parse_card("SK")
    assert c.is_trump(parse_card("C7")) and not c.is_trump(parse_card("D7"))
    assert c.pos[parse_card("DK")] == c.pos[parse_card("HK")]
    assert order(c, 1)[:2] == ["HA", "HK"]  # only the faces are listed
    assert order(c, 2) == [] and order(c, 3) == []
    # naming a diamond trump means the red suit
    assert context(0, 2, two_color=True).trump == 1


def test_display_order() -> None:
    c = ctx("10", "H")
    hand = parse_cards("D3 SA H4 C9 BJ S10 HA SK D10 CA")
    assert cards_str(c.sorted(hand)) == "BJ S10 D10 HA H4 SA SK CA C9 D3"


def test_contexts_are_cached_and_checked() -> None:
    assert context(8, 1) is context(8, 1)
    assert context(8, 1) is not context(8, 1, permanent_twos=True)
    for bad in (-1, 14):  # 13 is the joker level (打王)
        with pytest.raises(ValueError):
            context(bad, 1)
