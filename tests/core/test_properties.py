"""Properties over random deals (hypothesis picks seeds, levels and trumps)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shengji.core.cards import NO_TRUMP, counts_of, deck, points_of
from shengji.core.follow import follow_error, legal_follows
from shengji.core.order import TRUMP, TrumpContext, context_for
from shengji.core.ruleset import PRESETS, Ruleset
from shengji.core.throws import check_throw
from shengji.core.tricks import is_valid_ruff, trick_points, trick_winner
from shengji.core.units import Unit, classify, decompose, suit_of_play

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32 - 1)
levels = st.integers(min_value=0, max_value=12)
trumps = st.sampled_from([NO_TRUMP, 0, 1, 2, 3])
any_preset = st.sampled_from(["classic", "lianzhong", "two-color", "three-deck", "four-deck"])


def deal(ruleset: Ruleset, seed: int) -> tuple[list[list[int]], list[int]]:
    """Shuffle a pack with ``random.Random(seed)``; four hands and the kitty."""
    pack = deck(ruleset.decks)
    random.Random(seed).shuffle(pack)
    n = ruleset.hand_size
    return [pack[i * n:(i + 1) * n] for i in range(ruleset.players)], pack[ruleset.players * n:]


def random_lead(hand: Sequence[int], ctx: TrumpContext, rnd: random.Random) -> list[int]:
    """A unit of the hand (often its biggest structure), or two units of one suit: a throw."""
    suits = sorted({ctx.esuit[c] for c in hand})
    suit = rnd.choice(suits)
    pool = [c for c in hand if ctx.esuit[c] == suit]
    units = decompose(pool, ctx)  # widest, longest first
    count = min(len(units), rnd.choice([1, 1, 2]))
    picked = units[:count] if rnd.random() < 0.6 else rnd.sample(units, count)
    lead: list[int] = []
    for u in picked:  # the unit's faces back to real cards of the hand
        for f in u.faces:
            for _ in range(u.width):
                k = next(c for c in pool if ctx.face[c] == f)
                pool.remove(k)
                lead.append(k)
    return lead


def small_hand(pool: Sequence[int], suit: int, n: int, ctx: TrumpContext,
               rnd: random.Random) -> list[int]:
    """A few cards from ``pool``: some of ``suit`` (whole tuples, so structure matters) and
    some others, at least ``n`` in all."""
    by_face: dict[int, list[int]] = {}
    for c in pool:
        if ctx.esuit[c] == suit:
            by_face.setdefault(ctx.face[c], []).append(c)
    take: list[int] = []
    target = rnd.randint(0, n + 4)
    for f in rnd.sample(sorted(by_face), len(by_face)):
        if len(take) >= target:
            break
        take += by_face[f][: rnd.randint(1, len(by_face[f]))]
    others = [c for c in pool if ctx.esuit[c] != suit]
    need = max(0, n - len(take)) + rnd.randint(0, 2)
    return take + rnd.sample(others, min(len(others), need))


# ---------------------------------------------------------------- units


@FAST
@given(seed=seeds, level=levels, trump=trumps, name=any_preset)
def test_units_partition_a_play(seed: int, level: int, trump: int, name: str) -> None:
    rs = PRESETS[name]
    ctx = context_for(rs, level, trump)
    rnd = random.Random(seed)
    hand = deal(rs, seed)[0][0]
    suit = ctx.esuit[rnd.choice(hand)]
    suited = [c for c in hand if ctx.esuit[c] == suit]
    play = rnd.sample(suited, rnd.randint(1, len(suited)))
    units = decompose(play, ctx)
    assert sorted(c for u in units for c in u.cards()) == sorted(ctx.face[c] for c in play)
    for u in units:
        assert u.suit == suit and 1 <= u.width <= rs.max_width
        positions = [ctx.pos[f] for f in u.faces]
        assert positions == list(range(u.top, u.top - u.length, -1))  # consecutive
    c = classify(play, ctx)
    assert (c.kind == "throw") == (len(units) > 1)
    mixed = play + [x for x in hand if ctx.esuit[x] != suit][:2]
    assert sorted(x for u in classify(mixed, ctx).units for x in u.cards()) == sorted(
        ctx.face[x] for x in mixed)


# ---------------------------------------------------------------- follows


@FAST
@given(seed=seeds, level=levels, trump=trumps, name=any_preset)
def test_enumerator_and_checker_agree_on_small_hands(
    seed: int, level: int, trump: int, name: str
) -> None:
    rs = PRESETS[name]
    ctx = context_for(rs, level, trump)
    rnd = random.Random(seed)
    hands, _ = deal(rs, seed)
    lead = random_lead(hands[0], ctx, rnd)
    if len(lead) > 8:
        lead = lead[:1]
    n = len(lead)
    suit = ctx.esuit[lead[0]]
    hand = small_hand(hands[1] + hands[2] + hands[3], suit, n, ctx, rnd)
    vec = counts_of(hand)
    enumerated = list(legal_follows(lead, vec, ctx, rs))
    assert enumerated, "there is always a legal follow"
    assert len(enumerated) == len(set(enumerated))
    checked = {
        tuple(sorted(p))
        for p in itertools.combinations(hand, n)
        if follow_error(lead, vec, p, ctx, rs) is None
    }
    assert set(enumerated) == checked


@FAST
@given(seed=seeds, level=levels, trump=trumps)
def test_full_two_deck_hands(seed: int, level: int, trump: int) -> None:
    rs = PRESETS["classic"]
    ctx = context_for(rs, level, trump)
    rnd = random.Random(seed)
    hands, _ = deal(rs, seed)
    lead = random_lead(hands[0], ctx, rnd)[:6]
    if suit_of_play(lead, ctx) is None or len(decompose(lead, ctx)) > 2:
        lead = lead[:1]
    n = len(lead)
    hand, vec = hands[1], counts_of(hands[1])
    some = list(itertools.islice(legal_follows(lead, vec, ctx, rs), 60))
    assert some
    for play in some:
        assert follow_error(lead, vec, play, ctx, rs) is None
    suit = ctx.esuit[lead[0]]
    suited = [c for c in hand if ctx.esuit[c] == suit]
    if len(suited) > n:  # only then is the full list small enough to build
        every = set(legal_follows(lead, vec, ctx, rs))
        for _ in range(30):
            pool = suited if rnd.random() < 0.7 else hand
            play = tuple(sorted(rnd.sample(pool, n)))
            assert (follow_error(lead, vec, play, ctx, rs) is None) == (play in every)


def _has_run(cards: Sequence[int], length: int, ctx: TrumpContext) -> bool:
    """Independent check: ``length`` consecutive positions that each hold a pair."""
    counts = counts_of(cards)
    paired = {ctx.pos[k] for k in range(54) if counts[k] >= 2}
    return any(all(p + i in paired for i in range(length)) for p in paired)


def _pairs(cards: Sequence[int]) -> int:
    return sum(1 for n in counts_of(cards) if n >= 2)


@FAST
@given(seed=seeds, level=levels, trump=trumps)
def test_pair_and_tractor_duties_two_decks(seed: int, level: int, trump: int) -> None:
    """RULES.md §4 checked without the engine's shape search (single-unit leads)."""
    rs = PRESETS["classic"]
    ctx = context_for(rs, level, trump)
    rnd = random.Random(seed)
    hands, _ = deal(rs, seed)
    units = [u for u in decompose_all(hands[0], ctx) if u.width == 2]
    if not units:
        return
    u = rnd.choice(units)
    lead, suit = u.cards(), u.suit
    hand = hands[1]
    suited = [c for c in hand if ctx.esuit[c] == suit]
    n = len(lead)
    if len(suited) <= n:
        return
    vec = counts_of(hand)
    for _ in range(40):
        play = rnd.sample(suited, n)
        if u.length == 1:
            want = _pairs(play) >= 1 or _pairs(suited) == 0
        elif _has_run(suited, u.length, ctx):
            want = _has_run(play, u.length, ctx)
        else:
            want = _pairs(play) >= min(_pairs(suited), u.length)
        assert (follow_error(lead, vec, play, ctx, rs) is None) == want, play


def decompose_all(hand: Sequence[int], ctx: TrumpContext) -> list[Unit]:
    """The units of every suit of a hand."""
    out: list[Unit] = []
    for s in {ctx.esuit[c] for c in hand}:
        out.extend(decompose([c for c in hand if ctx.esuit[c] == s], ctx))
    return out


# ---------------------------------------------------------------- tricks and a whole deal


@FAST
@given(seed=seeds, level=levels, trump=trumps, name=any_preset)
def test_lead_wins_when_nobody_follows_or_ruffs(
    seed: int, level: int, trump: int, name: str
) -> None:
    rs = PRESETS[name]
    ctx = context_for(rs, level, trump)
    rnd = random.Random(seed)
    hands, _ = deal(rs, seed)
    lead = random_lead(hands[0], ctx, rnd)
    suit, n = ctx.esuit[lead[0]], len(lead)
    structured = any(u.width > 1 for u in decompose(lead, ctx))
    plays = [lead]
    for hand in hands[1:]:
        discards = [c for c in hand if ctx.esuit[c] not in (suit, TRUMP)]
        # trumps of distinct faces hold no pair: no ruff of a lead with a pair in it
        singles = list({ctx.face[c]: c for c in hand if ctx.esuit[c] == TRUMP}.values())
        if suit != TRUMP and structured and len(singles) >= n and rnd.random() < 0.5:
            plays.append(rnd.sample(singles, n))
        elif len(discards) >= n:
            plays.append(rnd.sample(discards, n))
        else:
            return
    assert trick_winner(plays, ctx, rs) == 0


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, level=levels, trump=trumps)
def test_a_whole_deal_of_random_legal_plays(seed: int, level: int, trump: int) -> None:
    rs = PRESETS["classic"]
    ctx = context_for(rs, level, trump)
    rnd = random.Random(seed)
    hands, kitty = deal(rs, seed)
    vecs = [counts_of(h) for h in hands]
    leader, taken = 0, [0, 0, 0, 0]
    while any(vecs[leader]):
        hand = [k for k, c in enumerate(vecs[leader]) for _ in range(c)]
        lead = random_lead(hand, ctx, rnd)
        others = [vecs[(leader + i) % 4] for i in (1, 2, 3)]
        res = check_throw(lead, others, ctx, rs)
        lead = list(res.play)
        assert lead and set(lead) <= set(hand)
        plays = [lead]
        for i in (1, 2, 3):
            vec = vecs[(leader + i) % 4]
            options = list(itertools.islice(legal_follows(lead, vec, ctx, rs), 25))
            plays.append(list(rnd.choice(options)))
        for i, play in enumerate(plays):
            for c in play:
                vecs[(leader + i) % 4][c] -= 1
                assert vecs[(leader + i) % 4][c] >= 0
        w = trick_winner(plays, ctx, rs)
        won = plays[w]
        assert w == 0 or suit_of_play(won, ctx) in (ctx.esuit[lead[0]], TRUMP)
        if w and suit_of_play(won, ctx) != ctx.esuit[lead[0]]:
            assert is_valid_ruff(lead, won, ctx)
        leader = (leader + w) % 4
        taken[leader] += trick_points(plays)
    assert all(not any(v) for v in vecs)
    assert sum(taken) + points_of(kitty) == rs.deck_points
