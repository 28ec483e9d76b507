"""``shengji replay FILE``: print a recorded game deal by deal and trick by trick.

A record is full information (ruleset + seed + actions), so the replay shows every
declaration, the buried kitty and each trick in card notation, e.g.
``Trick 3: #1 SA SA | #2 S3 S4 | #3 SK SK | #4 H2 H2 -> #4 wins 20 pts`` (seats are
``#1``.. so that no label reads as a card). It reads the updates the table would have
sent (``server/wire/projection.py``), every audience's events together. The record's
stored result is checked against the replay: a disagreement is a warning and exit code 1.

    shengji replay match-1.json --lang zh --deal 2

>>> import io
>>> from shengji.core.record import GameRecord
>>> from shengji.core.ruleset import PRESETS
>>> rec = GameRecord(PRESETS["classic"].to_dict(), seed=5, first_dealer=0, actions=["deal"])
>>> out = io.StringIO()
>>> final = print_replay(rec, out)
>>> final.deal.n_dealt, out.getvalue().splitlines()[0].startswith("Record: preset classic")
(1, True)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from shengji.cli.i18n import plural, tr
from shengji.core.cards import NO_TRUMP, parse_trump
from shengji.core.errors import ShengjiError
from shengji.core.events import Event
from shengji.core.match import MatchState, team_of
from shengji.core.record import GameRecord, record_result
from shengji.core.seat_names import record_name
from shengji.server.wire import messages as wire
from shengji.server.wire.projection import Projected, RecordError, project, replay_updates
from shengji.server.wire.seat_view import game_view


class ReplayError(Exception):
    """An action of the record could not be applied (the message is ready to print)."""


@dataclass
class _Deal:
    """What the printer has gathered about the current deal."""

    no: int
    declarations: list[str] = field(default_factory=list)
    own: dict[int, str] = field(default_factory=dict)
    """Each seat's last declared trump (to tell 自保 and 自反 from a first declaration)."""
    picked: str = ""
    trick: list[str] = field(default_factory=list)
    defenders: list[int] = field(default_factory=list)
    shown: str = ""
    """竞标: the kitty cards shown before the auction."""
    bids: list[str] | None = None
    """竞标: the auction so far (None outside the auction)."""
    auction: str = ""
    """竞标: the auction's line, printed with the deal's header."""
    first: bool = False
    """A first deal: the dealer comes from the declarations."""
    first_declarer: int | None = None
    rights: list[int] = field(default_factory=list)
    """亮牌权: the seats that contested the deal by declaring."""


class Narrator:
    """Turns the table's updates (``server/wire/projection.py``: the wire events and the view
    after them, as the table sends them) into lines; prints only the lines of deal ``only``
    (0-based) if given."""

    def __init__(
        self, out: TextIO, lang: str, start: MatchState, only: int | None,
        viewer: int | None = None,
    ) -> None:
        self.out = out
        self.viewer = viewer
        """The seat whose player reads along (``shengji play``): it is told the events and
        view its seat is sent (who the secret friend is, among others, stays secret); None:
        a replay, every event of every audience."""
        self.lang = lang
        self.players = start.ruleset.players
        self.per_seat = start.ruleset.partnership != "fixed"
        """Partners are not fixed: levels and wins are per seat."""
        self.two_color = start.ruleset.two_color
        self.nearest_holder = start.ruleset.friend_rule == "nearest-holder"
        self.only = only
        self.deal = _Deal(start.deal.deal_no, first=start.deal.dealer is None)

    def t(self, key: str, **fields: Any) -> str:
        return tr(self.lang, key, **fields)

    def seat(self, seat: int) -> str:
        """A seat's label, 1-based: ``#1`` (``1号``), never a card's look."""
        return self.t("seat", n=seat + 1)

    def team(self, team: int) -> str:
        seats = "+".join(self.seat(s) for s in range(self.players) if team_of(s) == team)
        return self.t("team", team=team + 1, seats=seats)

    def winners(self, state: MatchState) -> str:
        """The match's winners: a team, or the winning seats when partners are not fixed."""
        if not self.per_seat and state.winner is not None:
            return self.team(state.winner)
        return self.t("winners", seats="+".join(self.seat(s) for s in state.winners))

    def emit(self, line: str) -> None:
        if self.only is None or self.only == self.deal.no:
            self.out.write(line + "\n")

    def trump(self, text: str) -> str:
        """A trump as words: ``S`` → "trump S" (two colours: "trump S/C")."""
        trump = parse_trump(text)
        if trump == NO_TRUMP:
            return self.t("trump.none")
        suit = self.t(f"suit.{trump}")
        if self.two_color:  # 两色: ♠ stands for the black suits, ♥ for the red ones
            suit += "/" + self.t(f"suit.{3 - trump}")
        return self.t("trump.suit", suit=suit)

    def show(self, events: list[Event], after: MatchState) -> None:
        """Narrate core ``events`` that took the match to ``after``, as the table projects
        them."""
        self.update(project(events, after))

    def update(self, up: Projected) -> None:
        """Narrate one update: the events this reader is sent, with its view after them."""
        if self.viewer is not None and not up.sent_to(self.viewer):
            return
        events = [e for _, e in up.events] if self.viewer is None else up.events_for(self.viewer)
        view = game_view(up.match, self.viewer)
        for e in events:
            self.event(e, view, up)

    def event(self, e: wire.WireEvent, view: wire.GameView, up: Projected) -> None:
        d = self.deal
        if isinstance(e, wire.DealResetEvent):
            self.emit(self.t("redeal", no=e.deal_no + 1))
        elif isinstance(e, wire.DealStartedEvent):
            self.deal = _Deal(e.deal_no, first=e.dealer is None, rights=list(e.rights))
        elif isinstance(e, wire.DeclaredEvent):
            self._declared(e, view)
        elif isinstance(e, wire.TrumpFixedEvent):
            self._trump_fixed(e, view)
        elif isinstance(e, wire.KittyTakenEvent):
            d.picked = e.cards
        elif isinstance(e, wire.KittyBuriedEvent) and e.cards:
            self.emit(
                self.t("kitty", seat=self.seat(e.seat), picked=d.picked, buried=e.cards)
            )
        elif isinstance(e, wire.ThrowFailedEvent):
            penalty = self.t("penalty", penalty=e.penalty) if e.penalty else ""
            self.emit(
                self.t("throw-failed", seat=self.seat(e.seat), attempted=e.attempted,
                       forced=e.forced, penalty=penalty)
            )
        elif isinstance(e, wire.KittyShownEvent):
            d.shown, d.bids = e.cards, []
        elif isinstance(e, wire.BidMadeEvent) and d.bids is not None:
            d.bids.append(self.t("bid", seat=self.seat(e.seat), target=e.target))
        elif isinstance(e, wire.PassedEvent) and d.bids is not None:
            d.bids.append(self.t("bid-pass", seat=self.seat(e.seat)))
        elif isinstance(e, wire.AuctionWonEvent):
            bids = self.t("comma").join(d.bids or [])
            d.auction = self.t("auction", shown=d.shown, bids=bids,
                               dealer=self.seat(e.dealer), target=e.target)
            d.bids = None
        elif isinstance(e, wire.FriendCalledEvent):
            self._friend_called(e, view, up)
        elif isinstance(e, wire.NotFriendEvent):
            self.emit(self.t("not-friend", seat=self.seat(e.seat), card=e.card))
        elif isinstance(e, wire.FriendRevealedEvent):
            d.defenders = list(view.defenders)
            self.emit(self.t("friend-revealed", seat=self.seat(e.seat), card=e.card))
        elif isinstance(e, wire.PlayedEvent):
            d.trick.append(f"{self.seat(e.seat)} {e.cards}")
        elif isinstance(e, wire.TrickWonEvent):
            line = self.t("trick", no=e.trick_no, plays=" | ".join(d.trick),
                          winner=self.seat(e.winner), points=e.points)
            if e.points and e.winner not in d.defenders:
                line += self.t("running", total=e.attacker_points)
            self.emit(line)
            d.trick = []
        elif isinstance(e, wire.KittyRevealedEvent):
            self._kitty_revealed(e)
        elif isinstance(e, wire.DealEndedEvent):
            self._deal_ended(e, view)

    def _friend_called(self, e: wire.FriendCalledEvent, view: wire.GameView, up: Projected) -> None:
        """Who holds the called card is the secret of the deal: a player reads what its seat
        can tell (it holds it nearest the dealer, or every copy is in sight), a replay all
        (the one fact it reads from the match itself, beyond every seat's view)."""
        seat = self.seat(e.seat)
        if not self.nearest_holder:
            self.emit(self.t("friend-called", seat=seat, nth=e.nth, card=e.card))
            return
        if self.viewer is not None:
            known = view.friend_candidates or []
            if known == [self.viewer]:
                self.emit(self.t("friend-called-you", seat=seat, card=e.card))
            else:
                self.emit(self.t("friend-called-secret", seat=seat, card=e.card))
            return
        holder = up.match.deal.friend_seat  # what no seat's view tells yet: a replay's own
        if holder is None:
            self.emit(self.t("friend-called-alone", seat=seat, card=e.card))
        else:
            self.emit(self.t("friend-called-holder", seat=seat, card=e.card,
                             friend=self.seat(holder)))

    def _declared(self, e: wire.DeclaredEvent, view: wire.GameView) -> None:
        d = self.deal
        seat = self.seat(e.seat)
        if e.rebury:
            stake = view.stake
            self.emit(
                self.t("rebury", seat=seat, cards=e.cards, trump=self.trump(e.trump),
                       stake=self.t("stake", stake=stake) if stake > 1 else "")
            )
            return
        own = d.own.get(e.seat)
        if e.overturn:
            key = "overturn"
        elif own is not None:
            key = "reinforce" if own == e.trump else "self-overturn"
        else:
            key = "declare"
        d.declarations.append(self.t(key, seat=seat, cards=e.cards))
        d.own[e.seat] = e.trump
        if d.first_declarer is None:
            d.first_declarer = e.seat

    def _trump_fixed(self, e: wire.TrumpFixedEvent, view: wire.GameView) -> None:
        d = self.deal
        d.defenders = list(view.defenders)
        partners = "+".join(self.seat(s) for s in d.defenders if s != e.dealer) or "-"
        stake = view.stake
        self.emit(
            self.t("deal", no=d.no + 1, dealer=self.seat(e.dealer), partners=partners,
                   level=view.level, trump=self.trump(e.trump),
                   stake=self.t("stake", stake=stake) if stake > 1 else "")
        )
        if d.rights:
            self.emit(self.t("rights", seats="+".join(self.seat(s) for s in d.rights)))
        if d.auction:
            self.emit(d.auction)
        elif d.declarations:
            items = self.t("sep").join(d.declarations)
            self.emit(self.t("declarations", items=items))
            if d.first and e.declarer is not None and d.first_declarer != e.declarer:
                # first deal, overturned: say whose the seat is (先亮者为庄家 / 翻主翻庄)
                key = "first-dealer-first" if e.dealer == d.first_declarer else "first-dealer-last"
                self.emit(self.t(key, dealer=self.seat(e.dealer)))
        elif e.turned is not None:
            self.emit(self.t("turned", card=e.turned))
        else:
            self.emit(self.t("no-declaration"))

    def _kitty_revealed(self, e: wire.KittyRevealedEvent) -> None:
        if not e.cards:  # no kitty (4 decks): the last trick moves points instead
            key = "last-trick-attackers" if e.multiplier else "kitty-transfer"
            self.emit(self.t(key, mult=e.multiplier, gain=e.attacker_gain))
        elif e.multiplier:
            self.emit(self.t("kitty-captured", cards=e.cards, points=e.points,
                             mult=e.multiplier, gain=e.attacker_gain))
        else:
            self.emit(self.t("kitty-kept", cards=e.cards, points=e.points))
            if e.attacker_gain:
                self.emit(self.t("kitty-transfer", gain=e.attacker_gain))

    def _deal_ended(self, e: wire.DealEndedEvent, view: wire.GameView) -> None:
        if e.attackers_take_over:
            outcome = (
                self.t("takeover-up", n=e.attacker_levels)
                if e.attacker_levels
                else self.t("takeover")
            )
        elif e.attacker_levels:  # 竞标: the attackers reached the target
            outcome = self.t("attackers-up", n=e.attacker_levels)
        else:
            outcome = self.t("dealer-up", n=e.defender_levels)
        self.emit(self.t("result", points=e.attacker_points, outcome=outcome))
        if self.per_seat:
            levels = self.t("comma").join(
                self.t("seat-level-of", seat=self.seat(s), rank=rank)
                for s, rank in enumerate(view.seat_levels)
            )
        else:
            levels = self.t("comma").join(
                self.t("level-of", team=t + 1, rank=view.team_levels[t]) for t in (0, 1)
            )
        self.emit(self.t("levels", levels=levels))


def print_replay(
    record: GameRecord, out: TextIO, lang: str = "en", deal: int | None = None
) -> MatchState:
    """Print the record (only deal ``deal``, 1-based, if given); returns the final state.

    Raises ``ReplayError`` if an action cannot be applied.
    """
    start = record.start()
    printer = Narrator(out, lang, start, None if deal is None else deal - 1)
    names = tr(lang, "comma").join(
        f"{printer.seat(s)}={record_name(record.players, s, lang)}"
        for s in range(len(record.players))
    ) or "-"
    recorded = record.result.get("deals")
    deals_word = plural(lang, "deals", recorded) if isinstance(recorded, int) else "?"
    out.write(
        tr(lang, "record", preset=start.ruleset.name, seed=record.seed,
           deals=deals_word, players=names) + "\n"
    )
    final = start
    try:
        for up in replay_updates(record):
            final = up.match
            printer.update(up)
    except RecordError as e:
        n = e.index
        raise ReplayError(
            tr(lang, "illegal", n=n + 1, action=record.actions[n], why=e.error.message)
        ) from e
    deals = plural(lang, "deals", len(final.history))
    if final.winner is not None:
        out.write(tr(lang, "match-over", deals=deals, team=printer.winners(final)) + "\n")
    else:
        out.write(tr(lang, "match-unfinished", deals=deals) + "\n")
    return final


def result_differences(record: GameRecord, final: MatchState) -> list[str]:
    """Fields of the record's stored result that the replay does not reproduce."""
    if not record.result:
        return []
    replayed = record_result(final)
    return [
        f"{key}: recorded {record.result.get(key)!r}, replayed {value!r}"
        for key, value in replayed.items()
        if key in record.result and record.result[key] != value  # older records lack some keys
    ]


def _dealt_count(final: MatchState) -> int:
    """Deals started in the record: the finished ones plus an unfinished current one."""
    unfinished = 0 if final.is_over or final.deal.n_dealt == 0 else 1
    return len(final.history) + unfinished


def _read(path: str) -> GameRecord:
    text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    record = GameRecord.from_json(text)
    if not all(isinstance(a, str) for a in record.actions):
        raise ValueError("every action must be a string such as 'play 0 SA'")
    return record


def replay_command(
    args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run ``shengji replay``: 0 if the replay agrees with the record, 1 if not, 2 on bad args."""
    out = out or sys.stdout
    err = err or sys.stderr
    lang: str = args.lang
    try:
        record = _read(args.file)
        record.start()
    except (OSError, ValueError, KeyError, TypeError, json.JSONDecodeError) as e:
        why = e.message if isinstance(e, ShengjiError) else str(e)
        err.write(tr(lang, "bad-file", file=args.file, why=why) + "\n")
        return 1
    if args.deal is not None and args.deal < 1:
        err.write(tr(lang, "bad-deal") + "\n")
        return 2
    try:
        final = print_replay(record, out, lang, args.deal)
    except ReplayError as e:
        err.write(f"{e}\n")
        return 1
    except BrokenPipeError:  # e.g. `shengji replay f.json | head`
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    if args.deal is not None and args.deal > _dealt_count(final):
        n = _dealt_count(final)
        err.write(tr(lang, "no-such-deal", deals=plural(lang, "deals", n), n=n) + "\n")
        return 2
    diff = result_differences(record, final)
    if diff:
        err.write(tr(lang, "mismatch", diff="; ".join(diff)) + "\n")
        return 1
    return 0
