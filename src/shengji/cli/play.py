"""``shengji play``: play deals yourself in the terminal against bots.

You sit at ``--seat`` (default 0; your partner is the seat opposite). Type cards in the
project notation (``SA SA SK``, ``h10``, ``♠A``), ``pass``, ``hint`` (what a bot would play)
or ``quit``. While the cards are dealt you are asked when a level card or a joker arrives;
press Enter to let the chance go. Illegal plays are refused with the reason.

    shengji play --preset classic --bots random --seed 7
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TextIO

from shengji.bots.base import Bot
from shengji.bots.driver import play_match
from shengji.bots.registry import (
    ARENA_ONLY,
    bot_factory,
    make_bot,
    parse_bot_spec,
    with_think_ms,
)
from shengji.cli.replay import Narrator
from shengji.core.actions import Action, Bid, Bury, CallFriend, Declare, NameTrump, Pass, Play
from shengji.core.cards import cards_str, parse_cards, parse_trump, trump_str
from shengji.core.errors import ShengjiError
from shengji.core.events import Event, visible
from shengji.core.friend import parse_call
from shengji.core.legal import LegalActions
from shengji.core.match import MatchState
from shengji.core.order import TRUMP
from shengji.core.ruleset import preset
from shengji.core.state import Phase
from shengji.core.views import DealView


class InputEnded(Exception):
    """The player closed the input (EOF) or typed ``quit``."""


class HumanPlayer:
    """A ``Bot`` whose decisions are typed at the terminal."""

    name = "human"

    def __init__(self, inp: TextIO, out: TextIO, adviser: Bot) -> None:
        self.inp = inp
        self.out = out
        self.adviser = adviser

    def _ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line or line.strip().lower() in ("quit", "exit", "q"):
            raise InputEnded
        return line.strip()

    def show(self, view: DealView) -> None:
        """Print the hand grouped by effective suit, trumps first."""
        ctx = view.ctx
        groups: dict[int, list[int]] = {}
        for c in view.hand:
            groups.setdefault(ctx.esuit[c] if ctx else 0, []).append(c)
        parts = []
        for suit, cards in groups.items():
            label = "trump" if ctx and suit == TRUMP else ("S", "H", "D", "C")[suit] if ctx else ""
            parts.append(f"{label}: {cards_str(cards)}" if label else cards_str(cards))
        trump = "?" if view.trump is None else trump_str(view.trump)
        decl = view.declaration
        if view.trump is None and decl is not None:
            trump += f" (S{decl.seat} showed {cards_str(decl.cards)})"
        if view.dealer is None and view.dealer_to_be is not None:
            trump += f", S{view.dealer_to_be} deals"  # first deal (先亮者为庄家 or 翻主翻庄)
        self.out.write(
            f"  [level {_rank(view.level)}, trump {trump}, attackers {view.attacker_points} pts]"
            f" your hand ({len(view.hand)}): " + " | ".join(parts) + "\n"
        )

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        """Ask until the player types something legal."""
        seat = legal.seat
        phase = view.phase
        self.show(view)
        if phase is Phase.DEALING:
            options = " / ".join(cards_str(a.cards) for a in legal.small if isinstance(a, Declare))
            text = self._ask(f"declare? ({options}; Enter = no): ")
            if not text:
                return None
            return self._checked(legal, Declare, text)
        if phase in (Phase.DECLARING, Phase.REBURY):
            shown = " / ".join(cards_str(a.cards) for a in legal.small if isinstance(a, Declare))
            what = "反底" if phase is Phase.REBURY else "declare"
            while True:
                text = self._ask(f"{what} ({shown or 'nothing'}) or pass: ")
                if text.lower() in ("", "pass", "p"):
                    return Pass(seat)
                action = self._checked(legal, Declare, text)
                if action is not None:
                    return action
        if phase is Phase.BIDDING:
            return self._bid(view, legal)
        if phase is Phase.NAMING:
            return self._name_trump(view, legal)
        if phase is Phase.BURYING:
            count = view.hand_sizes[seat] - view.ruleset.hand_size  # 竞标 swap: 6
            while True:
                kitty = cards_str(view.kitty or ())
                text = self._ask(f"kitty was {kitty or '?'}; bury {count} cards: ")
                action = self._checked(legal, Bury, text)
                if action is not None:
                    return action
        if phase is Phase.CALLING:
            return self._call(view, legal)
        trick = " | ".join(f"S{s} {cards_str(c)}" for s, c in view.trick) or "(you lead)"
        self.out.write(f"  trick: {trick}\n")
        while True:
            text = self._ask("play (or hint): ")
            if text.lower() in ("hint", "h", "?"):
                hint = self.adviser.choose(view, legal)
                if isinstance(hint, Play):
                    self.out.write(f"  hint: {cards_str(hint.cards)}\n")
                continue
            action = self._checked(legal, Play, text)
            if action is not None:
                return action

    def _bid(self, view: DealView, legal: LegalActions) -> Action:
        """竞标: bid a target for the attackers (lower than the last bid) or pass."""
        bids = view.auction.bids if view.auction is not None else ()
        said = ", ".join(f"S{s} {'pass' if t is None else t}" for s, t in bids) or "none yet"
        targets = [a.target for a in legal.small if isinstance(a, Bid)]
        most = f"at most {targets[0]}" if targets else "none left"
        self.out.write(f"  kitty shows {cards_str(view.shown)}; bids: {said}\n")
        while True:
            text = self._ask(f"bid the attackers' target ({most}, steps of "
                             f"{view.ruleset.bid_step}), pass or hint: ").lower()
            if text in ("", "pass", "p"):
                return Pass(legal.seat)
            if text in ("hint", "h", "?"):
                self.out.write(f"  hint: {self.adviser.choose(view, legal)}\n")
                continue
            if not text.isdigit():
                self.out.write("  not allowed: a bid is a number of points, e.g. 120\n")
                continue
            action = self._legal(legal, text, lambda t: Bid(legal.seat, int(t)))
            if action is not None:
                return action

    def _name_trump(self, view: DealView, legal: LegalActions) -> Action:
        """竞标: the auction's winner names a suit."""
        while True:
            text = self._ask(f"you deal for {view.target}: name trump (S, H, D, C) or hint: ")
            if text.lower() in ("hint", "?"):  # not "h": that is hearts here
                self.out.write(f"  hint: {self.adviser.choose(view, legal)}\n")
                continue
            action = self._legal(legal, text, lambda t: NameTrump(legal.seat, parse_trump(t)))
            if action is not None:
                return action

    def _call(self, view: DealView, legal: LegalActions) -> Action:
        """找朋友: the dealer names a card: its holder nearest the dealer is the friend
        (``nth-played`` tables: which copy of which card, played by another seat)."""
        by_copy = view.ruleset.friend_rule == "nth-played"
        prompt = (
            "call a friend: copy and card, e.g. '1 SA' (or hint): " if by_copy
            else "call a friend: a card, e.g. 'SA' — its holder nearest you is the friend "
            "(or hint): "
        )
        while True:
            text = self._ask(prompt)
            if text.lower() in ("hint", "h", "?"):
                hint = self.adviser.choose(view, legal)
                if isinstance(hint, CallFriend):
                    shown = cards_str((hint.card,))
                    self.out.write(f"  hint: {f'{hint.nth} ' if by_copy else ''}{shown}\n")
                continue

            def call(t: str) -> Action:
                c = parse_call(t if len(t.split()) > 1 else f"1 {t}")
                return CallFriend(legal.seat, c.card, c.nth)

            action = self._legal(legal, text, call)
            if action is not None:
                return action

    def _checked(
        self, legal: LegalActions, kind: type[Declare | Bury | Play], text: str
    ) -> Action | None:
        """The action ``text`` names, if legal; otherwise say why and return None."""
        return self._legal(legal, text, lambda t: kind(legal.seat, tuple(parse_cards(t))))

    def _legal(
        self, legal: LegalActions, text: str, make: Callable[[str], Action]
    ) -> Action | None:
        """The action ``make`` reads from ``text``, if legal now; otherwise say why and
        return None."""
        try:
            action = make(text)
            legal.state.check(action)
        except ShengjiError as e:
            self.out.write(f"  not allowed: {e.message}\n")
            return None
        return action


def _rank(level: int) -> str:
    from shengji.core.cards import LEVELS

    return LEVELS[level]


def play_command(args: argparse.Namespace, inp: TextIO, out: TextIO, err: TextIO) -> int:
    """Run ``shengji play``; 0 when the deals are done, 1 if the input ends early."""
    try:
        options = json.loads(args.options) if args.options else None
        ruleset = preset(args.preset, options)
        args.bots = with_think_ms([args.bots], getattr(args, "think_ms", None))[0]
        try:
            parse_bot_spec(args.bots)  # a table's check: levels yes, the arena-only cheat no
        except ValueError:
            if args.bots.strip().lower().partition(":")[0] in ARENA_ONLY:
                raise
            bot_factory(args.bots, allow_import=True)  # a plug-in (entry point, import path)
    except (ShengjiError, ValueError) as e:
        err.write(f"shengji play: error: {e}\n")
        return 2
    seat = args.seat
    if not 0 <= seat < ruleset.players:
        err.write(f"shengji play: error: --seat must be 0..{ruleset.players - 1}\n")
        return 2
    human = HumanPlayer(inp, out, make_bot(args.bots, f"{args.seed}.hint", allow_import=True))
    players: list[Bot] = [
        human if k == seat else make_bot(args.bots, f"{args.seed}.{k}", allow_import=True)
        for k in range(ruleset.players)
    ]
    partner = (
        f"partner S{(seat + 2) % 4}" if ruleset.partnership == "fixed" else "no fixed partner"
    )
    out.write(
        f"shengji play: {ruleset.name}, you are S{seat} ({partner}), "
        f"bots: {args.bots}. Type cards like 'SA SA', 'hint', 'pass' or 'quit'.\n"
    )
    printer = Narrator(out, args.lang, MatchState.new(ruleset, args.seed), None)

    def narrate(_action: Action, state: MatchState, events: list[Event]) -> None:
        for e in visible(events, seat):
            printer.event(e, state)

    try:
        play_match(
            ruleset, players, args.seed, deals=args.deals, on_action=narrate, wrap_errors=False
        )
    except InputEnded:
        out.write("bye\n")
        return 1
    return 0
