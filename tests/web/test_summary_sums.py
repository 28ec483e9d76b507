"""The deal summary adds up (rules.md, the summary): for a seeded deal of every preset the
summary's lines — point cards won, failed throws, the kitty × its multiplier or the
four-deck last-trick transfer — sum to the attackers' points it shows, and every product
shown is worked out right. The summaries are the server's own (``deal_summary``), rendered
by the browser's summary dialog."""

from __future__ import annotations

import random
import re
from typing import Any

import msgspec
import pytest
from playwright.sync_api import Browser

from shengji.core.actions import SYSTEM, Deal
from shengji.core.cards import cards_str
from shengji.core.events import DealEnded, KittyRevealed
from shengji.core.match import MatchState
from shengji.core.ruleset import PRESETS
from shengji.server.wire.seat_view import deal_summary

PLAYABLE = sorted(name for name, rs in PRESETS.items() if 3 <= rs.players <= 6)

RENDER = """async (items) => {
  const S = await import("/store.js");
  const { render } = await import("preact");
  const { html } = await import("/ui/html.js");
  const { Summary } = await import("/ui/summary.js");
  const out = [];
  for (const it of items) {
    S.set({ room: it.room, seat: 0, summary: it.summary, hold: null });
    const div = document.createElement("div");
    document.body.appendChild(div);
    render(html`<${Summary} />`, div);
    const q = (sel) => [...div.querySelectorAll(sel)];
    out.push({
      preset: it.preset,
      parts: q("[data-testid=summary-part]").map((li) => ({
        kind: li.dataset.kind, text: li.querySelector("span").textContent,
        pts: li.querySelector(".pts").textContent })),
      total: q("[data-testid=summary-total]").map((e) => e.textContent)[0],
      big: q("[data-testid=summary-points]").map((e) => e.textContent)[0],
      text: div.innerText,
    });
    render(null, div);
    div.remove();
  }
  return out;
}"""


def seeded_summary(preset: str, seed: int) -> dict[str, Any]:
    """The summary the browser gets for the first deal of a seeded match of ``preset``
    played by random legal moves (``{...summary, end, kitty}``, as store.js keeps it)."""
    m = MatchState.new(PRESETS[preset], seed=f"sum-{preset}-{seed}", first_dealer=0)
    rng = random.Random(seed)
    while True:
        actor = m.to_act
        action = Deal() if actor == SYSTEM else m.legal_actions(actor).sample(rng)
        new, events = m.apply(action)
        end = next((e for e in events if isinstance(e, DealEnded)), None)
        if end is not None:
            sm = msgspec.to_builtins(deal_summary(new))
            kitty = next(e for e in events if isinstance(e, KittyRevealed))
            sm["end"] = {
                "attacker_points": end.attacker_points, "stake": end.stake,
                "attackers_take_over": end.attackers_take_over,
                "defender_levels": end.defender_levels, "attacker_levels": end.attacker_levels,
            }
            sm["kitty"] = {
                "cards": cards_str(kitty.cards), "points": kitty.points,
                "multiplier": kitty.multiplier, "attacker_gain": kitty.attacker_gain,
            }
            return sm
        m = new


def _room(preset: str) -> dict[str, Any]:
    rs = PRESETS[preset]
    players = rs.players
    seats = [{"seat": 0, "kind": "human", "name": "Ann"}] + [
        {"seat": i, "kind": "bot", "name": "normal", "bot": "normal"} for i in range(1, players)
    ]
    return {"seats": seats, "status": "waiting", "stakes": None, "ruleset": rs.to_dict()}


def _number(text: str) -> int:
    return int(text.replace("−", "-").replace("+", "").strip())


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_every_presets_summary_adds_up(browser: Browser, site: str, lang: str) -> None:
    items = []
    for preset in PLAYABLE:
        for seed in range(2):
            sm = seeded_summary(preset, seed)
            items.append({"preset": preset, "summary": sm, "room": _room(preset)})
    ctx = browser.new_context(locale=lang)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site + "/")
    page.wait_for_function("() => !!window.__shengji")
    shown = page.evaluate(RENDER, items)
    kinds_seen: set[str] = set()
    for item, out in zip(items, shown, strict=True):
        total = item["summary"]["end"]["attacker_points"]
        assert out["parts"], out
        assert _number(out["big"]) == _number(out["total"]) == total, out
        assert sum(_number(p["pts"]) for p in out["parts"]) == total, out
        for p in out["parts"]:
            kinds_seen.add(p["kind"])
            numbers = [int(x) for x in re.findall(r"\d+", p["text"])]
            if "×" in p["text"]:  # "the dealer side's 205 points × 2": the product is shown
                base, mult = numbers[-2], numbers[-1]
                assert abs(_number(p["pts"])) == base * mult, p
        if item["preset"] == "four-deck":
            last = out["parts"][-1]
            assert last["kind"].startswith("transfer"), out
            assert "kitty" not in last["text"].lower() and "底牌" not in last["text"], last
        if lang == "zh-CN":
            latin = set(re.findall(r"[A-Za-z]{2,}", out["text"]))
            assert latin <= {"Ann", "JOKER"}, (item["preset"], latin)  # a name, a card face
    assert {"tricks", "kitty", "kitty_kept"} <= kinds_seen
    assert kinds_seen & {"transfer_won", "transfer_lost"}
    assert errors == []
    ctx.close()
