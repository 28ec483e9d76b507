"""A dry run (`check`) answers only from what the asking seat may know.

With ``throw_policy="others-void"`` (the four-deck rule) a throw is allowed only when every
other hand is void in its suit. When a kitty hides cards, the seat cannot know that; a dry
run against the real hands told it. Two deals that look the same to the seat must get the
same answer."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.actions import Play
from shengji.core.cards import counts_of, deck, parse_cards
from shengji.core.determinize import state_from_view
from shengji.core.dry_run import dry_run
from shengji.core.errors import IllegalAction
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.ruleset import preset
from shengji.core.state import DealState
from shengji.core.views import view_for
from shengji.server.table import Seat, Table, TableConfig, handle
from shengji.server.table.commands import ClientSaid
from shengji.server.table.effects import Send
from shengji.server.table.model import Viewer
from shengji.server.wire import messages as wire

FOUR_DECKS_WITH_KITTY = preset("four-deck", {"kitty_size": 8, "kitty_formula": "power-of-size"})
"""Others-void throws, and 8 kitty cards nobody but the dealer has seen (a kitty is scored
by a multiplier: the four-deck sheet's transfer has none to score, Decision 149)."""


def _a_lead_by_a_seat_without_the_kitty(seed: int) -> DealState | None:
    """A deal at a lead (empty trick) whose leader is not the kitty's holder."""
    found: list[DealState] = []

    def keep(_a: object, state: MatchState, _e: object) -> None:
        d = state.deal
        ready = d.phase is Phase.PLAYING and not d.trick and d.tricks
        if not found and ready and d.leader != d.kitty_holder:
            found.append(d)

    play_match(
        FOUR_DECKS_WITH_KITTY, [RandomBot(i) for i in range(4)], seed, deals=1, on_action=keep
    )
    return found[0] if found else None


def _twin_worlds() -> tuple[DealState, DealState, Play]:
    """Two deals the leader sees alike: it holds every unplayed card of a side suit but one;
    that card lies in the kitty (world A: the others are void) or in another hand (B)."""
    for seed in range(40):
        deal = _a_lead_by_a_seat_without_the_kitty(seed)
        if deal is None:
            continue
        seat = deal.leader
        view = view_for(deal, seat)
        ctx = view.ctx
        assert ctx is not None
        unplayed = Counter(deck(4))
        unplayed.subtract(view.played_cards)
        suits = {ctx.esuit[c] for c in range(52)} - {ctx.esuit[52]}  # side suits only
        size = view.hand_sizes[seat]
        for suit in sorted(suits):
            own = [c for c in sorted(unplayed.elements()) if ctx.esuit[c] == suit]
            ranks = sorted(set(own), key=lambda c: ctx.pos[c])
            if not 1 < len(own) - 1 <= size or len(ranks) < 5:
                continue
            hidden = own.pop(0)  # one card of the suit the leader does not hold
            rest = [c for c in sorted(unplayed.elements()) if ctx.esuit[c] != suit]
            hand = own + rest[: size - len(own)]
            rest = rest[size - len(own) :]
            others = [p for p in range(4) if p != seat]
            kitty_a, rest = [hidden, *rest[:7]], rest[7:]
            hands_a: dict[int, list[int]] = {}
            for p in others:
                hands_a[p], rest = rest[: view.hand_sizes[p]], rest[view.hand_sizes[p] :]
            assert not rest
            holder = others[0]
            hands_b = {p: list(h) for p, h in hands_a.items()}
            kitty_b = [hands_b[holder].pop(0), *kitty_a[1:]]
            hands_b[holder].append(hidden)

            hands_a[seat] = hands_b[seat] = hand
            a = state_from_view(view, [counts_of(hands_a[p]) for p in range(4)], kitty_a)
            b = state_from_view(view, [counts_of(hands_b[p]) for p in range(4)], kitty_b)
            throw = Play(seat, (ranks[-1], ranks[-3], ranks[-5]))  # three single units
            return a, b, throw
    raise AssertionError("no deal to build the twin worlds from")


def test_the_twin_worlds_look_alike_and_the_real_hands_differ() -> None:
    a, b, throw = _twin_worlds()
    assert view_for(a, throw.seat) == view_for(b, throw.seat)
    a.apply(throw)  # the others are void: the throw stands
    with pytest.raises(IllegalAction, match="void"):
        b.apply(throw)  # a dry run against the real hands would have told the difference


def test_a_dry_run_of_a_throw_gives_the_same_answer_behind_the_same_view() -> None:
    a, b, throw = _twin_worlds()
    assert dry_run(a, throw) == dry_run(b, throw) == "throw"
    single = Play(throw.seat, throw.cards[:1])
    assert dry_run(a, single) is dry_run(b, single) is None
    mixed = Play(throw.seat, (throw.cards[0], *parse_cards("BJ")))
    for world in (a, b):
        with pytest.raises(IllegalAction):  # refusals the seat can know still come back
            dry_run(world, mixed)


def test_the_rooms_check_message_answers_alike_for_the_twin_worlds() -> None:
    a, b, throw = _twin_worlds()
    text = "play " + " ".join(str(throw).split()[2:])

    def answer(deal: DealState) -> dict[str, object]:
        cfg = TableConfig("twins", "four-deck", FOUR_DECKS_WITH_KITTY, room_seed="s")
        table = Table(
            cfg,
            (Seat("human", "p", "leader"),) * 4,
            status="playing",
            match=MatchState(FOUR_DECKS_WITH_KITTY, "s", (0,) * 4, deal.dealer, deal),
            conns={1: Viewer("p", "leader", throw.seat)},
        )
        _, effects = handle(table, ClientSaid(1, wire.Check(actions=[text])), now=0.0)
        sent = [e.msg for e in effects if isinstance(e, Send)]
        checked = [m for m in sent if isinstance(m, wire.Checked)]
        result: dict[str, object] = msgspec.to_builtins(checked[0].results[0])
        return result

    first, second = answer(a), answer(b)
    assert first == second
    assert first["ok"] is True and first["note"] == "throw" and first["code"] is None
