"""House rules for following: ``triple_follow`` and ``tractor_follow`` (docs/rules.md,
Decision 147). Level 10, hearts trump, spades led; three decks for triples."""

from __future__ import annotations

import pytest

from shengji.core.errors import RulesetError
from shengji.core.ruleset import PRESETS, Ruleset
from tests.core.helpers import follow, follows, legal, norm, rules, winner


def three(**options: object) -> Ruleset:
    return rules("three-deck", **options)


def two(**options: object) -> Ruleset:
    return rules("classic", **options)


# --- a triple led alone -------------------------------------------------------------------

def test_every_preset_asks_a_triple_then_a_pair() -> None:
    assert all(p.triple_follow == "triple-then-pair" for p in PRESETS.values())
    assert not legal("SK SK SK", "S3 S3 S4 S5 C6", "S3 S4 S5", ruleset=three())
    assert legal("SK SK SK", "S3 S3 S4 S5 C6", "S3 S3 S4", ruleset=three())


def test_triple_only_owes_a_triple_but_no_pair() -> None:
    rs = three(triple_follow="triple-only")
    assert legal("SK SK SK", "S3 S3 S4 S5 C6", "S3 S4 S5", ruleset=rs)
    assert not legal("SK SK SK", "S3 S3 S3 S4 S5", "S3 S4 S5", ruleset=rs)
    assert follows("SK SK SK", "S3 S3 S3 S4 S5", ruleset=rs) == {norm("S3 S3 S3")}


def test_a_free_triple_owes_only_the_suit() -> None:
    rs = three(triple_follow="free")
    assert legal("SK SK SK", "S3 S3 S3 S4 S5", "S3 S4 S5", ruleset=rs)
    assert follow("SK SK SK", "S3 S3 S3 S4 C5", "S3 S3 C5", ruleset=rs) is not None  # suit


# --- a tractor --------------------------------------------------------------------------

def test_every_preset_asks_a_tractor_then_pairs() -> None:
    assert all(p.tractor_follow == "tractor-then-pairs" for p in PRESETS.values())
    assert follows("SK SK SQ SQ", "S3 S3 S4 S4 S7 S7", ruleset=two()) == {norm("S3 S3 S4 S4")}
    assert follows("SK SK SQ SQ", "S3 S3 S6 S7 S7", ruleset=two()) == {norm("S3 S3 S7 S7")}


def test_pairs_only_needs_no_tractor() -> None:
    rs = two(tractor_follow="pairs-only")
    got = follows("SK SK SQ SQ", "S3 S3 S4 S4 S7 S7", ruleset=rs)
    assert got == {norm(p) for p in ("S3 S3 S4 S4", "S3 S3 S7 S7", "S4 S4 S7 S7")}
    assert not legal("SK SK SQ SQ", "S3 S3 S4 S4 S7 S7", "S3 S3 S4 S7", ruleset=rs)


def test_tractor_only_owes_a_tractor_but_no_pairs() -> None:
    rs = two(tractor_follow="tractor-only")
    assert follows("SK SK SQ SQ", "S3 S3 S4 S4 S7 S7", ruleset=rs) == {norm("S3 S3 S4 S4")}
    assert legal("SK SK SQ SQ", "S3 S3 S6 S7 S7", "S3 S6 S7 S7", ruleset=rs)
    assert legal("SK SK SQ SQ", "S3 S3 S6 S7 S7", "S3 S3 S6 S7", ruleset=rs)


def test_a_free_tractor_owes_only_the_suit() -> None:
    rs = two(tractor_follow="free")
    assert legal("SK SK SQ SQ", "S3 S3 S4 S4 S7", "S3 S4 S7 S4", ruleset=rs)
    assert follow("SK SK SQ SQ", "S3 S3 S4 S4 C7", "S3 S3 S4 C7", ruleset=rs) is not None


def test_a_thrown_pair_beside_a_free_tractor_is_still_owed() -> None:
    rs = two(tractor_follow="free")
    lead = "SA SA SK SK S9 S9"  # a tractor and a pair, thrown
    assert not legal(lead, "S3 S3 S4 S5 S6 S7 S8", "S3 S4 S5 S6 S7 S8", ruleset=rs)
    assert legal(lead, "S3 S3 S4 S5 S6 S7 S8", "S3 S3 S4 S5 S6 S7", ruleset=rs)


def test_a_house_tractor_rule_replaces_the_four_deck_table() -> None:
    rs = rules("four-deck", tractor_follow="free")
    assert legal("S7 S7 S8 S8", "S3 S3 S3 S3 S4", "S3 S3 S3 S4", ruleset=rs)
    assert not legal("S7 S7 S8 S8", "S3 S3 S3 S3 S4", "S3 S3 S3 S4", ruleset="four-deck")


@pytest.mark.parametrize(("field", "value"), [("triple_follow", "pair"),
                                              ("tractor_follow", "none")])
def test_an_unknown_setting_is_refused_by_name(field: str, value: str) -> None:
    with pytest.raises(RulesetError) as e:
        two(**{field: value})
    assert e.value.field == field


def test_bombs_are_stronger_shapes_beat_in_any_ruleset_with_wide_shapes() -> None:
    """Decision 150: a house "bomb" (a wider shape of as many cards beats a narrower one)
    is ``stronger_shapes_beat``, which a three-deck room may set too."""
    lead, bomb = "S7 S7 S8 S8 S9 S9", "S3 S3 S3 S4 S4 S4"
    assert winner(lead, bomb, ruleset=three(stronger_shapes_beat=True)) == 1
    assert winner(lead, bomb, ruleset=three()) == 0
