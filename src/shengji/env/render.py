"""``render_mode="ansi"``: the table as text in card notation.

It shows every hand and the kitty: it is for the people running the environment, never an
agent's input (agents get ``observe``).

>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.state import DealState
>>> print(render_ansi(DealState.new(PRESETS["classic"], seed=1, dealer=0), None))
deal: classic, level 2, dealer S0, trump ?, phase dealing, attackers 0 points
S0 (dealer side):
S1:
S2 (dealer side):
S3:
kitty (8): ?
"""

from __future__ import annotations

from shengji.core.cards import RANKS, cards_str, trump_str
from shengji.core.phases import Phase
from shengji.core.state import DealState
from shengji.env.actions import Turn


def render_ansi(state: DealState, turn: Turn | None) -> str:
    """The deal: each hand, the trick on the table, the last trick, the picking seat."""
    st = state
    dealer = "?" if st.dealer is None else f"S{st.dealer}"
    trump = "?" if st.trump is None else trump_str(st.trump)
    lines = [
        f"deal: {st.ruleset.name}, level {RANKS[st.level]}, dealer {dealer}, trump {trump}, "
        f"phase {st.phase.value}, attackers {st.attacker_points} points"
    ]
    side = set(st.defenders) if st.defenders else (
        {p for p in range(st.players) if p % 2 == st.dealer % 2}
        if st.dealer is not None and st.ruleset.partnership == "fixed" else set()
    )
    for seat in range(st.players):
        mark = " (dealer side)" if seat in side else ""
        lines.append(f"S{seat}{mark}: {cards_str(st.hand(seat))}".rstrip())
    shown = st.phase in (Phase.BURYING, Phase.NAMING, Phase.DONE) or st.kitty_holder is not None
    kitty = cards_str(st.kitty) if shown else "?"
    lines.append(f"kitty ({len(st.kitty)}): {kitty}")
    if st.friend_call is not None:
        friend = "not yet" if st.friend is None else f"S{st.friend}"
        lines.append(f"friend call: {st.friend_call} (found: {friend})")
    if st.auction is not None and st.auction.bids:
        bids = ", ".join(f"S{s} {t if t is not None else 'pass'}" for s, t in st.auction.bids)
        lines.append(f"bids: {bids}")
    if st.tricks:
        last = st.tricks[-1]
        plays = ", ".join(f"S{s} {cards_str(c)}" for s, c in last.plays)
        lines.append(f"last trick: {plays} → S{last.winner} (+{last.points})")
    if st.trick:
        lines.append("trick: " + ", ".join(f"S{s} {cards_str(c)}" for s, c in st.trick))
    if turn is not None:
        picked = f", picked {cards_str(turn.picked)}" if turn.picked else ""
        lines.append(f"to act: S{turn.seat}{picked}")
    if st.result is not None:
        ch = st.result.change
        lines.append(
            f"result: attackers {st.result.attacker_points} points; dealer side +"
            f"{ch.defender_levels}, attackers +{ch.attacker_levels}"
            + (", take over" if ch.attackers_take_over else "")
        )
    return "\n".join(lines)
