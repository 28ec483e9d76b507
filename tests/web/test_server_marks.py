"""Every number and mark the table shows is the server's, and they agree with the cards
shown: the find-a-friend point pile before and after the friend is revealed, and the
two-colour trump marks (the partner suit is trump too). Screenshots at phone, tablet and
desktop sizes.

Both deals are known in advance: the room's seed is fixed (the lobby's ``secrets`` is
patched in this process, where the test server runs), so the engine can tell, before the
browser does, what the table must show."""

from __future__ import annotations

import contextlib
import random
import secrets
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from shengji.core.actions import Action, Deal, Pass
from shengji.core.cards import cards_str, parse_cards, points
from shengji.core.display import table_facts
from shengji.core.events import Event, FriendRevealed, NotFriend
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import public_view
from shengji.server.wire.messages import action_text
from tests.server.helpers import Client, new_player, new_room
from tests.web.table import create_room, enter, play_until, state

DESKTOP = {"width": 1280, "height": 800}
TABLET = {"width": 820, "height": 1180}
PHONE = {"width": 390, "height": 844}
SIZES = {"390x844": PHONE, "820x1180": TABLET, "1280x800": DESKTOP}


def _fix_seed(monkeypatch: pytest.MonkeyPatch, seed: str) -> None:
    """New rooms of the test server take ``seed`` (their codes stay random)."""
    fake = types.SimpleNamespace(token_urlsafe=secrets.token_urlsafe, token_hex=lambda n: seed)
    monkeypatch.setattr("shengji.server.live.lobby.secrets", fake)
    # each match draws a secret seed of its own (server/table/seeds.py): the first is "<seed>/1"
    monkeypatch.setattr("shengji.server.live.rooms.new_match_seed", lambda: f"{seed}/1")


def _shots(page: Page, artifacts: Path, name: str) -> None:
    """Screenshots of the page at the three sizes, back at the desktop size after."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)  # the layout follows the resize
        page.screenshot(path=artifacts / f"{name}-{size}.png")
    page.set_viewport_size(DESKTOP)


def _errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    return errors


# ------------------------------------------------------------------ find a friend


def _first_deal(
    seed: str, r: int
) -> Iterator[tuple[list[tuple[int, Action]], DealState, MatchState, list[Event]]]:
    """Random play ``r`` of the first deal of find-a-friend for the match seed ``seed``,
    nobody declaring: after each non-deal action, the actions so far (one list, growing),
    the deal before the action, the match after it and the action's events."""
    rng = random.Random(r)
    m = MatchState.new(PRESETS["find-friend"], seed)
    script: list[tuple[int, Action]] = []
    while m.deal.deal_no == 0 and not m.is_over:
        d, seat = m.deal, m.to_act
        assert seat is not None
        if d.phase is Phase.DEALING:
            action: Action = Deal()
        elif d.phase is Phase.DECLARING:
            action = Pass(seat)
        else:
            action = m.legal_actions(seat).sample(rng)
        m, events = m.apply(action)
        if isinstance(action, Deal):
            continue
        script.append((seat, action))
        yield script, d, m, list(events)


def _friend_script(seed: str) -> tuple[list[tuple[int, Action]], int]:
    """A whole first deal of find-a-friend for the match seed ``seed``, nobody declaring,
    in which the friend wins a trick with points before it is revealed: the non-deal
    actions and the index of the one that reveals the friend."""
    for r in range(2000):
        script: list[tuple[int, Action]] = []
        reveal = None
        for script, d, _, events in _first_deal(seed, r):
            for e in events:
                if isinstance(e, FriendRevealed):
                    earlier = sum(t.points for t in d.tricks if t.winner == e.seat)
                    reveal = len(script) - 1 if earlier and d.phase is Phase.PLAYING else None
        if reveal is not None:
            return script, reveal
    raise AssertionError("no play of this deal reveals a friend that had won points")


def _shown_pile(page: Page, where: str) -> tuple[int, list[str]]:
    """The number and the point cards the page shows (``where``: the side panel or the
    summary)."""
    if where == "panel":
        number = page.get_by_test_id("pile-points").inner_text()
        cards = page.locator("[data-testid=pile] [data-card]")
    else:
        number = page.get_by_test_id("summary-points").inner_text()
        cards = page.locator("[data-testid=summary-pile] [data-card]")
    shown: list[str] = cards.evaluate_all("(els) => els.map((e) => e.dataset.card)")
    return int(number), shown


def _sum(cards: list[str]) -> int:
    return sum(points(c) for c in parse_cards(" ".join(cards)))


def test_the_find_a_friend_point_pile_before_and_after_the_reveal(
    browser: Browser, site: str, artifacts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 002 找朋友: the friend was on the dealer's side all along, so once it shows
    itself the points it won leave the attackers' pile — and the pile's number is always
    the sum of the cards shown (a summary once said 170 while its cards added up to 180)."""
    _fix_seed(monkeypatch, "5eed0000000000a1")
    script, reveal = _friend_script("5eed0000000000a1/1")
    players = [new_player(site, f"p{i}") for i in range(4)]
    room = new_room(site, players[0]["token"], preset="find-friend", max_deals=1)
    clients = [Client(site, room["code"], p["token"]) for p in players]
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = ctx.new_page()
    errors = _errors(page)
    enter(page, site, "Watcher", path=f"/#/room/{room['code']}")
    expect(page.get_by_test_id("waiting")).to_be_visible()
    for seat, c in enumerate(clients):
        c.send({"t": "sit", "v": 2, "seat": seat})
        c.send({"t": "ready", "v": 2})
    dealt = clients[0].wait(lambda m: m["t"] == "update" and m["phase"] == "declaring")
    run = {"seq": dealt["seq"], "done": 0}
    match = MatchState.new(PRESETS["find-friend"], "5eed0000000000a1/1")
    while match.deal.phase is Phase.DEALING:
        match, _ = match.apply(Deal())

    def act(upto: int) -> MatchState:
        """Each seat sends its scripted actions up to ``upto``; the engine follows."""
        nonlocal match
        for seat, action in script[run["done"] : upto]:
            clients[seat].act(action_text(action))
            got = clients[seat].wait(
                lambda x: x["t"] == "error" or (x["t"] == "update" and x["seq"] > run["seq"])
            )
            assert got["t"] == "update", got
            run["seq"] = got["seq"]
            match, _ = match.apply(action)
        run["done"] = upto
        return match

    m = act(reveal)
    before = table_facts(m.deal, None)
    assert m.deal.friend is None and before.roles.count(None) == 3  # nobody knows yet
    expect(page.get_by_test_id("pile-points")).to_have_text(str(m.deal.attacker_points))
    number, cards = _shown_pile(page, "panel")
    assert cards == cards_str(before.point_cards).split()
    assert number == _sum(cards) + before.penalty_points == m.deal.attacker_points
    expect(page.get_by_test_id("points-value")).to_have_text(str(number))
    expect(page.get_by_test_id("friend-status")).to_contain_text("not revealed yet")
    _shots(page, artifacts, "friend-pile-before")

    tricks_before = m.deal.tricks
    m = act(reveal + 1)  # the friend plays the called card
    after = table_facts(m.deal, None)
    friend = m.deal.friend
    assert friend is not None
    earlier = sum(t.points for t in tricks_before if t.winner == friend)
    assert earlier > 0  # the friend had won points: they leave the attackers' pile
    expect(page.get_by_test_id(f"friend-{friend}")).to_be_visible()
    expect(page.get_by_test_id("pile-points")).to_have_text(str(m.deal.attacker_points))
    number2, cards2 = _shown_pile(page, "panel")
    assert cards2 == cards_str(after.point_cards).split()
    assert number2 == _sum(cards2) + after.penalty_points == m.deal.attacker_points
    _shots(page, artifacts, "friend-pile-after")

    act(len(script))  # the rest of the deal
    summary = page.get_by_test_id("summary")
    expect(summary).to_be_visible()
    final_points, final_cards = _shown_pile(page, "summary")
    res = page.evaluate("() => window.__shengji.summary")
    gain = res["kitty"]["attacker_gain"] if res["kitty"] else 0
    assert final_points == _sum(final_cards) + res["penalty_points"] + gain
    expect(summary).to_contain_text(f"found: p{friend}")
    _shots(page, artifacts, "friend-summary")
    assert errors == []
    for c in clients:
        c.close()
    ctx.close()


def _not_friend_script(seed: str) -> tuple[list[tuple[int, Action]], int, int]:
    """A first deal of find-a-friend for the match seed ``seed``, nobody declaring, in which
    a holder farther from the dealer plays the called card before the friend does (and the
    deal goes on): the non-deal actions, the index of that play and its seat."""
    for r in range(2000):
        for script, _, m, events in _first_deal(seed, r):
            shown = [e.seat for e in events if isinstance(e, NotFriend)]
            if shown and m.deal.deal_no == 0 and m.deal.phase is Phase.PLAYING:
                return script, len(script) - 1, shown[0]
    raise AssertionError("no deal of this seed has a farther holder play the card first")


def test_a_farther_holder_playing_the_card_is_shown_not_to_be_the_friend(
    browser: Browser, site: str, artifacts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 002 "如果庄自己没有该牌，则按出牌顺序，靠近庄家的有该牌的玩家和他是对家" (rules.md
    Decision 90): a seat that plays the called card without being revealed is not the
    friend. The table says so (a notice), marks that seat an attacker and shows, from the
    public plays alone, the seats that may still be the friend — the view's
    ``friend_candidates``, which the engine computes."""
    _fix_seed(monkeypatch, "5eed0000000000b2")
    script, shown, seat = _not_friend_script("5eed0000000000b2/1")
    players = [new_player(site, f"p{i}") for i in range(4)]
    room = new_room(site, players[0]["token"], preset="find-friend", max_deals=1)
    clients = [Client(site, room["code"], p["token"]) for p in players]
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = ctx.new_page()
    errors = _errors(page)
    enter(page, site, "Watcher", path=f"/#/room/{room['code']}")
    expect(page.get_by_test_id("waiting")).to_be_visible()
    for i, c in enumerate(clients):
        c.send({"t": "sit", "v": 2, "seat": i})
        c.send({"t": "ready", "v": 2})
    got = clients[0].wait(lambda x: x["t"] == "update" and x["phase"] == "declaring")
    seq = got["seq"]
    match = MatchState.new(PRESETS["find-friend"], "5eed0000000000b2/1")
    while match.deal.phase is Phase.DEALING:
        match, _ = match.apply(Deal())
    for who, action in script[: shown + 1]:
        clients[who].act(action_text(action))
        got = clients[who].wait(
            lambda x, after=seq: x["t"] == "error" or (x["t"] == "update" and x["seq"] > after)
        )
        assert got["t"] == "update", got
        seq = got["seq"]
        match, _ = match.apply(action)
    deal = match.deal
    assert deal.friend is None and deal.friend_seat not in (None, seat)
    maybe = public_view(deal).friend_candidates
    assert seat not in maybe and deal.friend_seat in maybe

    expect(page.get_by_test_id("notice")).to_contain_text(f"p{seat} played")
    expect(page.get_by_test_id("notice")).to_contain_text("is not the friend")
    expect(page.get_by_test_id(f"not-friend-{seat}")).to_be_visible()
    for i in maybe:  # one seat left: everyone can tell it is the friend
        mark = f"friend-{i}" if len(maybe) == 1 else f"maybe-friend-{i}"
        expect(page.get_by_test_id(mark)).to_be_visible()
    expect(page.get_by_test_id("friend-status")).to_contain_text("not revealed yet")
    if len(maybe) > 1:
        expect(page.get_by_test_id("friend-status")).to_contain_text("may be")
    shown_maybe = page.evaluate("() => window.__shengji.game.friend_candidates")
    assert tuple(shown_maybe) == maybe
    _shots(page, artifacts, "friend-not-friend")
    assert errors == []
    for c in clients:
        c.close()
    ctx.close()


# ------------------------------------------------------------------ two colours


def _seat0_holds_a_two(seed: str) -> bool:
    m = MatchState.new(PRESETS["two-color"], f"{seed}/1")
    d = m.deal
    while d.phase is Phase.DEALING:
        d, _ = d.apply(Deal())
    return any(cards_str([k])[1:] == "2" for k in d.hand(0))


def test_two_colour_marks_and_sorts_the_partner_suit_as_trump(
    browser: Browser, site: str, artifacts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 002, 两色: the two red suits are one suit and the two black suits another, so
    with ♥ trump every ♦ is trump too (and with ♠, every ♣): marked and sorted with the
    trumps in the hand, and marked on the felt."""
    seed = next(s for s in (f"{i:016x}" for i in range(100)) if _seat0_holds_a_two(s))
    _fix_seed(monkeypatch, seed)
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = ctx.new_page()
    errors = _errors(page)
    enter(page, site, "Ann")
    page.get_by_test_id("preset").select_option("two-color")
    create_room(page, max_deals=1, fill="heuristic")
    page.get_by_test_id("ready").click()
    # declare the first time the server offers it (while dealing, or in the window); a
    # bot may declare first and take the offer away, then the window comes round
    while state(page).get("phase") in (None, "dealing", "declaring"):
        st = state(page)
        mine = st.get("phase") == "declaring" and st.get("to") == 0
        for button in ("declare", "pass") if mine else ("declare",):
            with contextlib.suppress(PlaywrightError):
                page.get_by_test_id(button).first.click(timeout=300)
                break
        page.wait_for_timeout(30)
    play_until([page], lambda: state(page).get("phase") == "playing" and state(page)["to"] == 0)
    trump = page.evaluate("() => window.__shengji.game.trump")
    assert trump in ("S", "H", "D", "C")  # someone declared a level card: a suit
    colour = "HD" if trump in "HD" else "SC"
    cards = page.locator("[data-testid=hand] .hcard")
    marks = cards.evaluate_all(
        "(els) => els.map((e) => [e.dataset.card, e.classList.contains('trump')])"
    )
    assert marks
    for card, marked in marks:
        should = card in ("BJ", "LJ") or card[1:] == "2" or card[0] in colour
        assert marked == should, (card, marked, trump)
    flags = [marked for _, marked in marks]
    assert flags == sorted(flags, reverse=True)  # trumps (both colours' cards) come first
    partner = {"H": "D", "D": "H", "S": "C", "C": "S"}[trump]
    assert any(card[0] == partner and marked for card, marked in marks) or not any(
        card[0] == partner for card, _ in marks
    )
    # the felt marks trick cards the same way
    play_until([page], lambda: state(page).get("trick", 0) >= 2 or state(page).get("summary"))
    felt = page.locator("[data-testid=trick] .tcard").evaluate_all(
        "(els) => els.map((e) => [e.dataset.card, e.classList.contains('trump')])"
    )
    for card, marked in felt:
        assert marked == (card in ("BJ", "LJ") or card[1:] == "2" or card[0] in colour), card
    _shots(page, artifacts, "two-colour")
    assert errors == []
    ctx.close()
