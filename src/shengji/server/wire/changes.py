"""Which fields of a seat's ``GameView`` an action changed, worked out from the engine fields
it changed (never by comparing two rendered views): protocol v3's deltas.

A ``DealState`` is an immutable value whose unchanged parts are shared between one state
and the next, so a field that is the very same object before and after did not change
(a seat's hand is copied only when that seat's cards move). Each view field names the
engine fields it is made from (``PUBLIC_DEPS``, ``SEAT_DEPS``); a view field is sent when
one of them changed. Sending a field that happens to render the same is harmless; missing
one is not, and tests/server/test_deltas.py checks, for random deals of every preset, that
the deltas rebuild every whole view.

>>> from shengji.core.match import MatchState
>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.actions import Deal
>>> m = MatchState.new(PRESETS["classic"], seed=1, first_dealer=0)
>>> m2, _ = m.apply(Deal())
>>> ch = Changes(m, m2)
>>> sorted(ch.fields(None))
['cards_dealt', 'dealer_to_be', 'hand_sizes']
>>> got = ch.fields(m.deal.start)  # the seat dealt to sees its hand change
>>> "hand" in got and "played" in got
True
"""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter

from shengji.core.display import SUIT_NAMES, played_counts, view_context
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.state import FIELDS, DealState

_ANY = frozenset(FIELDS)

PUBLIC_DEPS: dict[str, frozenset[str]] = {
    k: frozenset(v)
    for k, v in {
        "phase": {"phase"},
        "level": {"level"},
        "deal_no": {"deal_no"},
        "dealer": {"dealer"},
        "defenders": {"defenders"},
        "trump": {"trump"},
        "hand_sizes": {"hand_sizes"},
        "kitty_holder": {"kitty_holder"},
        "leader": {"leader"},
        "trick": {"trick"},
        "tricks_done": {"tricks"},
        "last_trick": {"tricks"},
        "attacker_points": {"attacker_points"},
        "stake": {"stake"},
        "cards_dealt": {"n_dealt"},
        "result": {"result"},
        "point_cards": {"tricks", "defenders", "friend", "phase", "result"},
        "auction": {"auction"},
        "bid_ceiling": {"auction", "phase"},
        "target": {"target"},
        "shown": {"shown"},
        "friend_call": {"friend_call"},
        "friend": {"friend"},
        "dealer_to_be": {
            "declaration", "declared", "dealer", "phase", "n_dealt", "passes",
            "declarer_first", "first_deal", "rights",
        },
        "rights": {"rights"},
        "bury_count": {"kitty", "kitty_kept", "phase", "kitty_holder", "rebury_decl"},
        "roles": {
            "dealer", "defenders", "friend", "friend_call", "phase", "declaration",
            "declared", "first_deal", "kitty_holder", "target", "auction",
        },
        "goal": {
            "target", "phase", "auction", "dealer", "defenders", "level", "stake",
            "friend_call", "friend",
        },
        "penalty_points": {"failed_throws", "failed_seats", "attacker_points", "defenders"},
    }.items()
}
"""Each view field every audience sees alike, and the engine fields it is made from."""

_HAND = "hand of the seat"
"""Stands for the viewing seat's own cards among the engine fields a seat field reads."""

SEAT_DEPS: dict[str, frozenset[str]] = {
    k: frozenset(v)
    for k, v in {
        "hand": {_HAND, "ctx", "trump", "declaration", "declared", "level", "phase", "kitty"},
        "hand_groups": {
            _HAND, "ctx", "trump", "declaration", "declared", "level", "phase", "kitty",
        },
        "declaration": {"declaration", "declared", "rebury_decl", "phase"},
        "own_declaration": {"declaration", "declared", "rebury_decl", "phase"},
        "kitty": {"kitty", "phase", "kitty_holder", "kitty_kept"},
        "friend_candidates": {"friend_call", "friend", "tricks", "trick", _HAND, "phase"},
        "declare_level": {"level", "rights", "seat_levels"},
        "trumps": {"ctx", "trump", "declaration", "declared", "level", "phase"},
        "options": _ANY,
        "played": {
            "tricks", "trick", _HAND, "kitty", "ctx", "trump", "phase", "declaration",
            "declared", "level",
        },
    }.items()
}
"""Each view field that depends on who looks, and the engine fields it is made from."""

_SEAT_ONLY = frozenset({"options", "declare_level"})
"""Seat fields a spectator's view holds empty whatever happens."""

MATCH_FIELDS = ("team_levels", "seat_levels", "match_over", "winner")
"""View fields the match holds (levels, its end), compared by value."""

_PLAYED_LAYOUT = frozenset({
    "ctx", "trump", "declaration", "declared", "level", "phase", "kitty", "kitty_holder",
    "kitty_kept", "rebury_decl", "deal_no", "ruleset", "seed", "dealer",
})
"""Engine fields that may change the played-cards panel other than by cards moving (its
suits, a kitty known); while none changes, only the suits of the cards that moved change
and go as ``played_suits`` instead of the whole ``played``."""


_ALL_FIELDS = attrgetter(*FIELDS)


def changed_fields(before: DealState, after: DealState) -> frozenset[str]:
    """The engine fields of ``after`` that are not the very objects of ``before``."""
    pairs = zip(FIELDS, _ALL_FIELDS(before), _ALL_FIELDS(after), strict=True)
    return frozenset(f for f, x, y in pairs if x is not y)


@lru_cache(maxsize=256)
def _view_fields(engine: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The public and the seat view fields made from any of the ``engine`` fields (the
    same few sets of engine fields recur: a play, a card dealt, a trick won)."""
    public = frozenset(k for k, deps in PUBLIC_DEPS.items() if deps & engine)
    seat = frozenset(k for k, deps in SEAT_DEPS.items() if deps & engine)
    return public, seat


class Changes:
    """What took a match from ``before`` (None: nothing shown yet) to ``after``, as view
    fields per audience; ``full`` when the whole view must go (another deal or match)."""

    def __init__(self, before: MatchState | None, after: MatchState) -> None:
        self.before = before
        self.after = after
        b = None if before is None else before.deal
        a = after.deal
        self.full = b is None or b.deal_no != a.deal_no or b.ruleset is not a.ruleset
        self.engine: frozenset[str] = _ANY if b is None or self.full else changed_fields(b, a)
        public_fields, seat_made = _view_fields(self.engine)
        public = set(public_fields)
        if b is None or self.full or b.to_act != a.to_act:
            public.add("to_act")
        if "trick" in self.engine and not a.ruleset.player_aids:
            public.add("last_trick")  # without player aids it shows until the next lead
        if before is None or self.full:
            public.update(MATCH_FIELDS)
        else:
            if before.levels != after.levels:
                public.update(("team_levels", "seat_levels"))
            if before.is_over != after.is_over or before.winner != after.winner:
                public.update(("match_over", "winner"))
        self.public = frozenset(public)
        seat_fields = set(seat_made)
        unchanged: set[str] = set()
        if b is not None and b.friend_call is None and a.friend_call is None:
            unchanged.add("friend_candidates")  # null before the call, for everyone
        seat_fields -= unchanged
        if b is not None and b.phase is Phase.PLAYING and a.phase is Phase.PLAYING:
            seat_fields.discard("options")  # no choice but cards while tricks are played
        self._seat_fields = frozenset(seat_fields)
        self._hand_fields = frozenset(
            k for k, deps in SEAT_DEPS.items() if _HAND in deps and k not in unchanged
        )
        self.keyed_played = (
            b is not None and not self.full and not self.engine & _PLAYED_LAYOUT
        )
        """``played`` goes as ``played_suits`` (the suits whose cards moved) or not at all."""
        self._moved: frozenset[int] | None = None

    def fields(self, seat: int | None) -> frozenset[str]:
        """The view fields ``seat`` (None: a spectator) must be sent (when ``full``: every
        field, whatever this says; ``played`` stands for ``played_suits`` when
        ``keyed_played``)."""
        b = None if self.before is None else self.before.deal
        extra = self._seat_fields
        if seat is None:  # a spectator has no choices nor a level to declare with
            return self.public | (extra - _SEAT_ONLY)
        moved = b is not None and "hands" in self.engine
        if moved and b is not None and b.hands[seat] is not self.after.deal.hands[seat]:
            extra = extra | self._hand_fields
        return self.public | extra

    def played_suits(self, seat: int | None) -> frozenset[str]:
        """With ``keyed_played``: the effective suits (``T``, ``S`` ...) of ``seat``'s
        played-cards panel that changed: those of the cards played, and of a card dealt to
        it (otherwise a hand only loses cards to the table, which are among those played)."""
        assert self.before is not None
        b, a = self.before.deal, self.after.deal
        kinds = set(self._moved_kinds())
        dealt = "n_dealt" in self.engine  # else a hand only loses cards to the table
        if dealt and seat is not None and b.hands[seat] is not a.hands[seat]:
            pairs = zip(b.hands[seat], a.hands[seat], strict=True)
            kinds.update(k for k, (x, y) in enumerate(pairs) if x != y)
        ctx = view_context(a, seat)
        return frozenset(SUIT_NAMES[ctx.esuit[k]] for k in kinds)

    def _moved_kinds(self) -> frozenset[int]:
        if self._moved is None:
            assert self.before is not None
            b, a = self.before.deal, self.after.deal
            if b.trick is a.trick and b.tricks is a.tricks:
                self._moved = frozenset()
            else:
                was, now = played_counts(b), played_counts(a)
                pairs = zip(was, now, strict=True)
                self._moved = frozenset(k for k, (x, y) in enumerate(pairs) if x != y)
        return self._moved
