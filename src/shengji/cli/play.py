"""``shengji play``: play deals yourself in the terminal against bots.

You sit at ``--seat`` (0-based, default 0; seats are shown as ``#1``.. so that no label reads
as a card; your partner is the seat opposite). Type cards in the project notation
(``SA SA SK``, ``h10``, ``♠A``), ``pass``, ``hint`` (what a bot would do, printed exactly as
you would type it) or ``quit``. While the cards are dealt you are asked when a level card or
a joker arrives; press Enter to let the chance go. Illegal plays are refused with the
reason. ``--lang zh`` prints everything in Chinese.

    shengji play --preset classic --bots random --seed 7 --lang zh
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Collection
from typing import Any, TextIO

from shengji.bots.base import Bot
from shengji.bots.driver import play_match
from shengji.bots.registry import (
    ARENA_ONLY,
    bot_factory,
    make_bot,
    parse_bot_spec,
    with_think_ms,
)
from shengji.cli.i18n import named, refusal, tr, without_hints
from shengji.cli.replay import Narrator
from shengji.cli.rules_arg import ruleset_from_args
from shengji.core.actions import (
    Action,
    Bid,
    Bury,
    CallFriend,
    Declare,
    NameTrump,
    Pass,
    Play,
)
from shengji.core.cards import LEVELS, NO_TRUMP, cards_str, parse_cards, parse_trump, trump_str
from shengji.core.errors import ShengjiError
from shengji.core.events import Event
from shengji.core.friend import parse_call
from shengji.core.legal import LegalActions
from shengji.core.match import MatchState
from shengji.core.order import TRUMP
from shengji.core.phases import Phase
from shengji.core.seat_names import display_name
from shengji.core.views import DealView


class InputEnded(Exception):
    """The player closed the input (EOF) or typed ``quit``."""


HINTS = ("hint", "h", "?")
"""What asks for a hint (in naming trump ``h`` is hearts, so only ``hint`` and ``?``)."""
PASSES = ("", "pass", "p")
"""What passes where a pass is allowed (Enter too)."""


def _cards(kind: type[Declare | Bury | Play], seat: int) -> Callable[[str], Action]:
    """Reads typed cards as ``kind``'s action for ``seat``.

    >>> _cards(Play, 2)("SA SA")
    Play(seat=2, cards=(12, 12))
    """
    return lambda t: kind(seat, tuple(parse_cards(t)))


def seat_label(lang: str, seat: int) -> str:
    """``#1`` for seat 0 (``1号`` in Chinese): a label that cannot be read as a card.

    >>> seat_label("en", 2), seat_label("zh", 0)
    ('#3', '1号')
    """
    return tr(lang, "seat", n=seat + 1)


def typed_form(action: Action | None, by_copy: bool = True) -> str | None:
    """What a player types at the prompt for ``action`` (None: press Enter); a friend call
    is its card alone where the call names no copy (``by_copy`` False: nearest holder).

    >>> from shengji.core.cards import parse_card
    >>> typed_form(CallFriend(0, parse_card("SA"), 1)), typed_form(Bid(1, 120))
    ('1 SA', '120')
    >>> typed_form(Pass(2)), typed_form(NameTrump(1, 1)), typed_form(None)
    ('pass', 'H', None)
    """
    if action is None:
        return None
    if isinstance(action, Declare | Bury | Play):
        return cards_str(action.cards)
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Bid):
        return str(action.target)
    if isinstance(action, NameTrump):
        return trump_str(action.trump)
    if isinstance(action, CallFriend):
        card = cards_str((action.card,))
        return f"{action.nth} {card}" if by_copy else card
    return str(action)


class HumanPlayer:
    """A ``Bot`` whose decisions are typed at the terminal."""

    name = "human"

    def __init__(
        self, inp: TextIO, out: TextIO, adviser: Bot | None, lang: str = "en"
    ) -> None:
        self.inp = inp
        self.out = out
        self.adviser = adviser
        """The bot whose choice a hint prints; None where the rules offer no hints."""
        self.lang = lang

    def t(self, key: str, **fields: Any) -> str:
        return tr(self.lang, key, **fields)

    def prompt(self, key: str, **fields: Any) -> str:
        """A prompt, offering a hint only where the table gives hints."""
        text = self.t(key, **fields)
        return text if self.adviser is not None else without_hints(text)

    def seat(self, seat: int) -> str:
        return seat_label(self.lang, seat)

    def _ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line or line.strip().lower() in ("quit", "exit", "q"):
            raise InputEnded
        return line.strip()

    def _hint(self, view: DealView, legal: LegalActions) -> None:
        """Print what the adviser would do, exactly as it is typed back (a table without
        hints says so)."""
        if self.adviser is None:
            self.out.write(self.t("play.no-aids") + "\n")
            return
        action = self.adviser.choose(view, legal)
        text = typed_form(action, view.ruleset.friend_rule == "nth-played")
        if text is None:
            key = "play.hint-enter" if view.phase is Phase.DEALING else "play.no-hint"
            self.out.write(self.t(key) + "\n")
        else:
            self.out.write(self.t("play.hint", text=text) + "\n")

    def show(self, view: DealView) -> None:
        """Print the hand grouped by effective suit, trumps first."""
        ctx = view.ctx
        groups: dict[int, list[int]] = {}
        for c in view.hand:
            groups.setdefault(ctx.esuit[c] if ctx else 0, []).append(c)
        parts = []
        for suit, cards in groups.items():
            if not ctx:
                label = ""
            elif suit == TRUMP:
                label = self.t("play.group-trump")
            else:
                label = ("S", "H", "D", "C")[suit]
            parts.append(f"{label}: {cards_str(cards)}" if label else cards_str(cards))
        if view.trump is None:
            trump = self.t("play.unknown-trump")
        elif view.trump == NO_TRUMP:
            trump = self.t("trump.none")
        else:
            trump = self.t(f"suit.{view.trump}")
        decl = view.declaration
        if view.trump is None and decl is not None:
            trump += self.t("play.showed", seat=self.seat(decl.seat), cards=cards_str(decl.cards))
        if view.dealer is None and view.dealer_to_be is not None:
            # first deal (先亮者为庄家 or 翻主翻庄)
            trump += self.t("play.deals-first", seat=self.seat(view.dealer_to_be))
        self.out.write(
            self.t("play.status", level=LEVELS[view.level], trump=trump,
                   points=view.attacker_points, n=len(view.hand), hand=" | ".join(parts))
            + "\n"
        )

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        """Ask until the player types something legal."""
        seat = legal.seat
        phase = view.phase
        self.show(view)
        declarations = " / ".join(
            cards_str(a.cards) for a in legal.small if isinstance(a, Declare)
        )
        if phase is Phase.DEALING:
            options = declarations or self.t("play.nothing")
            return self._until_legal(  # Enter: let the chance go
                view, legal, self.prompt("play.declare-now", options=options),
                _cards(Declare, seat), stop=("",),
            )
        if phase in (Phase.DECLARING, Phase.REBURY):
            key = "play.rebury" if phase is Phase.REBURY else "play.declare"
            key += "-window" if declarations else "-none"  # nothing to show: say so
            return self._until_legal(
                view, legal, self.prompt(key, options=declarations), _cards(Declare, seat),
                stop=PASSES, stopped=Pass(seat),
            )
        if phase is Phase.BIDDING:
            return self._bid(view, legal)
        if phase is Phase.NAMING:
            return self._until_legal(
                view, legal, self.prompt("play.name-trump", target=view.target),
                lambda t: NameTrump(seat, parse_trump(t)),
                hints=("hint", "?"),  # not "h": that is hearts here
            )
        if phase is Phase.BURYING:
            count = view.hand_sizes[seat] - view.ruleset.hand_size  # 竞标 swap: 6
            kitty = cards_str(view.kitty or ()) or "?"
            return self._until_legal(
                view, legal, self.prompt("play.bury", kitty=kitty, n=count), _cards(Bury, seat)
            )
        if phase is Phase.CALLING:
            return self._call(view, legal)
        trick = " | ".join(
            f"{self.seat(s)} {cards_str(c)}" for s, c in view.trick
        ) or self.t("play.you-lead")
        self.out.write(self.t("play.trick", trick=trick) + "\n")
        return self._until_legal(view, legal, self.prompt("play.play"), _cards(Play, seat))

    def _bid(self, view: DealView, legal: LegalActions) -> Action | None:
        """竞标: bid a target for the attackers (lower than the last bid) or pass."""
        bids = view.auction.bids if view.auction is not None else ()
        said = self.t("comma").join(
            self.t("bid-pass", seat=self.seat(s)) if t is None
            else self.t("bid", seat=self.seat(s), target=t)
            for s, t in bids
        ) or self.t("play.no-bids")
        targets = [a.target for a in legal.small if isinstance(a, Bid)]
        most = self.t("play.at-most", n=targets[0]) if targets else self.t("play.none-left")
        self.out.write(self.t("play.bids", shown=cards_str(view.shown), bids=said) + "\n")
        return self._until_legal(
            view, legal, self.prompt("play.bid-prompt", most=most, step=view.ruleset.bid_step),
            lambda t: Bid(legal.seat, int(t)), stop=PASSES, stopped=Pass(legal.seat),
            check=lambda t: None if t.isdigit() else self.t("play.bid-number"),
        )

    def _call(self, view: DealView, legal: LegalActions) -> Action | None:
        """找朋友: the dealer names a card: its holder nearest the dealer is the friend
        (``nth-played`` tables: which copy of which card, played by another seat)."""
        by_copy = view.ruleset.friend_rule == "nth-played"

        def call(t: str) -> Action:
            c = parse_call(t if len(t.split()) > 1 else f"1 {t}")
            return CallFriend(legal.seat, c.card, c.nth)

        return self._until_legal(
            view, legal, self.prompt("play.call" if by_copy else "play.call-card"), call
        )

    def _until_legal(
        self,
        view: DealView,
        legal: LegalActions,
        prompt: str,
        make: Callable[[str], Action],
        *,
        stop: Collection[str] = (),
        stopped: Action | None = None,
        hints: Collection[str] = HINTS,
        check: Callable[[str], str | None] = lambda _t: None,
    ) -> Action | None:
        """Ask with ``prompt`` until the answer is a legal action (``make`` reads it). A word
        of ``hints`` prints a hint and asks again; one of ``stop`` (any case) ends the asking
        with ``stopped``; ``check`` may refuse an answer first (why, or None: let it be)."""
        while True:
            text = self._ask(prompt)
            if text.lower() in stop:
                return stopped
            if text.lower() in hints:
                self._hint(view, legal)
                continue
            why = check(text)
            if why is not None:
                self.out.write(self.t("play.refused", why=why) + "\n")
                continue
            action = self._legal(legal, text, make)
            if action is not None:
                return action

    def _legal(
        self, legal: LegalActions, text: str, make: Callable[[str], Action]
    ) -> Action | None:
        """The action ``make`` reads from ``text``, if legal now; otherwise say why and
        return None."""
        try:
            action = make(text)
            legal.state.check(action)
        except ShengjiError as e:
            why = refusal(self.lang, e.reason.value, e.message)
            self.out.write(self.t("play.refused", why=why) + "\n")
            return None
        return action


def play_command(args: argparse.Namespace, inp: TextIO, out: TextIO, err: TextIO) -> int:
    """Run ``shengji play``; 0 when the deals are done, 1 if the input ends early."""
    lang: str = getattr(args, "lang", "en")
    try:
        ruleset = ruleset_from_args(args)
        args.bots = with_think_ms([args.bots], getattr(args, "think_ms", None))[0]
        try:
            parse_bot_spec(args.bots)  # a table's check: levels yes, the arena-only cheat no
        except ValueError:
            if args.bots.strip().lower().partition(":")[0] in ARENA_ONLY:
                raise
            bot_factory(args.bots, allow_import=True)  # a plug-in (entry point, import path)
    except (ShengjiError, ValueError) as e:
        err.write(tr(lang, "play.error", why=e) + "\n")
        return 2
    seat = args.seat
    if not 0 <= seat < ruleset.players:
        why = tr(lang, "play.bad-seat", last=ruleset.players - 1)
        err.write(tr(lang, "play.error", why=why) + "\n")
        return 2
    adviser = (
        make_bot(args.bots, f"{args.seed}.hint", allow_import=True)
        if ruleset.player_aids
        else None
    )
    human = HumanPlayer(inp, out, adviser, lang)
    players: list[Bot] = [
        human if k == seat else make_bot(args.bots, f"{args.seed}.{k}", allow_import=True)
        for k in range(ruleset.players)
    ]
    partner = (
        tr(lang, "play.partner", seat=seat_label(lang, (seat + 2) % 4))
        if ruleset.partnership == "fixed"
        else tr(lang, "play.no-partner")
    )
    you = seat_label(lang, seat)
    bots = tr(lang, "comma").join(
        display_name(k, None, args.bots, lang) for k in range(ruleset.players) if k != seat
    )
    intro = tr(lang, "play.intro", ruleset=named(lang, "preset", ruleset.name), seat=you,
               partner=partner, bots=bots)
    out.write((intro if adviser is not None else without_hints(intro)) + "\n")
    printer = Narrator(out, lang, MatchState.new(ruleset, args.seed), None, viewer=seat)

    def narrate(_action: Action, state: MatchState, events: list[Event]) -> None:
        printer.show(events, state)  # as the table would send this seat

    try:
        play_match(
            ruleset, players, args.seed, deals=args.deals, on_action=narrate, wrap_errors=False
        )
    except InputEnded:
        out.write(tr(lang, "play.bye") + "\n")
        return 1
    return 0
