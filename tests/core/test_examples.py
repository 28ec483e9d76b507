"""Every worked example of RULES.md, in card notation (level 10, hearts trump unless stated)."""

from __future__ import annotations

import pytest

from tests.core.helpers import (
    forced,
    kind,
    kitty,
    legal,
    levels,
    ruffs,
    rules,
    shape,
    throw,
    unit_set,
    winner,
)

# ---------------------------------------------------------------- §3 tractors (two decks)


@pytest.mark.parametrize(
    "cards",
    [
        "SK SK SQ SQ",  # KKQQ
        "SJ SJ S9 S9",  # JJ99: the level rank 10 is skipped
        "S5 S5 S4 S4 S3 S3",  # 554433
        "LJ LJ BJ BJ",  # small-joker pair + big-joker pair
        "H10 H10 LJ LJ",  # ♥10♥10 + small-joker pair
        "S10 S10 H10 H10",  # off-suit-10 pair + ♥10 pair
        "HA HA S10 S10",  # ♥A pair + off-suit-10 pair
        "HA HA S10 S10 H10 H10",  # ♥A pair + off-suit-10 pair + ♥10 pair
        "C10 C10 HA HA",  # any off suit's 10s will do
    ],
)
def test_tractors(cards: str) -> None:
    assert kind(cards) == "tractor"


def test_tractor_lengths() -> None:
    assert shape("S5 S5 S4 S4 S3 S3") == (2, 3)
    assert shape("HA HA S10 S10 H10 H10") == (2, 3)
    assert shape("LJ LJ BJ BJ") == (2, 2)


@pytest.mark.parametrize(
    ("cards", "what"),
    [
        ("S5 S5 S4", "throw"),  # 554
        ("S5 S4 S4", "throw"),  # 544
        ("S5 S5 S3 S3", "throw"),  # 5533: a gap
        ("SJ SJ SQ", "throw"),  # JJQ
        ("S10 S10 C10 C10", "throw"),  # two pairs of off-suit 10s: equal, not consecutive
        ("SJ SJ S10 S10", "mixed"),  # JJ1010 in an off suit: the 10s are trump
        ("SA SA S2 S2", "throw"),  # AA22: no wrap-around
        ("HA HA H10 H10", "throw"),  # the off-suit 10s sit between ♥A and ♥10
    ],
)
def test_not_tractors(cards: str, what: str) -> None:
    assert kind(cards) == what


def test_level_five_tractors() -> None:
    # seed 002: with level 5, 3344, 4466, off-5 + trump-5, jokers, AA + off-5, trump-5 + LJ
    for cards in ("S3 S3 S4 S4", "S4 S4 S6 S6", "S5 S5 H5 H5", "LJ LJ BJ BJ",
                  "HA HA S5 S5", "H5 H5 LJ LJ"):
        assert kind(cards, level="5") == "tractor", cards
    assert kind("S5 S5 S6 S6", level="5") == "mixed"  # 5566: the 5s are trump
    assert kind("S5 S5 H5 H5", level="5", trump="NT") == "throw"  # no trump: equal 5s


# ---------------------------------------------------------------- §3 Titanic (three decks)

TITANIC = rules("three-deck")


@pytest.mark.parametrize(
    "cards",
    [
        "S3 S3 S3 S4 S4 S4",  # 333444
        "S4 S4 S4 S6 S6 S6",  # 444666 (level 5)
        "S5 S5 S5 H5 H5 H5",  # three off-suit 5s + three trump 5s
        "LJ LJ LJ BJ BJ BJ",  # three small jokers + three big jokers
        "HA HA HA S5 S5 S5",  # trump AAA + three off-suit 5s
        "H5 H5 H5 LJ LJ LJ",  # three trump 5s + three small jokers
    ],
)
def test_titanics(cards: str) -> None:
    assert kind(cards, level="5", ruleset=TITANIC) == "tractor"
    assert shape(cards, level="5", ruleset=TITANIC) == (3, 2)


def test_not_titanics() -> None:
    assert kind("S5 S5 S5 S6 S6 S6", level="5", ruleset=TITANIC) == "mixed"
    assert kind("S5 S5 S5 H5 H5 H5", level="5", trump="NT", ruleset=TITANIC) == "throw"


# ---------------------------------------------------------------- §3 four decks, two colours

FOUR = rules("four-deck")


def test_four_deck_tractors_of_every_width() -> None:
    assert shape("S7 S7 S8 S8", level="5", ruleset=FOUR) == (2, 2)
    assert shape("S7 S7 S7 S8 S8 S8", level="5", ruleset=FOUR) == (3, 2)
    assert shape("S7 S7 S7 S7 S8 S8 S8 S8", level="5", ruleset=FOUR) == (4, 2)
    assert kind("SA SA SA SA", level="5", ruleset=FOUR) == "quad"


def test_four_deck_quad_takes_pair_tractor() -> None:
    # AAAA can take 7788 (same number of cards), in the led suit or as a ruff
    assert winner("S7 S7 S8 S8", "SA SA SA SA", level="5", ruleset=FOUR) == 1
    assert winner("S7 S7 S8 S8", "S3 S3 S3 S3", level="5", ruleset=FOUR) == 1
    assert winner("S7 S7 S8 S8", "H3 H3 H3 H3", level="5", ruleset=FOUR) == 1
    # ... but a pair tractor does not take a quad
    assert winner("S3 S3 S3 S3", "S9 S9 S10 S10", level="5", ruleset=FOUR) == 0


def test_four_deck_stronger_shapes() -> None:
    # a triple tractor beats a pair tractor of as many cards, a quad tractor a triple one
    assert winner("SQ SQ SK SK SA SA", "S3 S3 S3 S4 S4 S4", level="5", ruleset=FOUR) == 1
    assert winner("S3 S3 S3 S4 S4 S4", "SQ SQ SK SK SA SA", level="5", ruleset=FOUR) == 0
    twelve_triples = "S9 S9 S9 S10 S10 S10 SJ SJ SJ SQ SQ SQ"
    twelve_quads = "S3 S3 S3 S3 S4 S4 S4 S4 S6 S6 S6 S6"
    assert winner(twelve_triples, twelve_quads, level="5", ruleset=FOUR) == 1
    assert winner(twelve_quads, twelve_triples, level="5", ruleset=FOUR) == 0
    # without the option (two decks' rule) only the same shape counts
    plain = rules("four-deck", stronger_shapes_beat=False)
    assert winner("S7 S7 S8 S8", "SA SA SA SA", level="5", ruleset=plain) == 0


TWO_COLOR = rules("two-color")


def test_two_colour_pairs_and_tractors() -> None:
    assert kind("HK DK", level="2", trump="NT", ruleset=TWO_COLOR) == "pair"
    assert kind("CK SK", level="2", trump="NT", ruleset=TWO_COLOR) == "pair"
    assert kind("HK SK", level="2", trump="NT", ruleset=TWO_COLOR) == "mixed"
    assert kind("D7 H7 D8 H8", level="2", trump="S", ruleset=TWO_COLOR) == "tractor"


# ---------------------------------------------------------------- §4 / §10 throws (two decks)


def test_throw_98844_stands_when_nothing_beats_it() -> None:
    res = throw("S9 S8 S8 S4 S4", "S3 S2", "ST S7 S6", "C5 C5")
    assert res.valid and res.failed == ()


def test_throw_98844_someone_holds_the_jack() -> None:
    assert forced("S9 S8 S8 S4 S4", "SJ C3", "D4", "H5") == "S9"


@pytest.mark.parametrize("holder", ["SQ SQ", "S5 S5"])
def test_throw_98844_someone_holds_a_higher_pair(holder: str) -> None:
    assert forced("S9 S8 S8 S4 S4", holder, "C3", "D4") == "S4 S4"


def test_throw_98844_several_fail_the_smallest_is_played() -> None:
    assert forced("S9 S8 S8 S4 S4", "SJ", "S5 S5") == "S4 S4"


@pytest.mark.parametrize(
    ("lead", "others"),
    [
        ("SA SA SK", ("SK SQ SQ", "S9 S9")),  # AAK
        ("SA SK SK", ("SA SQ SQ", "S9 S9")),  # AKK
        ("SA SQ SQ SJ SJ", ("SK SK S3", "S9 S9 S8 S8")),  # AQQJJ: KK is no tractor
    ],
)
def test_seed_throws_of_top_cards(lead: str, others: tuple[str, ...]) -> None:
    assert throw(lead, *others).valid


# ---------------------------------------------------------------- §4 three-deck throws

THREE = rules("three-deck")


def test_33344_is_a_throw_of_triple_and_pair() -> None:
    assert unit_set("S3 S3 S3 S4 S4", level="2", ruleset=THREE) == {"S3 S3 S3", "S4 S4"}
    assert kind("S3 S3 S4 S4", level="2", ruleset=THREE) == "tractor"


def test_33344_forced_plays() -> None:
    assert forced("S3 S3 S3 S4 S4", "S6 S6 S6", level="2", ruleset=THREE) == "S3 S3 S3"
    assert forced("S3 S3 S3 S4 S4", "S6 S6", level="2", ruleset=THREE) == "S4 S4"
    assert throw("S3 S3 S3 S4 S4", "S2 S2 S2", "S6 S7 S8", level="A", ruleset=THREE).valid


def test_33344_ruff_needs_a_triple_and_a_pair() -> None:
    lead = "S3 S3 S3 S4 S4"
    assert ruffs(lead, "H7 H7 H7 HQ HQ", level="2", ruleset=THREE)
    assert ruffs(lead, "LJ LJ LJ H9 H9", level="2", ruleset=THREE)
    assert not ruffs(lead, "H7 H7 H8 H8 HQ", level="2", ruleset=THREE)


def test_991010jjj_is_tractor_plus_triple() -> None:
    lead = "S9 S9 S10 S10 SJ SJ SJ"
    assert unit_set(lead, level="2", ruleset=THREE) == {"S10 S10 S9 S9", "SJ SJ SJ"}
    assert kind("S9 S9 S10 S10 SJ SJ", level="2", ruleset=THREE) == "tractor"
    # a higher tractor elsewhere → 991010, even if a higher triple is there too
    assert forced(lead, "SQ SQ SK SK", level="2", ruleset=THREE) == "S9 S9 S10 S10"
    assert forced(lead, "SQ SQ SQ SK SK SK", level="2", ruleset=THREE) == "S9 S9 S10 S10"
    # else a higher triple → JJJ
    assert forced(lead, "SQ SQ SQ S3 S3", level="2", ruleset=THREE) == "SJ SJ SJ"
    assert ruffs(lead, "H3 H3 H4 H4 H9 H9 H9", level="2", ruleset=THREE)
    assert not ruffs(lead, "H3 H3 H3 H4 H4 H4 H9", level="2", ruleset=THREE)


def test_9991010jjj_is_three_units() -> None:
    lead = "S9 S9 S9 S10 S10 SJ SJ SJ"
    assert unit_set(lead, level="2", ruleset=THREE) == {"S9 S9 S9", "S10 S10", "SJ SJ SJ"}
    assert forced(lead, "SK SK SK", "SQ SQ", level="2", ruleset=THREE) == "S9 S9 S9"
    assert forced(lead, "SQ SQ SQ", level="2", ruleset=THREE) == "S9 S9 S9"
    assert forced(lead, "SQ SQ", level="2", ruleset=THREE) == "S10 S10"
    assert ruffs(lead, "H3 H3 H3 HK HK HK H5 H5", level="2", ruleset=THREE)
    assert ruffs(lead, "H3 H3 H3 H4 H4 H4 H9 H9", level="2", ruleset=THREE)
    assert not ruffs(lead, "H3 H3 H3 H4 H4 H5 H5 H9", level="2", ruleset=THREE)


def test_four_deck_throws_need_the_others_void() -> None:
    assert throw("SA SK", "H3", "D4", "C5", level="5", ruleset=FOUR).valid
    res = throw("SA SK", "S3", "", "", level="5", ruleset=FOUR)
    assert not res.valid and res.play == ()


# ---------------------------------------------------------------- §10 ruffs and over-ruffs


def test_trump_998872_ruffs_ak5544() -> None:
    assert winner("SA SK S5 S5 S4 S4", "H9 H9 H8 H8 H7 H2") == 1


def test_trump_998872_cannot_ruff_aa5544() -> None:
    # AA5544 holds a tractor and a pair; 9988 7 2 has no second pair
    assert winner("SA SA S5 S5 S4 S4", "H9 H9 H8 H8 H7 H2") == 0


def test_977_ruffs_544_and_884_over_ruffs() -> None:
    assert winner("S5 S4 S4", "H9 H7 H7") == 1
    assert winner("S5 S4 S4", "H9 H7 H7", "H8 H8 H4") == 2


def test_977_ruffs_567_and_884_does_not_over_ruff() -> None:
    assert winner("S5 S6 S7", "H9 H7 H7") == 1
    assert winner("S5 S6 S7", "H9 H7 H7", "H8 H8 H4") == 1


def test_two_unpaired_trumps_do_not_beat_an_off_suit_pair() -> None:
    assert winner("SK SK", "H3 H4") == 0
    assert winner("SK SK", "H3 H3") == 1


# ---------------------------------------------------------------- §6 kitty multipliers


@pytest.mark.parametrize(
    ("cards", "times"),
    [
        ("S4 S4", 4),
        ("S4 S4 S5 S5", 16),
        ("SA SK SQ SJ S10 S9 S8 S7 S7", 4),  # a throw counts its pair 77
        ("SA SK SQ SJ", 2),
        ("SA SA SJ SJ", 4),
    ],
)
def test_power_of_size_two_decks(cards: str, times: int) -> None:
    assert kitty(cards) == times


@pytest.mark.parametrize(
    ("cards", "times"),
    [("S5 S5 S5", 8), ("S4 S4 S4 S5 S5 S5", 64), ("S4 S4 S5 S5 S6 S6", 64)],
)
def test_power_of_size_three_decks(cards: str, times: int) -> None:
    assert kitty(cards, ruleset=THREE) == times


@pytest.mark.parametrize(
    ("cards", "times"),
    [
        ("S4", 2),
        ("S4 S4", 4),
        ("S4 S4 S4", 6),  # a triple
        ("S4 S4 S5 S5", 8),  # tractor of length 2: 2·2²
        ("S4 S4 S5 S5 S6 S6", 16),  # 2·2³
        ("S4 S4 S4 S5 S5 S5", 18),  # Titanic of length 2: 2·3²
        ("S4 S4 S4 S5 S5 S5 S6 S6 S6", 54),  # 2·3³
    ],
)
def test_lianzhong_formula(cards: str, times: int) -> None:
    assert kitty(cards, ruleset=rules("three-deck", kitty_formula="lianzhong")) == times


@pytest.mark.parametrize(
    ("cards", "times"),
    [("S4", 2), ("S4 S4", 4), ("S4 S4 S5 S5", 8), ("SA SA SK", 2), ("H10 H10 H9", 2)],
)
def test_tournament_formula(cards: str, times: int) -> None:
    assert kitty(cards, ruleset="tournament") == times


@pytest.mark.parametrize(
    ("cards", "times"),
    [("S4", 1), ("S4 S4", 2), ("S4 S4 S4", 3), ("S4 S4 S4 S4", 4)],
)
def test_four_deck_last_trick_transfer(cards: str, times: int) -> None:
    assert kitty(cards, level="5", ruleset=FOUR) == times


def test_four_deck_transfer_counts_the_unit_that_won() -> None:
    assert kitty("S7 S7 S8 S8", "SA SA SA SA", level="5", ruleset=FOUR) == 4


# ---------------------------------------------------------------- §7 level tables

CLASSIC_ROWS = [
    (0, (3, 0, False)), (5, (2, 0, False)), (35, (2, 0, False)), (40, (1, 0, False)),
    (75, (1, 0, False)), (80, (0, 0, True)), (115, (0, 0, True)), (120, (0, 1, True)),
    (155, (0, 1, True)), (160, (0, 2, True)), (195, (0, 2, True)), (200, (0, 3, True)),
    (240, (0, 4, True)),
]


@pytest.mark.parametrize("name", ["classic", "bianfeng"])
@pytest.mark.parametrize(("points", "want"), CLASSIC_ROWS)
def test_classic_table(name: str, points: int, want: tuple[int, int, bool]) -> None:
    assert levels(points, name) == want


@pytest.mark.parametrize(
    ("points", "want"),
    [(0, (3, 0, False)), (35, (2, 0, False)), (40, (1, 0, False)), (79, (1, 0, False)),
     (80, (0, 1, True)), (119, (0, 1, True)), (120, (0, 2, True)), (159, (0, 2, True)),
     (160, (0, 3, True)), (200, (0, 4, True))],
)
def test_lianzhong_table(points: int, want: tuple[int, int, bool]) -> None:
    assert levels(points, "lianzhong") == want


@pytest.mark.parametrize("name", ["one-deck", "two-color"])
@pytest.mark.parametrize(
    ("points", "want"),
    [(0, (3, 0, False)), (15, (2, 0, False)), (20, (1, 0, False)), (35, (1, 0, False)),
     (40, (0, 0, True)), (55, (0, 0, True)), (60, (0, 1, True)), (80, (0, 2, True)),
     (100, (0, 3, True))],
)
def test_one_deck_table(name: str, points: int, want: tuple[int, int, bool]) -> None:
    assert levels(points, name) == want


@pytest.mark.parametrize(
    ("points", "want"),
    [(0, (2, 0, False)), (35, (1, 0, False)), (40, (0, 0, True)), (75, (0, 0, True)),
     (80, (0, 1, True)), (95, (0, 1, True)), (100, (0, 2, True))],
)
def test_one_deck_lianzhong_table(points: int, want: tuple[int, int, bool]) -> None:
    assert levels(points, rules("one-deck", level_table="one-deck-lianzhong")) == want


@pytest.mark.parametrize(
    ("points", "want"),
    [(0, (3, 0, False)), (55, (2, 0, False)), (60, (1, 0, False)), (115, (1, 0, False)),
     (120, (0, 0, True)), (175, (0, 0, True)), (180, (0, 1, True)), (240, (0, 2, True)),
     (300, (0, 3, True))],
)
def test_three_deck_table(points: int, want: tuple[int, int, bool]) -> None:
    assert levels(points, "three-deck") == want


@pytest.mark.parametrize(
    ("points", "want"),
    [(-20, (3, 0, False)), (0, (3, 0, False)), (5, (2, 0, False)), (75, (2, 0, False)),
     (80, (1, 0, False)), (155, (1, 0, False)), (160, (0, 1, True)), (235, (0, 1, True)),
     (240, (0, 2, True)), (320, (0, 3, True)), (800, (0, 9, True))],
)
def test_four_deck_table(points: int, want: tuple[int, int, bool]) -> None:
    assert levels(points, "four-deck") == want


@pytest.mark.parametrize(
    ("points", "want"),
    [(0, (3, 0, False)), (5, (2, 0, False)), (35, (2, 0, False)), (40, (1, 0, False)),
     (75, (1, 0, False)), (80, (0, 0, True)), (115, (0, 0, True)), (120, (0, 2, True)),
     (145, (0, 2, True)), (150, (0, 3, True)), (200, (0, 3, True))],
)
def test_tournament_table(points: int, want: tuple[int, int, bool]) -> None:
    assert levels(points, "tournament") == want


def test_follow_example_from_the_docs() -> None:
    # lead a pair → a follower holding a pair of that suit must play it
    assert not legal("SK SK", "S3 S3 S4 C5", "S3 S4")
    assert legal("SK SK", "S3 S3 S4 C5", "S3 S3")
