"""Ruleset: every rules variant as one frozen value, and the named presets.

Code elsewhere asks the ruleset a question (``ruleset.kitty_formula``); it never tests a
preset's name. ``to_dict``/``from_dict`` round-trip and refuse unknown keys.

>>> PRESETS["classic"].decks, PRESETS["classic"].kitty_size
(2, 8)
>>> preset("classic", {"throw_policy": "never"}).throw_policy
'never'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from shengji.core.cards import JOKER_LEVEL, LEVELS, parse_level, parse_rank
from shengji.core.errors import NotationError, RulesetError

ThrowPolicy = Literal["validated", "others-void", "never"]
ThrowForced = Literal["smallest", "structure-first"]
KittyFormula = Literal["power-of-size", "lianzhong", "tournament", "last-trick-transfer"]
KittyThrowUnits = Literal["lead", "winner"]
DealOrder = Literal["dealer", "random"]
FollowOrder = Literal["qq", "lianzhong", "four-deck"]
DeclarationStyle = Literal["classic", "grab", "tournament", "hidden"]
NoDeclaration = Literal["no-trump", "kitty-card", "spades"]
DealerRotation = Literal["partner", "same"]
Partnership = Literal["fixed", "find-friend", "bidding"]
LevelShares = Literal["equal", "fixed", "elastic"]
FriendRule = Literal["nearest-holder", "nth-played"]
LevelTransfer = Literal["off", "opponents", "partners"]
TakeoverDealer = Literal["next", "attackers-declare"]
TripleFollow = Literal["triple-then-pair", "triple-only", "free"]
TractorFollow = Literal["tractor-then-pairs", "pairs-only", "tractor-only", "free"]
FriendCallRule = Literal["any", "other-copy"]


@dataclass(frozen=True)
class LevelRow:
    """From ``min_points`` up (to the next row), the dealer side or the attackers go up.

    ``takeover``: the attackers become the dealer side (上台).
    """

    min_points: int
    defender_levels: int
    attacker_levels: int
    takeover: bool


@dataclass(frozen=True)
class LevelTable:
    """Level change for the attackers' final points (RULES.md §7).

    Rows are sorted by ``min_points``; past the last row, every further ``extra_step`` points
    give the attackers one more level; ``cap`` limits any gain.

    >>> LEVEL_TABLES["classic"].result(120)
    (0, 1, True)
    """

    name: str
    rows: tuple[LevelRow, ...]
    extra_step: int | None
    cap: int | None = None

    def result(self, points: int) -> tuple[int, int, bool]:
        """``(defender_levels, attacker_levels, attackers_take_over)`` for ``points``."""
        row = self.rows[0]
        for r in self.rows:
            if points >= r.min_points:
                row = r
        defender, attacker = row.defender_levels, row.attacker_levels
        last = self.rows[-1]
        if row is last and self.extra_step and last.attacker_levels > 0:
            attacker += (points - last.min_points) // self.extra_step
        if self.cap is not None:
            defender, attacker = min(defender, self.cap), min(attacker, self.cap)
        return defender, attacker, row.takeover


_NEG: Final = -(10**9)


def _table(
    name: str, rows: list[tuple[int, int, int, bool]], extra: int | None, cap: int | None = None
) -> LevelTable:
    return LevelTable(name, tuple(LevelRow(*r) for r in rows), extra, cap)


def _stepped(name: str, step: int, lianzhong: bool = False) -> LevelTable:
    """The QQ shape (0: +3, <1 step: +2, <2 steps: +1, then attackers) for a step size."""
    if lianzhong:
        rows = [(_NEG, 3, 0, False), (1, 2, 0, False), (step, 1, 0, False),
                (2 * step, 0, 1, True), (3 * step, 0, 2, True)]
    else:
        rows = [(_NEG, 3, 0, False), (1, 2, 0, False), (step, 1, 0, False),
                (2 * step, 0, 0, True), (3 * step, 0, 1, True), (4 * step, 0, 2, True)]
    return _table(name, rows, step)


LEVEL_TABLES: Final[dict[str, LevelTable]] = {
    "classic": _stepped("classic", 40),
    "lianzhong": _stepped("lianzhong", 40, lianzhong=True),
    "one-deck": _stepped("one-deck", 20),
    "one-deck-lianzhong": _table(
        "one-deck-lianzhong",
        [(_NEG, 2, 0, False), (1, 1, 0, False), (40, 0, 0, True), (80, 0, 1, True),
         (100, 0, 2, True)],
        None,
    ),
    "three-deck": _table(
        "three-deck",
        [(_NEG, 3, 0, False), (1, 2, 0, False), (60, 1, 0, False), (120, 0, 0, True),
         (180, 0, 1, True), (240, 0, 2, True)],
        60,
    ),
    "four-deck": _table(
        "four-deck",
        [(_NEG, 3, 0, False), (1, 2, 0, False), (80, 1, 0, False), (160, 0, 1, True),
         (240, 0, 2, True)],
        80,
    ),
    "tournament": _table(
        "tournament",
        [(_NEG, 3, 0, False), (1, 2, 0, False), (40, 1, 0, False), (80, 0, 0, True),
         (120, 0, 2, True), (150, 0, 3, True)],
        None,
        cap=3,
    ),
}
"""Level-progression tables by name (RULES.md §7). ``bianfeng`` uses ``classic``."""

_FULL_SEQUENCE: Final = tuple(range(13))

MAX_KITTY_CAP: Final = 1 << 20
"""Largest ``kitty_cap`` accepted (the power-of-size multiplier's bound)."""
MAX_POINTS: Final = 10_000
"""Largest ``bid_open`` / ``bid_step`` of a ruleset that does not bid (竞标 rulesets: the
points in the pack)."""


def _check_range(field: str, value: int, low: int, high: int) -> None:
    """``RulesetError`` naming ``field`` unless ``low <= value <= high``."""
    if not low <= value <= high:
        raise RulesetError(f"{field} must be {low}..{high}, not {value}", field)


@dataclass(frozen=True)
class Ruleset:
    """One complete rules variant. Every field is documented in ``docs/rules.md``."""

    name: str = "classic"
    """Preset this ruleset came from (informational; code never branches on it)."""
    decks: int = 2
    """Number of 54-card decks, 1..4."""
    players: int = 4
    """Seats at the table."""
    kitty_size: int = 8
    """Cards set aside at the deal (底牌); the dealer buries as many."""
    level_sequence: tuple[int, ...] = _FULL_SEQUENCE
    """Rank indices a side's level goes through (2 = 0 .. A = 12; 13 = JK, the joker level
    above A, last only)."""
    must_play: tuple[int, ...] = (12,)
    """Ranks a side may not skip past when going up (必打); the last level ends the match."""
    permanent_twos: bool = False
    """常主2: every 2 is trump, ranked below the level cards."""
    two_color: bool = False
    """两色: black suits form one suit and red suits another (one deck)."""
    follow_order: FollowOrder = "qq"
    """Shape-class order for triple / Titanic / quad leads (RULES.md §4)."""
    stronger_shapes_beat: bool = False
    """4 decks: a wider tuple or tractor of the same card count beats a narrower one."""
    throw_policy: ThrowPolicy = "validated"
    """甩牌: allowed and checked against the other hands / only when others are void / never."""
    throw_forced: ThrowForced = "smallest"
    """Which failing unit a failed throw must play: the smallest (every preset, Decision 138),
    or the biggest structure (a room option)."""
    failed_throw_penalty: int = 0
    """Points given to the other side for a failed throw (tournament: 10)."""
    kitty_formula: KittyFormula = "power-of-size"
    """How the kitty is multiplied when the attackers win the last trick (RULES.md §6)."""
    kitty_cap: int = 64
    """Upper bound of the power-of-size multiplier."""
    kitty_throw_units: KittyThrowUnits = "lead"
    """Last lead a throw: the multiplier counts the throw's units (``lead``, QQ "如果最后一圈
    牌为甩牌，只根据甩牌中的最大牌型计算抠底倍数") or the units of the play that won the trick
    (``winner``, 联众 / 边锋 "具体得分根据最大一方牌情规定如下"): ♥ trump, ``SA SK`` ruffed by
    ``H3 H3`` is ×2 by the lead and ×4 (a pair) by the winner under the 联众 formula."""
    level_table: str = "classic"
    """Name of the level-progression table in ``LEVEL_TABLES``."""
    ruff_compare: Literal["biggest-structure"] = "biggest-structure"
    """How competing ruffs are compared: by the lead's biggest structure, ties to the earlier."""
    partnership: Partnership = "fixed"
    """Fixed opposite partners (定), find-a-friend (找朋友) or bidding (竞标)."""
    declaration: DeclarationStyle = "classic"
    """How trump is declared during the deal (亮主, RULES.md §5)."""
    allow_reinforce: bool = True
    """自保: the declarer may reinforce with a pair of the same suit."""
    allow_self_overturn: bool = True
    """自反: the declarer may overturn himself with a pair of another suit."""
    no_declaration: NoDeclaration = "no-trump"
    """Nobody declared: play no-trump, turn a kitty card, or spades are trump."""
    kitty_card_index: int = 3
    """With ``no_declaration="kitty-card"``: which kitty card (0-based) is turned up."""
    rebury: bool = False
    """反底: after the burial other players may overturn, take the kitty and re-bury."""
    rebury_swap: int = 0
    """反底 takes this many random kitty cards and buries as many (0: the whole kitty)."""
    kitty_shown: int = 0
    """竞标: kitty cards turned up for everyone before the auction."""
    bid_open: int = 150
    """竞标: the highest first bid, and the target when every seat passes."""
    bid_step: int = 5
    """竞标: bids are multiples of this, each at least this much below the last."""
    bid_min: int = 100
    """竞标: the lowest bid (a multiple of ``bid_step``; 0: one step). Half the pack: a
    lower target lets a captured pack move the attackers more than three levels."""
    deal_order: DealOrder = "dealer"
    """Who is dealt the first card: the dealer (the first deal: seat 0), or a seat drawn
    per deal from its seed (四副牌 "发牌顺序：每轮由系统随机决定发牌顺序"); the cards go round
    in play order from it, and so does the declaring window."""
    player_aids: bool = True
    """Hints, the last-trick view and the card counter (记牌器) are offered to the players;
    ``False`` in tournament rooms ("不许查牌、不许提示"). Bots' own memory is untouched."""
    dealer_rotation: DealerRotation = "partner"
    """Dealer side keeps the deal: the dealer's partner deals next, or the same dealer."""
    first_deal_overturn_takes_dealer: bool = False
    """First deal: ``False``, the first declarer deals and an overturn changes trump only
    ("开局中，双方争庄，先亮者为庄家"); ``True``, the final declarer (also by overturning) deals
    ("第一局翻主翻庄", "第一盘反底反桩", "第一局的庄家由翻主方担任")."""
    jack_kitty_reset: bool = False
    """Tournament: dealer side on J loses the last trick to a J → back to 2."""
    level_shares: LevelShares = "equal"
    """找朋友: how the dealer and its friend share the dealer side's levels (RULES.md §8):
    equal halves, ``fixed`` 2/3 to whoever held the last trick, or ``elastic`` 1/3 + 1/3 with
    the last 1/3 as spoils (docs/rules.md)."""
    jack_kitty_penalty: bool = False
    """找朋友 (seed 002 item 5): dealer side on J, attackers take over by capturing the kitty
    with J units → the dealer side goes down 6 / 12 / 18 / 24 / 36 levels."""
    ace_kitty_penalty: bool = False
    """找朋友 (seed 002 item 6): dealer side on A, attackers take over by capturing the kitty
    with an A → the dealer back to J, its friend down 3 levels."""
    level_transfer: LevelTransfer = "off"
    """找朋友 (seed 002 级数不浪费): levels a seat cannot go up because a must-play rank
    stops it are taken off its opponents (``opponents``, then the rest to its partners) or
    given to its partners (``partners``, then the opponents); ``off``: they are lost."""
    takeover_dealer: TakeoverDealer = "next"
    """Who deals after the attackers take over: the old dealer's next attacker (``next``),
    or (seed 002 five players "每个成员获得下一局的亮牌权") the attackers contest it by
    declaring, each with its own level (``attackers-declare``)."""
    friend_rule: FriendRule = "nearest-holder"
    """找朋友: who the call makes the friend. ``nearest-holder`` (seed 002): the seat nearest
    the dealer in play order holding the card at the call; ``nth-played``: the seat playing
    the called copy (1..decks) among the other seats (``core/friend.py``)."""
    triple_follow: TripleFollow = "triple-then-pair"
    """What a triple led alone asks of a follower holding more of the suit: a triple, else
    a pair (``triple-then-pair``, every preset: ♠ led ``SK SK SK``, ``S3 S3 S4 S5`` owes
    ``S3 S3``); a triple only (``triple-only``: ``S3 S4 S5`` may follow); or nothing beyond
    the suit (``free``, the triple is "protected"). Not the default: the ruleset's shape
    table (``follow_order``) gives way for lone-triple leads."""
    tractor_follow: TractorFollow = "tractor-then-pairs"
    """What a tractor asks of a follower: a tractor, else as many pairs
    (``tractor-then-pairs``, every preset: ``SK SK SQ SQ`` owes ``S3 S3 S4 S4``, else
    ``S3 S3 S7 S7``, else ``S3 S3`` + any); as many pairs, a tractor not needed
    (``pairs-only``); a tractor if you hold one, else nothing (``tractor-only``); or only
    the suit (``free``). Not the default: the shape table gives way for tractor leads."""
    friend_call: FriendCallRule = "any"
    """找朋友: which cards the dealer may call: any (``any``), or only a card it holds a copy
    of but not every copy, so the friend holds "the other copy" (``other-copy``: holding one
    ``SA`` of two, call ``SA``); a dealer holding no such card may call any card."""
    deck_points: int = field(default=0, init=False, compare=False)
    """Total points in the pack (100 per deck); derived."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "deck_points", 100 * self.decks)
        self.validate()

    def validate(self) -> None:
        """Refuse values no game can be dealt and played with; the error names the field.

        Every number has a range (hands of at least one card, a kitty that fits, ranks
        2..A), so any ruleset that passes deals, plays and ends (docs/rules.md, decision 135).

        >>> try:
        ...     Ruleset(kitty_size=108)
        ... except RulesetError as e:
        ...     print(e.field, "|", e.message)
        kitty_size | kitty_size must be 0..104 (2 decks, 4 players, a card each), not 108
        """
        _check_range("decks", self.decks, 1, 4)
        _check_range("players", self.players, 3, 6)
        cards = 54 * self.decks
        if not 0 <= self.kitty_size <= cards - self.players:
            raise RulesetError(
                f"kitty_size must be 0..{cards - self.players} ({self.decks} decks, "
                f"{self.players} players, a card each), not {self.kitty_size}",
                "kitty_size",
            )
        if (cards - self.kitty_size) % self.players:
            raise RulesetError(
                f"kitty_size {self.kitty_size} leaves {cards - self.kitty_size} of {cards} "
                f"cards, which do not split evenly among {self.players} players",
                "kitty_size",
            )
        if self.level_table not in LEVEL_TABLES:
            raise RulesetError(
                f"unknown level_table {self.level_table!r}; known: {sorted(LEVEL_TABLES)}",
                "level_table",
            )
        if not self.level_sequence or any(
            not 0 <= r <= JOKER_LEVEL for r in self.level_sequence
        ):
            raise RulesetError(
                "level_sequence must list ranks 2..A (and JK last)", "level_sequence"
            )
        if list(self.level_sequence) != sorted(set(self.level_sequence)):
            raise RulesetError("level_sequence must be increasing", "level_sequence")
        if any(not 0 <= r <= JOKER_LEVEL for r in self.must_play):
            raise RulesetError("must_play must list ranks 2..A or JK", "must_play")
        if len(set(self.must_play)) != len(self.must_play):
            raise RulesetError("must_play must list each rank once", "must_play")
        if self.level_transfer != "off" and self.partnership != "find-friend":
            raise RulesetError(
                "level_transfer applies to find-a-friend games only", "level_transfer"
            )
        _check_range("kitty_cap", self.kitty_cap, 1, MAX_KITTY_CAP)
        _check_range("failed_throw_penalty", self.failed_throw_penalty, 0, 100 * self.decks)
        if self.no_declaration == "kitty-card" and self.kitty_size:
            _check_range("kitty_card_index", self.kitty_card_index, 0, self.kitty_size - 1)
        else:  # unused, but still a card position
            _check_range("kitty_card_index", self.kitty_card_index, 0, cards - 1)
        _check_range("rebury_swap", self.rebury_swap, 0, self.kitty_size)
        _check_range("kitty_shown", self.kitty_shown, 0, self.kitty_size)
        most = 100 * self.decks if self.partnership == "bidding" else MAX_POINTS
        _check_range("bid_step", self.bid_step, 1, most)
        _check_range("bid_open", self.bid_open, self.bid_step, most)
        if self.bid_open % self.bid_step:
            raise RulesetError(
                f"bid_open must be a multiple of bid_step ({self.bid_step}), not {self.bid_open}",
                "bid_open",
            )
        _check_range("bid_min", self.bid_min, 0, self.bid_open)
        if self.bid_min % self.bid_step:
            raise RulesetError(
                f"bid_min must be a multiple of bid_step ({self.bid_step}), not {self.bid_min}",
                "bid_min",
            )
        if self.kitty_formula == "last-trick-transfer" and self.kitty_size:
            raise RulesetError(
                "kitty_formula 'last-trick-transfer' moves the sides' own points and has no "
                f"kitty to score: kitty_size must be 0, not {self.kitty_size}",
                "kitty_formula",
            )
        if self.friend_call == "other-copy" and self.decks < 2:
            raise RulesetError(
                "friend_call 'other-copy' needs two decks or more (one deck has one copy)",
                "friend_call",
            )
        if len(self.name) > 40 or not self.name.isprintable():
            raise RulesetError("name must be at most 40 printable characters", "name")
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise RulesetError(f"{name} must be one of {list(allowed)}", name)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat."""
        return (54 * self.decks - self.kitty_size) // self.players

    @property
    def levels(self) -> LevelTable:
        """The level-progression table."""
        return LEVEL_TABLES[self.level_table]

    @property
    def max_width(self) -> int:
        """Largest tuple possible: one copy per deck (two-colour: two copies per deck)."""
        return self.decks * 2 if self.two_color else self.decks

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; ranks are written in notation (``"A"``)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if not f.init:
                continue
            v = getattr(self, f.name)
            if f.name in ("level_sequence", "must_play"):
                v = [LEVELS[r] for r in v]
            out[f.name] = v
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        """Inverse of ``to_dict``; unknown keys are an error. A key missing from ``data``
        takes its default, except the options in ``STORED_BEFORE``, which take the value
        that reproduces rulesets stored before the option existed (records, rooms)."""
        return Ruleset(**(STORED_BEFORE | _convert(data)))

    def replace(self, options: dict[str, Any]) -> Ruleset:
        """A copy with some options changed; unknown keys are an error."""
        merged = self.to_dict()
        merged.update(_convert(options, base=self))
        return Ruleset.from_dict(merged)


_FIELD_NAMES: Final = {f.name: f for f in dataclasses.fields(Ruleset) if f.init}
_BOOL_FIELDS: Final = {n for n, f in _FIELD_NAMES.items() if f.type in ("bool", bool)}
_INT_FIELDS: Final = {n for n, f in _FIELD_NAMES.items() if f.type in ("int", int)}
_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "throw_policy": ("validated", "others-void", "never"),
    "throw_forced": ("smallest", "structure-first"),
    "kitty_formula": ("power-of-size", "lianzhong", "tournament", "last-trick-transfer"),
    "kitty_throw_units": ("lead", "winner"),
    "deal_order": ("dealer", "random"),
    "follow_order": ("qq", "lianzhong", "four-deck"),
    "declaration": ("classic", "grab", "tournament", "hidden"),
    "no_declaration": ("no-trump", "kitty-card", "spades"),
    "dealer_rotation": ("partner", "same"),
    "partnership": ("fixed", "find-friend", "bidding"),
    "level_shares": ("equal", "fixed", "elastic"),
    "friend_rule": ("nearest-holder", "nth-played"),
    "level_transfer": ("off", "opponents", "partners"),
    "takeover_dealer": ("next", "attackers-declare"),
    "ruff_compare": ("biggest-structure",),
    "triple_follow": ("triple-then-pair", "triple-only", "free"),
    "tractor_follow": ("tractor-then-pairs", "pairs-only", "tractor-only", "free"),
    "friend_call": ("any", "other-copy"),
}

FIELD_CHOICES: Final = _CHOICES
"""The allowed values of every field with a fixed list of them, in the documented order."""


STORED_BEFORE: Final[dict[str, Any]] = {
    "friend_rule": "nth-played",
    "kitty_throw_units": "lead",
    "bid_min": 0,
    "deal_order": "dealer",
    "player_aids": True,
    "triple_follow": "triple-then-pair",
    "tractor_follow": "tractor-then-pairs",
    "friend_call": "any",
}
"""Options added after rulesets were first stored, with the value a stored ruleset that
lacks them was played under (``from_dict`` only: presets and ``Ruleset()`` use the
defaults). Find-a-friend records from before the nearest-holder rule replay as played, and
so do 联众 kitties, 竞标 bids, four-deck deals and tournament rooms from before their
readings (docs/rules.md, Decisions 139–142), and every game from before the house rules
(follow protection, the other-copy call) as today's rules play it."""


def _convert(data: dict[str, Any], base: Ruleset | None = None) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise RulesetError(f"ruleset options must be an object, not {type(data).__name__}")
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key not in _FIELD_NAMES:
            raise RulesetError(
                f"unknown ruleset option {str(key)[:40]!r}; known: {sorted(_FIELD_NAMES)}",
                str(key)[:40],
            )
        if key in ("level_sequence", "must_play"):
            if not isinstance(value, list | tuple) or len(value) > len(LEVELS):
                raise RulesetError(
                    f"{key} must be a list of at most {len(LEVELS)} levels (2..A, JK)", key
                )
            if any(isinstance(v, bool) or not isinstance(v, int | str) for v in value):
                raise RulesetError(f"{key} must list ranks such as \"2\" or \"A\"", key)
            try:
                value = tuple(parse_level(v) if isinstance(v, str) else v for v in value)
            except NotationError as e:
                raise RulesetError(f"{key}: {e.message}", key) from e
        elif key in _BOOL_FIELDS:
            if not isinstance(value, bool):
                raise RulesetError(f"{key} must be true or false, not {_short(value)}", key)
        elif key in _INT_FIELDS:
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesetError(f"{key} must be an integer, not {_short(value)}", key)
        elif key in _CHOICES:
            if value not in _CHOICES[key]:
                raise RulesetError(
                    f"{key} must be one of {list(_CHOICES[key])}, not {_short(value)}", key
                )
        elif not isinstance(value, str):
            raise RulesetError(f"{key} must be a string, not {_short(value)}", key)
        out[key] = value
    return out


def _short(value: Any) -> str:
    """A value as an error message quotes it (long ones cut)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _tournament_sequence() -> tuple[int, ...]:
    return tuple(parse_rank(r) for r in ("2", "5", "10", "J", "Q", "K", "A"))


PRESETS: Final[dict[str, Ruleset]] = {
    "classic": Ruleset(name="classic"),
    "lianzhong": Ruleset(
        name="lianzhong",
        kitty_formula="lianzhong",
        level_table="lianzhong",
        follow_order="lianzhong",
        throw_forced="smallest",  # "其它情况符合两副牌拖拉机规则" (seed 000 §一; Decision 138)
        kitty_throw_units="winner",  # "根据最大一方牌情" (seed 000 §一; Decision 139)
        first_deal_overturn_takes_dealer=True,
    ),
    "bianfeng": Ruleset(
        name="bianfeng",
        kitty_formula="lianzhong",
        follow_order="lianzhong",
        throw_forced="smallest",  # "甩牌失败只能出最小的" (seed 002; Decision 111)
        kitty_throw_units="winner",  # "具体得分根据最大一方牌情规定如下" (seed 002; Decision 139)
        first_deal_overturn_takes_dealer=True,
    ),
    "one-deck": Ruleset(name="one-deck", decks=1, kitty_size=6, level_table="one-deck"),
    "two-color": Ruleset(
        name="two-color", decks=1, kitty_size=6, level_table="one-deck", two_color=True
    ),
    "three-deck": Ruleset(
        name="three-deck",
        decks=3,
        kitty_size=6,
        level_table="three-deck",
        declaration="grab",
        throw_forced="smallest",  # "则其必须出欲联出的牌中的最小牌" (seed 000 §二; Decision 138)
    ),
    "four-deck": Ruleset(
        name="four-deck",
        decks=4,
        kitty_size=0,
        permanent_twos=True,
        level_table="four-deck",
        follow_order="four-deck",
        stronger_shapes_beat=True,
        throw_policy="others-void",
        kitty_formula="last-trick-transfer",
        declaration="hidden",
        allow_self_overturn=False,
        no_declaration="spades",
        deal_order="random",  # "发牌顺序：每轮由系统随机决定发牌顺序" (seed 002; Decision 141)
        first_deal_overturn_takes_dealer=True,
    ),
    "tournament": Ruleset(
        name="tournament",
        level_sequence=_tournament_sequence(),
        must_play=(0, 12),
        failed_throw_penalty=10,
        kitty_formula="tournament",
        level_table="tournament",
        declaration="tournament",
        no_declaration="kitty-card",
        kitty_card_index=0,
        jack_kitty_reset=True,
        allow_self_overturn=False,
        player_aids=False,  # "在比赛过程中任何一方不许查牌、不许提示" (seed 002 十; Decision 140)
        first_deal_overturn_takes_dealer=True,
    ),
    "three-player": Ruleset(
        name="three-player",
        players=3,
        kitty_size=9,
        partnership="bidding",
        throw_policy="never",
        rebury=True,
        rebury_swap=6,
        kitty_shown=3,
        bid_min=100,  # the sheet gives bids (150, 120, 115), no floor (Decision 142)
    ),
    "find-friend": Ruleset(
        name="find-friend",
        kitty_formula="lianzhong",
        follow_order="lianzhong",
        throw_forced="smallest",  # 边锋, as bianfeng (Decision 111)
        kitty_throw_units="winner",  # 边锋, as bianfeng: "根据最大一方牌情" (Decision 139)
        partnership="find-friend",
        first_deal_overturn_takes_dealer=True,
    ),
    "five-player": Ruleset(
        name="five-player",
        decks=3,
        players=5,
        kitty_size=7,
        level_table="three-deck",
        declaration="grab",
        throw_forced="smallest",  # "出牌规则和3副牌升级一致", as three-deck (Decision 138)
        partnership="find-friend",
        level_sequence=(*_FULL_SEQUENCE, JOKER_LEVEL),
        must_play=(parse_rank("J"), parse_rank("A"), JOKER_LEVEL),
        level_shares="fixed",
        jack_kitty_penalty=True,
        ace_kitty_penalty=True,
        dealer_rotation="same",
        level_transfer="opponents",
        takeover_dealer="attackers-declare",
    ),
}
"""The named presets (RULES.md); see ``docs/rules.md`` for where each value comes from."""


def _variant(base: str, name: str, **changes: Any) -> Ruleset:
    """A preset that is another one with some fields changed (it follows the base's readings)."""
    return dataclasses.replace(PRESETS[base], name=name, **changes)


# 欢乐升级 (seed 001/003): the QQ游戏 rules plus 反底 as a standing rule (Decision 113).
PRESETS["huanle"] = _variant("classic", "huanle", rebury=True)
# 联众, three decks (seed 000 §一 3副牌规则): 联众's readings with three decks (Decision 114).
PRESETS["lianzhong-three-deck"] = _variant(
    "lianzhong",
    "lianzhong-three-deck",
    decks=3,
    kitty_size=6,
    level_table="three-deck",
    declaration="grab",
)


@dataclass(frozen=True)
class PresetInfo:
    """Where a preset comes from: the rule sheet it follows, and what a room of it plays for
    unless the room says otherwise (``StakeRules.from_dict`` input; ``kind`` plain: nothing).

    >>> PRESET_INFO["huanle"].stakes["kind"]
    'beans'
    """

    source: str
    """The platform and rule sheet, with its place among the sources (``docs/rules.md``)."""
    stakes: Mapping[str, int | str] = field(default_factory=lambda: {"kind": "plain"})
    """The room's stakes by default."""


PRESET_INFO: Final[dict[str, PresetInfo]] = {
    "classic": PresetInfo("QQ游戏 升级 / 拖拉机, two decks (seed 000 §二)"),
    "lianzhong": PresetInfo("联众 升级, two decks (seed 000 §一)"),
    "bianfeng": PresetInfo("边锋 升级, fixed partners 定 (seed 002, with its 甩牌 explainer)"),
    "one-deck": PresetInfo("one deck, four suits 四花色 (seed 002 一副牌规则; seed 000 §二)"),
    "two-color": PresetInfo("one deck, two colours 两色 (seed 002 两色规则)"),
    "three-deck": PresetInfo("QQ游戏 三副牌, three decks (seed 000 §二 三副牌规则)"),
    "four-deck": PresetInfo("四副牌, four decks (seed 002 §3.4)"),
    "tournament": PresetInfo("the two-deck tournament sheet 比赛规则 (seed 002 一–十二)"),
    "find-friend": PresetInfo("边锋 寻 rooms: the dealer calls a friend (seed 002 挑选对家)"),
    "five-player": PresetInfo("five players, three decks, find a friend (seed 002 变异打法)"),
    "three-player": PresetInfo("three players, two decks, bidding 竞标 (seed 002 三人打法)"),
    "huanle": PresetInfo(
        "欢乐升级, two decks, 反底 and 欢乐豆 (seed 001, seed 003)",
        # the sheet's stakes are 欢乐豆; N and A "根据不同游戏房间而不同": the form's defaults
        {"kind": "beans", "coefficient": 100, "house": 10},
    ),
    "lianzhong-three-deck": PresetInfo("联众 三副牌, three decks (seed 000 §一 3副牌规则)"),
}
"""Every preset's sheet and default stakes: shown by ``/api/meta``, the create-room form and
``docs/rules.md`` §3."""

RESERVED_PRESETS: Final[tuple[str, ...]] = ()
"""Names kept for presets that later issues bring in."""


def preset(name: str = "classic", options: dict[str, Any] | None = None) -> Ruleset:
    """The preset ``name`` with ``options`` overridden; unknown names or keys are errors."""
    if name in RESERVED_PRESETS:
        raise RulesetError(f"preset {name!r} is reserved and not playable yet", "preset")
    base = PRESETS.get(name)
    if base is None:
        raise RulesetError(f"unknown preset {str(name)[:40]!r}; known: {sorted(PRESETS)}", "preset")
    return base.replace(options) if options else base
