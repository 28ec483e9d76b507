"""Card kinds, points and the text notation (DESIGN.md "Card notation")."""

from __future__ import annotations

import pytest

from shengji.core.cards import (
    BJ,
    LJ,
    NO_TRUMP,
    NUM_KINDS,
    card,
    card_str,
    cards_of,
    cards_str,
    check_possible,
    contains,
    counts_of,
    deck,
    parse_card,
    parse_cards,
    parse_rank,
    parse_trump,
    points,
    points_of,
    rank_of,
    suit_of,
    trump_str,
)
from shengji.core.errors import NotationError, Reason


def test_every_kind_round_trips() -> None:
    for k in range(NUM_KINDS):
        assert parse_card(card_str(k)) == k
    assert cards_str(parse_cards(cards_str(range(NUM_KINDS)))) == cards_str(range(NUM_KINDS))


def test_canonical_names() -> None:
    assert [card_str(k) for k in (0, 12, 13, 21, 26, 51)] == ["S2", "SA", "H2", "H10", "D2", "CA"]
    assert (card_str(LJ), card_str(BJ)) == ("LJ", "BJ")
    assert card(1, 8) == parse_card("H10")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("sa", "SA"),
        ("hT", "H10"),
        ("ht", "H10"),
        ("H10", "H10"),
        ("♠A", "SA"),
        ("♥10", "H10"),
        ("♦t", "D10"),
        ("♣k", "CK"),
        ("10♥", "H10"),  # rank first with a glyph
        ("A♠", "SA"),
        ("bj", "BJ"),
        ("Lj", "LJ"),
        (" dq ", "DQ"),
    ],
)
def test_accepted_spellings(text: str, canonical: str) -> None:
    assert card_str(parse_card(text)) == canonical


def test_hands_with_spaces_and_commas() -> None:
    assert cards_str(parse_cards("SA, sk  ♥T,bj")) == "SA SK H10 BJ"
    assert parse_cards("") == []
    assert parse_cards("   ") == []


@pytest.mark.parametrize(
    "text", ["", "S", "SX", "S1", "S11", "S0", "X5", "♠", "JB", "S 10", "10", "HH", "B", "♠1"]
)
def test_bad_cards_are_refused(text: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_card(text)
    assert err.value.reason == Reason.BAD_NOTATION


def test_bad_card_in_a_hand_names_the_token() -> None:
    with pytest.raises(NotationError, match="SZ"):
        parse_cards("SA SZ")


def test_card_str_refuses_non_kinds() -> None:
    for k in (-1, 54, 100):
        with pytest.raises(NotationError):
            card_str(k)


def test_ranks() -> None:
    assert [parse_rank(r) for r in ("2", "10", "T", "t", "J", "q", "A")] == [0, 8, 8, 8, 9, 10, 12]
    for bad in ("1", "0", "11", "X", "", "B"):
        with pytest.raises(NotationError):
            parse_rank(bad)


def test_trumps() -> None:
    assert [parse_trump(t) for t in ("S", "h", "♦", "C")] == [0, 1, 2, 3]
    for nt in ("NT", "nt", "N", "none", "无主"):
        assert parse_trump(nt) == NO_TRUMP
    assert [trump_str(t) for t in (0, 1, 2, 3, NO_TRUMP)] == ["S", "H", "D", "C", "NT"]
    for bad in ("X", "", "SH", "10"):
        with pytest.raises(NotationError):
            parse_trump(bad)


def test_suit_and_rank_of() -> None:
    assert (suit_of(parse_card("DK")), rank_of(parse_card("DK"))) == (2, 11)
    assert (suit_of(LJ), rank_of(LJ)) == (4, 13)
    assert (suit_of(BJ), rank_of(BJ)) == (4, 14)


def test_points() -> None:
    assert [points(parse_card(c)) for c in ("S5", "H10", "DK", "CQ", "SA", "BJ", "LJ")] == [
        5, 10, 10, 0, 0, 0, 0,
    ]
    assert points_of(parse_cards("S5 H10 DK")) == 25
    for n in (1, 2, 3, 4):
        assert points_of(deck(n)) == 100 * n


def test_decks() -> None:
    assert len(deck(1)) == 54
    assert len(deck(2)) == 108
    assert counts_of(deck(3)) == [3] * NUM_KINDS
    for bad in (0, 5, -1):
        with pytest.raises(NotationError):
            deck(bad)


def test_count_vectors() -> None:
    cards = parse_cards("SA SA BJ H10")
    counts = counts_of(cards)
    assert len(counts) == NUM_KINDS
    assert counts[parse_card("SA")] == 2
    assert sorted(cards_of(counts)) == sorted(cards)
    assert contains(counts, parse_cards("SA BJ"))
    assert contains(counts, parse_cards("SA SA"))
    assert not contains(counts, parse_cards("SA SA SA"))
    assert not contains(counts, parse_cards("LJ"))
    assert contains(counts, [])


def test_check_possible() -> None:
    check_possible(parse_cards("SA SA"), 2)
    with pytest.raises(NotationError, match="SA"):
        check_possible(parse_cards("SA SA SA"), 2)
    with pytest.raises(NotationError):
        check_possible(parse_cards("BJ BJ"), 1)
    check_possible(parse_cards("BJ BJ BJ BJ"), 4)
