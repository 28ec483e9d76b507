"""The heuristic bot's own last-trick stake follows the ruleset's kitty reading: 联众 "具体得分
根据最大一方牌情规定如下" — a ruff of a throw is worth the ruff's own units (docs/rules.md
Decision 139)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shengji.bots.heuristic import HeuristicBot
from shengji.core.actions import parse_match_action
from shengji.core.cards import parse_cards
from shengji.core.follow import analyse_lead
from shengji.core.match import MatchState
from shengji.core.ruleset import PRESETS
from shengji.core.views import view_for

DATA = Path(__file__).resolve().parents[1] / "core" / "data" / "stored_before_rules.json"


def _before_the_ruff(units: str) -> tuple[HeuristicBot, MatchState]:
    """The stored 联众 deal (2-card hands) when seat 1 answers the dealer's ``SA SK`` last
    trick, under ``kitty_throw_units`` ``units``."""
    entry = next(e for e in json.loads(DATA.read_text())["records"]
                 if e["preset"] == "lianzhong" and "note" in e)
    rec = entry["record"]
    rs = PRESETS["lianzhong"].replace({"kitty_size": rec["ruleset"]["kitty_size"],
                                       "kitty_throw_units": units})
    m = MatchState.new(rs, rec["seed"], rec["first_dealer"])
    assert rec["actions"][-4:-2] == ["play 0 SA SK", "play 1 H2 H2"]
    for text in rec["actions"][:-3]:  # up to the dealer's lead
        m, _ = m.apply(parse_match_action(text))
    return HeuristicBot(), m


@pytest.mark.parametrize(("units", "ratio"), [("winner", 2.0), ("lead", 1.0)])
def test_a_ruff_of_the_last_throw_counts_the_ruffs_pair(units: str, ratio: float) -> None:
    bot, m = _before_the_ruff(units)
    view = view_for(m.deal, 1)
    ctx = view.ctx
    assert ctx is not None
    lead_cards = tuple(parse_cards("SA SK"))
    o = bot._outlook(view, ctx, analyse_lead(lead_cards, ctx, view.ruleset))
    ruff = o.last_trick_bonus(lead_cards, tuple(parse_cards("H2 H2")))
    as_lead = o.last_trick_bonus(lead_cards)
    assert as_lead > 0 and ruff == pytest.approx(ratio * as_lead)  # ×4 against ×2
