"""The page reads the server's coalesced frames (issue 15, docs/protocol.md "Frames"): it
says ``batch: true``, handles a frame holding several messages in order, and when its
socket drops mid-deal it resumes from its last ``seq`` (the missed updates come without
``game``) and asks for one snapshot, then plays on from the same seat."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.web.table import create_room, enter, play_until, state

SOCKETS = """
(() => {
  // every socket the page opens, what it sent and every frame it got
  window.__sockets = [];
  window.__sent = [];
  window.__frames = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      window.__sockets.push(this);
      this.addEventListener("message", (ev) => window.__frames.push(JSON.parse(ev.data)));
    }
    send(data) {
      window.__sent.push(JSON.parse(data));
      return super.send(data);
    }
  };
})();
"""


def test_batch_frames_and_a_dropped_socket_resumed(browser: Browser, site: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    ctx.add_init_script(SOCKETS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    enter(page, site, "Dora")
    create_room(page, max_deals=1, fill="heuristic")
    expect(page.get_by_test_id("seat-3")).to_contain_text("Heuristic (seat")
    page.get_by_test_id("ready").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    hello = page.evaluate("() => window.__sent.find((m) => m.t === 'hello')")
    assert hello["batch"] is True
    # the welcome and the snapshot came in one frame, as an array, in that order
    first = page.evaluate("() => window.__frames[0]")
    assert isinstance(first, list) and [m["t"] for m in first][:2] == ["welcome", "snapshot"]
    play_until([page], lambda: state(page).get("done", 0) >= 2)
    before = state(page)
    # the connection drops (not a reload: the page keeps its last seq and resumes)
    page.evaluate("() => { window.__sent.length = 0; window.__sockets.at(-1).close(); }")
    page.wait_for_function("() => window.__sockets.length >= 2")
    page.wait_for_function(
        "() => window.__sent.some((m) => m.t === 'hello' && m.last_seq != null)"
    )
    page.wait_for_function("() => window.__shengji.conn === 'open'")
    expect(page.get_by_test_id("hand")).to_be_visible()
    after = state(page)
    assert after["seat"] == 0 and after["deal"] == before["deal"]
    assert after["done"] >= before["done"]
    syncs = page.evaluate("() => window.__sent.filter((m) => m.t === 'sync').length")
    assert syncs <= 1  # at most one snapshot asked for, however many updates were missed
    play_until([page], lambda: state(page).get("done", 0) >= after["done"] + 2)
    assert not errors, errors
    ctx.close()
