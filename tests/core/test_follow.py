"""What a follower must play (RULES.md §4), for two, three and four decks."""

from __future__ import annotations

import itertools

import pytest

from shengji.core.cards import cards_str, counts_of
from shengji.core.follow import FollowBuilder, analyse_lead, first_legal_follow
from shengji.core.follow_tables import FOUR_DECK, LIANZHONG, QQ, TABLES
from tests.core.helpers import C, ctx, follow, follows, legal, norm, rules

# ---------------------------------------------------------------- suit and count


def test_must_follow_suit() -> None:
    assert follow("SK", "S3 H4 C5", "H4") == "must follow the led suit while you hold it"
    assert legal("SK", "S3 H4 C5", "S3")


def test_void_plays_anything() -> None:
    assert follows("SK", "H4 C5 S10") == {"H4", "C5", "S10"}  # S10 is trump at level 10


def test_too_few_of_the_suit_play_them_all_plus_others() -> None:
    hand = "S3 S5 H4 H4 C5"
    assert legal("SK SK SQ SQ", hand, "S3 S5 H4 C5")
    assert not legal("SK SK SQ SQ", hand, "S3 H4 H4 C5")
    assert follows("SK SK SQ SQ", hand) == {norm(p) for p in (
        "S3 S5 H4 H4", "S3 S5 H4 C5")}


def test_wrong_count_and_cards_not_held() -> None:
    assert follow("SK SK", "S3 S3 S4", "S3") == "play 2 card(s) to follow, not 1"
    assert follow("SK SK", "S3 S3 S4", "S3 S3 S4") == "play 2 card(s) to follow, not 3"
    assert follow("SK SK", "S3 S4 C5", "S3 S3") == "the play holds cards that are not in the hand"


def test_trump_lead_is_followed_with_any_trump() -> None:
    # level cards and jokers are trump, whatever their printed suit
    assert follows("H3", "S10 SA C2") == {"S10"}
    assert follows("BJ BJ", "S10 C10 HA S9 S9") == {norm(p) for p in (
        "S10 C10", "S10 HA", "C10 HA")}


# ---------------------------------------------------------------- pairs and tractors (2 decks)


def test_lead_pair_play_a_pair() -> None:
    hand = "S3 S3 S4 S6 C5"
    assert follow("SK SK", hand, "S3 S4") == "must play a pair of the led suit when you hold one"
    assert follows("SK SK", hand) == {"S3 S3"}


def test_pairs_inside_tractors_count() -> None:
    assert follows("SK SK", "S3 S3 S4 S4 C5") == {"S3 S3", "S4 S4"}


def test_lead_pair_without_a_pair() -> None:
    assert follows("SK SK", "S3 S4 C5") == {"S3 S4"}


def test_lead_tractor_play_a_tractor() -> None:
    hand = "S3 S3 S4 S4 S9 S9 SA C5"
    assert follows("SK SK SQ SQ", hand) == {"S3 S3 S4 S4"}
    assert follow("SK SK SQ SQ", hand, "S9 S9 S3 S3") == (
        "must play a tractor of the led suit when you hold one")


def test_lead_tractor_else_as_many_pairs() -> None:
    hand = "S3 S3 S6 S6 S9 SA C5"
    assert follows("SK SK SQ SQ", hand) == {norm("S3 S3 S6 S6")}
    assert follow("SK SK SQ SQ", hand, "S3 S3 S9 SA") == (
        "must play as many pairs of the led suit as you hold")
    assert follows("SK SK SQ SQ", "S3 S3 S6 S9 C5") == {norm(p) for p in (
        "S3 S3 S6 S9",)}


def test_long_tractor_lead_with_a_short_tractor() -> None:
    # no tractor of length 3: then as many pairs as possible (the short tractor's pairs count)
    hand = "S3 S3 S4 S4 S7 S7 S9 C5"
    lead = "SA SA SK SK SQ SQ"
    assert legal(lead, hand, "S3 S3 S4 S4 S7 S7")
    assert not legal(lead, hand, "S3 S3 S4 S4 S9 S7")


def test_throw_lead_structure() -> None:
    # AAKK + 55: a tractor and a pair must be matched as far as the hand allows
    lead = "SA SA SK SK S5 S5"
    hand = "S3 S3 S4 S4 S7 S7 S8 D2"
    assert legal(lead, hand, "S3 S3 S4 S4 S7 S7")
    assert not legal(lead, hand, "S3 S3 S7 S7 S8 S4")
    assert follows("SA SA SK", "S3 S3 S4 S6") == {"S3 S3 S4", "S3 S3 S6"}


def test_trump_lead_structure() -> None:
    assert follows("H3 H3", "S10 C10 C10 HA BJ S5") == {"C10 C10"}
    assert follows("LJ LJ BJ BJ", "S10 S10 H10 H10 HA H2 S5") == {"S10 S10 H10 H10"}


def test_two_colour_pairs_must_be_followed() -> None:
    tc = rules("two-color")
    assert follows("HK DK", "H3 D3 H4 S5", level="2", trump="S", ruleset=tc) == {"H3 D3"}


# ---------------------------------------------------------------- three decks

THREE_QQ = rules("three-deck", follow_order="qq")
THREE_LZ = rules("three-deck", follow_order="lianzhong")
TITANIC = "S3 S3 S3 S4 S4 S4"


def both(lead: str, hand: str) -> tuple[set[str], set[str]]:
    return (follows(lead, hand, level="2", ruleset=THREE_QQ),
            follows(lead, hand, level="2", ruleset=THREE_LZ))


def test_the_three_deck_preset_uses_qq() -> None:
    assert rules("three-deck").follow_order == "qq"
    assert TABLES["qq"] is QQ and TABLES["lianzhong"] is LIANZHONG


def test_titanic_lead_titanic_first() -> None:
    qq, lz = both(TITANIC, "S6 S6 S6 S7 S7 S7 S9 S9 SK")
    assert qq == lz == {"S6 S6 S6 S7 S7 S7"}


def test_titanic_lead_qq_tractor_beats_two_triples_lianzhong_the_other_way() -> None:
    hand = "S6 S6 S7 S7 S9 S9 S9 SJ SJ SJ SK"
    qq, lz = both(TITANIC, hand)
    assert lz == {"S9 S9 S9 SJ SJ SJ"}
    assert norm("S6 S6 S7 S7 S9 SK") in qq and norm("S6 S6 S7 S7 SJ SJ") in qq
    assert all(C("S6 S6 S7 S7") == sorted(C(p))[:4] for p in qq)


@pytest.mark.parametrize(
    ("hand", "must_hold"),
    [
        ("S9 S9 S9 SJ SJ SJ S5 S5 SK", "S9 S9 S9 SJ SJ SJ"),  # two triples
        ("S9 S9 S9 S5 S5 SK SQ", "S9 S9 S9 S5 S5"),  # triple + pair + single
        ("S9 S9 S9 S5 SK SQ SJ", "S9 S9 S9"),  # triple + 3 singles
        ("S9 S9 S5 S5 SK SQ SJ", "S9 S9 S5 S5"),  # two pairs + 2 singles
        ("S9 S9 S5 SK SQ SJ S7", "S9 S9"),  # pair + 4 singles
        ("S9 S5 SK SQ SJ S7 S6", ""),  # 6 singles
    ],
)
def test_titanic_lead_lower_rungs(hand: str, must_hold: str) -> None:
    # the legal follows are exactly the 6 spades that hold the rung's cards
    want = set()
    for combo in itertools.combinations(C(hand), 6):
        rest = list(combo)
        if all(rest.count(c) >= C(must_hold).count(c) for c in C(must_hold)):
            want.add(cards_str(sorted(combo)))
    assert want
    qq, lz = both(TITANIC, hand)
    assert qq == lz == want


def test_titanic_lead_triple_pair_single_is_not_two_pairs() -> None:
    # 999 + 55 + K reaches "triple + pair + single"; 99 55 K Q only "two pairs"
    for rs in (THREE_QQ, THREE_LZ):
        assert not legal(TITANIC, "S9 S9 S9 S5 S5 SK SQ", "S9 S9 S5 S5 SK SQ", level="2",
                         ruleset=rs)


def test_triple_lead() -> None:
    lead = "S3 S3 S3"
    for rs in (THREE_QQ, THREE_LZ):
        assert follows(lead, "S5 S5 S5 S7 S8", level="2", ruleset=rs) == {"S5 S5 S5"}
        assert follows(lead, "S5 S5 S7 S8 C3", level="2", ruleset=rs) == {
            "S5 S5 S7", "S5 S5 S8"}
        assert len(follows(lead, "S5 S6 S7 S8", level="2", ruleset=rs)) == 4


def test_three_deck_pair_lead_takes_a_pair_from_a_triple() -> None:
    assert follows("S3 S3", "S5 S5 S5 S7", level="2", ruleset=THREE_QQ) == {"S5 S5"}


# ---------------------------------------------------------------- four decks (seed 002)

FOUR = rules("four-deck")


def four(lead: str, hand: str) -> set[str]:
    return follows(lead, hand, level="5", trump="H", ruleset=FOUR)


def test_four_deck_uses_the_seed_tables() -> None:
    assert TABLES["four-deck"] is FOUR_DECK
    assert FOUR.follow_order == "four-deck"
    # the lead shapes of seed 002 §3.4.5 (44556677, two quads, 667788, JJJQQQ, AAAA, 7788)
    assert {((2, 4),), ((4, 2),), ((4, 1), (4, 1)), ((2, 3),), ((3, 2),), ((4, 1),),
            ((2, 2),)} <= set(FOUR_DECK)
    lead = analyse_lead(C("S7 S7 S7 S7 S9 S9 S9 S9"), ctx("5", "H", FOUR), FOUR)
    assert lead.rungs is FOUR_DECK[((4, 1), (4, 1))]


def test_four_deck_quad_tractor_lead() -> None:
    lead = "S3 S3 S3 S3 S4 S4 S4 S4"
    # seed 002 §3.4.5 item 2 ("2个4张" first): any two quads, the quad tractor among them
    assert four(lead, "S7 S7 S7 S7 S8 S8 S8 S8 SJ SJ SJ SJ") == {
        norm("S7 S7 S7 S7 S8 S8 S8 S8"), norm("S7 S7 S7 S7 SJ SJ SJ SJ"),
        norm("S8 S8 S8 S8 SJ SJ SJ SJ")}
    # a triple tractor is no rung of its own (Decision 110, amending 12): 7788 + KK + any two
    assert four(lead, "S7 S7 S7 S8 S8 S8 SK SK S9") == {
        norm("S7 S7 S7 S8 S8 S8 SK SK"), norm("S7 S7 S7 S8 S8 S9 SK SK"),
        norm("S7 S7 S8 S8 S8 S9 SK SK")}
    # a quad with two pairs beats two triples + 2 singles
    assert four(lead, "SA SA SA SA S9 S9 S6 S6 SQ SQ SQ") == {
        norm("SA SA SA SA S9 S9 S6 S6"), norm("SA SA SA SA S9 S9 SQ SQ"),
        norm("SA SA SA SA S6 S6 SQ SQ")}


def test_four_deck_two_quads_lead() -> None:
    lead = "S3 S3 S3 S3 S8 S8 S8 S8"
    hand = "S6 S6 S6 S6 S7 S7 S7 S7 SK SK SK SK"
    assert four(lead, hand) == {norm("S6 S6 S6 S6 SK SK SK SK"), norm("S7 S7 S7 S7 SK SK SK SK"),
                                norm("S6 S6 S6 S6 S7 S7 S7 S7")}
    # without two quads, the quad tractor is next ... then a pair tractor with two pairs
    assert four(lead, "S6 S6 S6 S6 S7 S7 S7 S7 SK") == {norm("S6 S6 S6 S6 S7 S7 S7 S7")}


def test_four_deck_pair_tractor_of_three() -> None:
    lead = "S6 S6 S7 S7 S8 S8"
    # a pair tractor or a triple tractor, either
    got = four(lead, "SJ SJ SJ SQ SQ SQ S9 S9 S10 S10 SK SK S3")
    assert norm("SJ SJ SJ SQ SQ SQ") in got and norm("S9 S9 S10 S10 SJ SJ") in got
    # quad + pair before tractor + pair
    assert four(lead, "SA SA SA SA S3 S3 S9 S9 S10 S10") == {
        norm("SA SA SA SA S3 S3"), norm("SA SA SA SA S9 S9"), norm("SA SA SA SA S10 S10")}
    assert four(lead, "S7 S7 S8 S8 SJ SJ SA") == {norm("S7 S7 S8 S8 SJ SJ")}


def test_four_deck_triple_tractor_lead() -> None:
    lead = "SJ SJ SJ SQ SQ SQ"
    assert four(lead, "S3 S3 S3 S4 S4 S4 S6 S6 S7 S7 S8 S8") == {norm("S3 S3 S3 S4 S4 S4")}
    assert four(lead, "S6 S6 S7 S7 S8 S8 S10 S10 S10 SK SK SK") == {norm("S6 S6 S7 S7 S8 S8")}
    # two triples before triple + pair + single
    assert four(lead, "S3 S3 S3 S9 S9 S9 SK SK") == {norm("S3 S3 S3 S9 S9 S9")}


def test_four_deck_quad_lead() -> None:
    lead = "SA SA SA SA"
    assert four(lead, "S7 S7 S7 S7 S3 S3 S4 S4") == {norm("S7 S7 S7 S7")}
    assert four(lead, "S7 S7 S8 S8 SK SK SK S3") == {norm("S7 S7 S8 S8")}
    # two pairs before triple + single
    assert four(lead, "SK SK SK S7 S7") == {norm("SK SK S7 S7")}
    assert four(lead, "SK SK SK S7 S9") == {norm("SK SK SK S7"), norm("SK SK SK S9")}


def test_four_deck_pair_tractor_lead_quad_or_tractor() -> None:
    hand = "SA SA SA SA S3 S3 S4 S4 S9"
    assert four("S7 S7 S8 S8", hand) == {norm("SA SA SA SA"), norm("S3 S3 S4 S4")}
    assert not legal("S7 S7 S8 S8", hand, "SA SA S3 S3", level="5", ruleset=FOUR)


def test_best_class_is_what_the_lead_size_allows() -> None:
    # regression: the follower's best quads/triples/pairs were taken part by part, so a hand
    # with a quad, three triples and a pair "owed" 1 quad + 3 triples + 6 pairs in 12 cards
    # and had no legal follow at all. Best reachable: quad + 2 triples + a pair (5 pairs).
    lead = "S3 S3 S3 S3 S4 S4 S4 S4 S6 S6 S6 S6"  # a quad tractor of length 3 (level 5)
    hand = "S8 S8 S8 S8 S10 S10 S10 SQ SQ SQ SA SA SA S7 S7"
    got = four(lead, hand)
    assert norm("S8 S8 S8 S8 S10 S10 S10 SQ SQ SQ S7 S7") in got
    assert norm("S8 S8 S8 S8 S10 S10 S10 SQ SQ SQ SA SA") in got
    assert len(got) == 6
    assert not legal(lead, hand, "S10 S10 S10 SQ SQ SQ SA SA SA S7 S7 S8", level="5",
                     ruleset=FOUR)


def test_best_class_with_a_quad_in_a_throw() -> None:
    # quad + pair led (a throw under the "validated" policy): a triple and two pairs do not fit
    # in 6 cards, so a triple, a pair and any card is the best
    rs = rules("four-deck", throw_policy="validated")
    got = follows("H6 H6 H6 H6 H10 H10", "HA H5 H5 H5 H10 H10 HJ HJ H9 H9", level="2",
                  trump="S", ruleset=rs)
    assert norm("H5 H5 H5 H10 H10 HA") in got and norm("H5 H5 H5 H9 H9 HJ") in got
    assert all(p.count("H5") == 3 for p in got)
    assert norm("H10 H10 HJ HJ H9 H9") not in got


# ---------------------------------------------------------------- builder and helpers


def builder(lead: str, hand: str) -> FollowBuilder:
    return FollowBuilder(C(lead), counts_of(C(hand)), ctx(), rules())


def allowed(b: FollowBuilder, picked: str) -> str:
    return cards_str(sorted(b.allowed_next(C(picked))))


def test_builder_pair_duty() -> None:
    b = builder("SK SK", "S3 S3 S4 C5")
    assert allowed(b, "") == "S3"
    assert allowed(b, "S3") == "S3"
    assert allowed(b, "S3 S3") == ""
    assert b.is_complete(C("S3 S3")) and not b.is_complete(C("S3"))


def test_builder_void_and_short() -> None:
    assert allowed(builder("SK", "H3 C5"), "") == norm("H3 C5")
    b = builder("SK SK", "S3 H4 C5")
    assert allowed(b, "") == norm("S3 H4 C5")
    assert allowed(b, "H4") == "S3"
    assert allowed(b, "S3") == norm("H4 C5")


def test_first_legal_follow_is_legal() -> None:
    hand = "S3 S3 S4 S4 S9 S9 SA C5"
    play = first_legal_follow(C("SK SK SQ SQ"), counts_of(C(hand)), ctx(), rules())
    assert sorted(play) == sorted(C("S3 S3 S4 S4"))
