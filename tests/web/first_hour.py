"""A new player's first hour, driven like a player would: open the site, type a name, press
"Play now", and play a whole deal without ever touching the declare window (the turn clock of
a public room runs out there, which is a pass), read the summary, go on to the next deal.
Throughout, the player's seat is never put on 托管. Screenshots of each screen go to
``shots`` when given (tests/artifacts, or docs/screenshots/first-hour)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.server.helpers import fast_settings
from tests.web.table import state, take_turn

SIZES = {"phone": (390, 844), "tablet": (820, 1180), "desktop": (1366, 900)}

CLOCK_SCALE = 0.2
"""The public room's 30 s clock runs 6 s (the bury's 60 s: 12 s)."""


def first_hour_settings(data_dir: str) -> Any:
    """A server with a public room's real clocks (30 s a turn, 60 s to bury, the summary
    waits 30 s), fast-forwarded by ``clock_scale``; bots answer at once."""
    return fast_settings(
        data_dir,
        turn_s=30.0,
        long_turn_s=60.0,
        next_deal_s=30.0,
        clock_scale=CLOCK_SCALE,
        bot_delay_s=0.0,
    )


AUTO = """() => {
  const s = window.__shengji;
  if (!s || !s.room || s.seat == null) return false;
  const seat = s.room.seats[s.seat];
  return !!(seat && seat.auto) || !!document.querySelector("[data-testid=take-back]");
}"""


SENT = """(() => {
  window.__sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { window.__sent.push(JSON.parse(data)); } catch (e) { /* binary */ }
    return send.call(this, data);
  };
})();"""
"""Every message the page sends, kept in ``window.__sent``."""


class FirstHour:
    """One player's run through the first hour; ``shot(name)`` saves a screenshot."""

    def __init__(self, browser: Browser, base: str, size: str, lang: str, shots: Path | None):
        w, h = SIZES[size]
        self.ctx = browser.new_context(viewport={"width": w, "height": h}, locale=lang)
        self.page: Page = self.ctx.new_page()
        self.base = base
        self.tag = f"{'zh' if lang.startswith('zh') else 'en'}-{size}"
        self.shots = shots
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.add_init_script(SENT)
        self.passes_waited = 0
        self.hinted = False

    def shot(self, name: str, full: bool = False) -> None:
        if self.shots is not None:
            self.shots.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=self.shots / f"{name}-{self.tag}.png", full_page=full)

    def never_on_auto(self) -> None:
        assert not self.page.evaluate(AUTO), f"托管 shown: {state(self.page)}"

    def landing_to_table(self, name: str = "Mei", level: str = "normal") -> None:
        page = self.page
        page.goto(self.base + "/")
        page.get_by_test_id("name").fill(name)
        page.get_by_test_id("playnow-level").select_option(level)
        self.shot("1-landing")
        page.get_by_test_id("play-now").click()
        page.wait_for_function("() => window.__shengji && window.__shengji.seat === 0")
        expect(page.get_by_test_id("hand")).to_be_visible(timeout=20000)  # dealt at once

    def play_deal(self, timeout: float = 240.0) -> None:
        """Play until the summary shows, never touching the declare window."""
        page = self.page
        deadline = time.monotonic() + timeout
        shot_table = False
        while True:
            assert time.monotonic() < deadline, state(page)
            self.never_on_auto()
            st = state(page)
            if st.get("summary"):
                return
            mine = st.get("to") == st.get("seat") and st.get("seat") is not None
            if st.get("phase") in ("declaring", "rebury") and mine:
                if not self.hinted and st.get("deal") == 0:
                    expect(page.get_by_test_id("declare-hint")).to_be_visible()
                    self.shot("2-declare-window-hint")
                    self.hinted = True
                self.passes_waited += 1
                # the clock runs out: a pass, and the window moves on
                page.wait_for_function(
                    "() => { const s = window.__shengji, g = s.game; return !g"
                    " || g.to_act !== s.seat || !['declaring', 'rebury'].includes(g.phase); }",
                    timeout=30000,
                )
                continue
            if st.get("phase") == "playing" and st.get("trick") and not shot_table:
                self.shot("3-table-mid-trick")
                shot_table = True
            # only turns to bury or play: take_turn would press Pass in a window
            if st.get("phase") not in ("burying", "playing") or not take_turn(page, 20.0):
                time.sleep(0.05)

    def window_untouched(self) -> None:
        """The player sent no declaration and no pass: the window was left alone."""
        acts = self.page.evaluate(  # each action's kind ("play", "bury", "pass" ...)
            "() => window.__sent.filter((m) => m.t === 'act').map((m) =>"
            " typeof m.action === 'string' ? m.action.split(' ')[0] : m.action.type)"
        )
        assert "play" in acts, f"the player played no card: {acts}"
        touched = [a for a in acts if a in ("pass", "declare")]
        assert touched == [], touched

    def summary(self) -> None:
        """The summary's lines add up to the total it shows; then the next deal."""
        page = self.page
        expect(page.get_by_test_id("summary")).to_be_visible()
        parts = page.locator("[data-testid=summary-part] .pts").all_text_contents()
        total = page.get_by_test_id("summary-total").text_content() or ""

        def num(x: str) -> int:
            return int(re.sub(r"[^\d-]", "", x.replace("−", "-")) or 0)

        assert parts and sum(num(p) for p in parts) == num(total)
        assert num(page.get_by_test_id("summary-points").text_content() or "") == num(total)
        self.shot("4-summary", full=True)
        page.get_by_test_id("next-deal").click()
        page.wait_for_function(  # the next deal is dealt: my hand fills again
            "() => { const s = window.__shengji, g = s.game;"
            " return !s.summary && g && g.deal_no >= 1 && g.hand.length > 0; }",
            timeout=30000,
        )
        expect(page.get_by_test_id("hand")).to_be_visible()
        self.never_on_auto()
        self.shot("5-next-deal")

    def close(self) -> None:
        self.ctx.close()
