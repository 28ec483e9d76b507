"""Answer rules questions, one JSON object per line (the protocol is in ``docs/protocol.md``).

>>> answer({"op": "levels", "preset": "classic", "points": 120})
{'defender_levels': 0, 'attacker_levels': 1, 'attackers_take_over': True}
>>> answer({"id": 7, "op": "classify", "level": "10", "trump": "H", "cards": "SK SK SQ SQ"})["kind"]
'tractor'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from shengji.core.auction import target_level_change
from shengji.core.cards import (
    card_str,
    cards_str,
    check_possible,
    contains,
    counts_of,
    parse_card,
    parse_cards,
    parse_level,
    parse_trump,
    trump_str,
)
from shengji.core.declaring import settle
from shengji.core.errors import ShengjiError
from shengji.core.follow import follow_error
from shengji.core.friend import FriendCall, call_allowed, friend_after_play, nearest_holder
from shengji.core.friend_levels import side_shares
from shengji.core.order import TrumpContext, context_for
from shengji.core.ruleset import Ruleset, preset
from shengji.core.scoring import LevelChange, kitty_multiplier, level_change
from shengji.core.throws import check_throw
from shengji.core.tricks import trick_points, trick_winner
from shengji.core.units import classify, suit_of_play
from shengji.judge import stakes as stakes_op


class JudgeError(ValueError):
    """A request the judge cannot answer; the message goes back as ``error``."""


COMMON = {"id", "op", "preset", "options", "level", "trump"}
FIELDS: dict[str, set[str]] = {
    "classify": {"cards"},
    "follow": {"lead", "hand", "play"},
    "trick": {"plays"},
    "throw": {"lead", "others"},
    "kitty": {"lead", "play"},
    "levels": {"points", "alone", "last", "target"},
    "stakes": stakes_op.FIELDS,
    "declare": {"declarations", "dealer", "kitty"},
    "friend": {"dealer", "call", "copy", "hands", "kitty", "plays"},
}


class _Request:
    def __init__(self, req: dict[str, Any]) -> None:
        self.req = req
        name = req.get("preset", "classic")
        options = req.get("options", {})
        if options is None:
            options = {}
        if not isinstance(name, str):
            raise JudgeError("preset must be a string")
        if not isinstance(options, dict):
            raise JudgeError("options must be an object")
        self.ruleset: Ruleset = preset(name, options)
        self.level = parse_level(self._str("level", "2"))
        self.trump = parse_trump(self._str("trump", "NT"))

    def _str(self, key: str, default: str) -> str:
        v = self.req.get(key, default)
        if isinstance(v, int) and not isinstance(v, bool) and key == "level":
            v = str(v)
        if not isinstance(v, str):
            raise JudgeError(f"{key} must be a string")
        return v

    @property
    def ctx(self) -> TrumpContext:
        return context_for(self.ruleset, self.level, self.trump)

    def cards(self, key: str) -> list[int]:
        if key not in self.req:
            raise JudgeError(f"missing field {key!r}")
        v = self.req[key]
        if not isinstance(v, str):
            raise JudgeError(f"{key} must be a string of cards")
        return parse_cards(v)

    def card_list(self, key: str) -> list[list[int]]:
        v = self.req.get(key)
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise JudgeError(f"{key} must be a list of card strings")
        return [parse_cards(x) for x in v]

    def possible(self, cards: Iterable[int], what: str) -> None:
        check_possible(cards, self.ruleset.decks, what)


def _classify(r: _Request) -> dict[str, Any]:
    cards = r.cards("cards")
    r.possible(cards, "cards")
    c = classify(cards, r.ctx)
    return {
        "kind": c.kind,
        "width": c.width,
        "length": c.length,
        "units": [str(u) for u in c.units],
    }


def _one_suit(cards: list[int], r: _Request, what: str) -> None:
    if not cards:
        raise JudgeError(f"{what} is empty")
    if suit_of_play(cards, r.ctx) is None:
        raise JudgeError(f"{what} mixes suits: a lead is cards of one suit")


def _follow(r: _Request) -> dict[str, Any]:
    lead, hand, play = r.cards("lead"), r.cards("hand"), r.cards("play")
    _one_suit(lead, r, "lead")
    r.possible(lead + hand, "lead and hand")
    if not contains(counts_of(hand), play):
        raise JudgeError(f"play {cards_str(play)!r} is not in the hand")
    reason = follow_error(lead, counts_of(hand), play, r.ctx, r.ruleset)
    return {"legal": reason is None, "reason": reason}


def _trick(r: _Request) -> dict[str, Any]:
    plays = r.card_list("plays")
    if not plays or any(not p for p in plays):
        raise JudgeError("plays must be non-empty card strings")
    if any(len(p) != len(plays[0]) for p in plays):
        raise JudgeError("every play of a trick has as many cards as the lead")
    _one_suit(plays[0], r, "the lead")
    r.possible([c for p in plays for c in p], "plays")
    return {"winner": trick_winner(plays, r.ctx, r.ruleset), "points": trick_points(plays)}


def _throw(r: _Request) -> dict[str, Any]:
    lead, others = r.cards("lead"), r.card_list("others")
    _one_suit(lead, r, "lead")
    r.possible(lead + [c for o in others for c in o], "lead and other hands")
    res = check_throw(lead, [counts_of(o) for o in others], r.ctx, r.ruleset)
    return {
        "valid": res.valid,
        "play": cards_str(res.play),
        "failed": [str(u) for u in res.failed],
        "reason": res.reason,
    }


def _kitty(r: _Request) -> dict[str, Any]:
    lead, play = r.cards("lead"), r.cards("play")
    _one_suit(lead, r, "lead")
    r.possible(lead, "lead")
    r.possible(play, "play")
    if len(play) != len(lead):
        raise JudgeError("the winning play has as many cards as the lead")
    return {"multiplier": kitty_multiplier(lead, play, r.ctx, r.ruleset)}


def _levels(r: _Request) -> dict[str, Any]:
    points = r.req.get("points")
    if not isinstance(points, int) or isinstance(points, bool):
        raise JudgeError("points must be an integer")
    bidding = r.ruleset.partnership == "bidding"
    ch = _target_change(r, points) if bidding or "target" in r.req else level_change(
        points, r.ruleset
    )
    out: dict[str, Any] = {
        "defender_levels": ch.defender_levels,
        "attacker_levels": ch.attacker_levels,
        "attackers_take_over": ch.attackers_take_over,
    }
    if r.ruleset.partnership == "find-friend":
        out.update(_friend_shares(r, ch.defender_levels, ch.attackers_take_over))
    elif "alone" in r.req or "last" in r.req:
        raise JudgeError("alone and last apply to find-a-friend presets only")
    return out


def _target_change(r: _Request, points: int) -> LevelChange:
    """竞标: the level change against the auction's target (the dealer, or each attacker)."""
    target = r.req.get("target")
    if r.ruleset.partnership != "bidding":
        raise JudgeError("target applies to bidding presets (three-player) only")
    if not isinstance(target, int) or isinstance(target, bool) or target < 1:
        raise JudgeError("target (the winning bid) must be a positive integer")
    return target_level_change(points, target)


def _friend_shares(r: _Request, base: int, takeover: bool) -> dict[str, Any]:
    """找朋友: the dealer's and the friend's levels when the dealer side wins (RULES.md §8)."""
    alone = r.req.get("alone", False)
    last = r.req.get("last", "dealer")
    if not isinstance(alone, bool):
        raise JudgeError("alone must be true or false")
    if last not in ("dealer", "friend", "attackers"):
        raise JudgeError("last must be 'dealer', 'friend' or 'attackers' (who won the last trick)")
    if alone and last == "friend":
        raise JudgeError("a dealer playing alone has no friend to win the last trick")
    rs = r.ruleset
    attackers = rs.players - (1 if alone else 2)
    if takeover:
        return {"dealer_levels": 0, "friend_levels": 0}
    d, f = side_shares(rs, base, attackers, None if alone else last == "friend", (0, 0))
    return {"dealer_levels": d, "friend_levels": f}


def _stakes(r: _Request) -> dict[str, Any]:
    """A room's stakes and a deal's outcome → each seat's settlement (judge/stakes.py)."""
    try:
        return stakes_op.stakes_answer(r.req, r.ruleset)
    except stakes_op.StakesRequestError as e:
        raise JudgeError(str(e)) from e
def _seat(r: _Request, v: Any, what: str) -> int:
    players = r.ruleset.players
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < players:
        raise JudgeError(f"{what} must be a seat 0..{players - 1}, not {v!r}")
    return v


def _declare(r: _Request) -> dict[str, Any]:
    """Declarations during the deal (亮主 / 反主, rules.md §8, Decisions 31–33, 100–102): which
    are accepted and why not, the trump, who deals (a first deal: by the declarations)."""
    rs = r.ruleset
    if rs.partnership == "bidding":
        raise JudgeError("declare: in bidding presets (竞标) the auction's winner names trump")
    if "trump" in r.req:
        raise JudgeError("declare answers the trump: do not send one")
    shown = r.req.get("declarations")
    if not isinstance(shown, list):
        raise JudgeError("declarations must be a list of {\"seat\": N, \"cards\": \"...\"}")
    pairs: list[tuple[int, list[int]]] = []
    for i, item in enumerate(shown):
        where = f"declarations[{i}]"
        if not isinstance(item, dict) or set(item) != {"seat", "cards"}:
            raise JudgeError(f"{where} must be an object with exactly seat and cards")
        if not isinstance(item["cards"], str):
            raise JudgeError(f"{where}.cards must be a string of cards")
        pairs.append((_seat(r, item["seat"], f"{where}.seat"), parse_cards(item["cards"])))
    dealer = r.req.get("dealer")
    if dealer is not None:
        dealer = _seat(r, dealer, "dealer")
    kitty = r.cards("kitty") if "kitty" in r.req else []
    if "kitty" in r.req and len(kitty) != rs.kitty_size:
        raise JudgeError(f"kitty must hold {rs.kitty_size} cards, not {len(kitty)}")
    # Cards a seat shows again (自保 H2 → H2 H2) are the same cards: a seat holds at least
    # the most copies it ever showed, and no hands plus the kitty hold more than the decks.
    held: dict[tuple[int, int], int] = {}
    for seat, cards in pairs:
        counts = counts_of(cards)
        for k, n in enumerate(counts):
            if n > held.get((seat, k), 0):
                held[(seat, k)] = n
    r.possible([k for (_, k), n in held.items() for _ in range(n)] + kitty, "declarations")
    out = settle(pairs, r.level, rs, dealer, 0, kitty)
    if out.standing is None and out.turned is None and rs.no_declaration == "kitty-card":
        raise JudgeError(
            f"nobody declared: kitty card {rs.kitty_card_index + 1} decides trump; send kitty"
        )
    rulings = []
    for ruling in out.rulings:
        one: dict[str, Any] = {"seat": ruling.seat, "cards": cards_str(ruling.cards)}
        one["accepted"] = ruling.accepted
        one["kind" if ruling.accepted else "reason"] = ruling.kind or ruling.reason
        rulings.append(one)
    return {
        "trump": trump_str(out.trump),
        "declarer": None if out.standing is None else out.standing.seat,
        "dealer": out.dealer,
        "leader": out.dealer,
        "first_deal": dealer is None,
        "turned": None if out.turned is None else cards_str([out.turned]),
        "declarations": rulings,
    }


def _int_field(r: _Request, key: str, lo: int, hi: int, what: str, default: int | None = None
               ) -> int:
    v = r.req.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise JudgeError(f"{key} must be {what}: an integer {lo}..{hi}")
    return v


def _friend(r: _Request) -> dict[str, Any]:
    """找朋友 (RULES.md §8, docs/rules.md Decisions 88–92): the friend a call makes from the
    hands at the call, and which of the plays reveals it (or shows a seat is not it)."""
    rs = r.ruleset
    if rs.partnership != "find-friend":
        raise JudgeError(
            f"preset {rs.name!r} has fixed partners or bidding: friend needs a find-a-friend "
            "preset (find-friend, five-player) or options {\"partnership\": \"find-friend\"}"
        )
    n = rs.players
    dealer = _int_field(r, "dealer", 0, n - 1, "the dealer's seat")
    call = r.req.get("call")
    if not isinstance(call, str):
        raise JudgeError("call must be one card, e.g. \"SA\"")
    card = parse_card(call)
    nth = _int_field(r, "copy", 1, rs.decks, f"which copy counts ({rs.decks} deck(s))", 1)
    nearest = rs.friend_rule == "nearest-holder"
    if nearest and nth != 1:
        raise JudgeError(
            f"{rs.name} calls a card, not a copy (friend_rule nearest-holder: the holder "
            "nearest the dealer is the friend); copy must be 1"
        )
    hands = r.card_list("hands")
    if len(hands) != n:
        raise JudgeError(f"hands must list {n} hands, one per seat ({len(hands)} given)")
    for seat, h in enumerate(hands):
        if len(h) != rs.hand_size:
            raise JudgeError(
                f"hand {seat} has {len(h)} cards; at the call every hand holds {rs.hand_size}"
            )
    kitty = r.cards("kitty") if "kitty" in r.req else []
    if "kitty" in r.req and len(kitty) != rs.kitty_size:
        raise JudgeError(f"kitty has {len(kitty)} cards; {rs.name} buries {rs.kitty_size}")
    r.possible([c for h in hands for c in h] + kitty, "hands and kitty")
    counts = [counts_of(h) for h in hands]
    if not call_allowed(rs.friend_call, rs.decks, counts[dealer], card):
        raise JudgeError(
            f"friend_call other-copy: the dealer must call a card it holds a copy of, not "
            f"{card_str(card)} (it holds {counts[dealer][card]} of {rs.decks})"
        )
    friend = nearest_holder(card, dealer, counts) if nearest else None
    held_by_others = sum(counts[p][card] for p in range(n) if p != dealer)
    alone = friend is None if nearest else held_by_others < nth
    revealed, not_friend = None, []
    seen = 0
    for i, (seat, cards) in enumerate(_plays(r, n)):
        if not contains(counts[seat], cards):
            raise JudgeError(f"play {i}: seat {seat} does not hold {cards_str(cards)}")
        for c in cards:
            counts[seat][c] -= 1
        if revealed is not None or seat == dealer or card not in cards:
            continue
        if nearest:
            if seat == friend:
                revealed = i
            else:
                not_friend.append(i)
        else:
            seen, hit = friend_after_play(FriendCall(card, nth), dealer, seen, seat, cards)
            if hit:
                revealed, friend = i, seat
    return {
        "call": card_str(card),
        "copy": nth,
        "friend": friend,
        "alone": alone,
        "revealed_at": revealed,
        "not_friend": not_friend,
    }


def _plays(r: _Request, players: int) -> list[tuple[int, list[int]]]:
    """The optional ``plays``: ``[[seat, "cards"], ...]`` in the order they were made."""
    raw = r.req.get("plays", [])
    if not isinstance(raw, list):
        raise JudgeError("plays must be a list of [seat, \"cards\"] pairs")
    out: list[tuple[int, list[int]]] = []
    for i, p in enumerate(raw):
        if (
            not isinstance(p, list) or len(p) != 2 or not isinstance(p[0], int)
            or isinstance(p[0], bool) or not isinstance(p[1], str)
        ):
            raise JudgeError(f"play {i} must be a [seat, \"cards\"] pair")
        if not 0 <= p[0] < players:
            raise JudgeError(f"play {i}: no seat {p[0]} at {players} seats")
        cards = parse_cards(p[1])
        if not cards:
            raise JudgeError(f"play {i} has no cards")
        out.append((p[0], cards))
    return out


OPS: dict[str, Callable[[_Request], dict[str, Any]]] = {
    "classify": _classify,
    "follow": _follow,
    "trick": _trick,
    "throw": _throw,
    "kitty": _kitty,
    "levels": _levels,
    "stakes": _stakes,
    "declare": _declare,
    "friend": _friend,
}


def answer(req: Any) -> dict[str, Any]:
    """The answer object for one request (an ``error`` key when it cannot be answered)."""
    out: dict[str, Any] = {}
    if isinstance(req, dict) and "id" in req:
        out["id"] = req["id"]
    try:
        if not isinstance(req, dict):
            raise JudgeError("a request is a JSON object")
        op = req.get("op")
        if op not in OPS:
            raise JudgeError(f"unknown op {op!r}; known: {sorted(OPS)}")
        unknown = set(req) - COMMON - FIELDS[op]
        if unknown:
            raise JudgeError(f"unknown field(s) for {op}: {sorted(unknown)}")
        out.update(OPS[op](_Request(req)))
    except (JudgeError, ShengjiError) as e:
        out["error"] = str(e)
    return out


def answer_line(line: str) -> str:
    """One request line in, one answer line out."""
    try:
        req = json.loads(line)
    except json.JSONDecodeError as e:
        return json.dumps({"error": f"not JSON: {e.msg} at column {e.colno}"}, ensure_ascii=False)
    except (RecursionError, ValueError) as e:
        return json.dumps({"error": f"not usable JSON: {e}"}, ensure_ascii=False)
    return json.dumps(answer(req), ensure_ascii=False)


def run(stdin: TextIO, stdout: TextIO) -> int:
    """Answer every non-blank line of ``stdin`` on ``stdout``, flushing after each."""
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(answer_line(line) + "\n")
        stdout.flush()
    return 0
