"""Hypothesis strategies for ruleset options: any field with any value (mostly of the right
type, near the edges), and table shapes (decks, players, a kitty that splits) with random rule
choices. Shared by the core's and the server's property tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from shengji.core.ruleset import _CHOICES, _FIELD_NAMES, LEVEL_TABLES

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _rank_lists() -> st.SearchStrategy[list[Any]]:
    return st.lists(
        st.one_of(st.sampled_from(RANKS), st.integers(-2, 14), st.text(max_size=3)), max_size=6
    )


def _value(name: str, json_safe: bool = False) -> st.SearchStrategy[Any]:
    """Mostly values of the right type near the edges, sometimes anything (``json_safe``: no
    NaN or infinity, which a JSON body cannot carry)."""
    if name in _CHOICES:
        good: st.SearchStrategy[Any] = st.sampled_from(_CHOICES[name])
    elif name == "level_table":
        good = st.sampled_from(sorted(LEVEL_TABLES))
    elif name in ("level_sequence", "must_play"):
        good = st.lists(st.sampled_from(RANKS), min_size=1, max_size=5, unique=True).map(
            lambda rs: sorted(rs, key=RANKS.index)
        )
    elif _FIELD_NAMES[name].type in ("bool", bool):
        good = st.booleans()
    elif _FIELD_NAMES[name].type in ("int", int):
        good = st.one_of(
            *[st.integers(-1, 12)] * 4, st.integers(95, 216), st.sampled_from([2**63, 10**40])
        )
    else:
        good = st.text(max_size=8)
    floats = st.floats(allow_nan=not json_safe, allow_infinity=not json_safe)
    junk = st.one_of(st.none(), floats, st.text(max_size=4), _rank_lists())
    return st.one_of(*[good] * 7, junk)


@st.composite
def option_dicts(draw: st.DrawFn, json_safe: bool = False) -> dict[str, Any]:
    """Random options: any field, any value (mostly of the right type); ``json_safe`` for a
    request body (no NaN or infinity)."""
    names = draw(st.lists(st.sampled_from(sorted(_FIELD_NAMES)), max_size=5, unique=True))
    options = {n: draw(_value(n, json_safe)) for n in names}
    if draw(st.booleans()) and draw(st.booleans()):
        options[draw(st.text(min_size=1, max_size=6))] = 1  # an unknown key, now and then
    return options


@st.composite
def table_shapes(draw: st.DrawFn) -> dict[str, Any]:
    """Decks, players and a kitty that splits (often at the edges: no kitty, one-card hands),
    with random rule choices over them: mostly rulesets that should play."""
    decks, players = draw(st.integers(1, 4)), draw(st.integers(3, 6))
    cards = 54 * decks
    kitties = [k for k in range(cards - players + 1) if (cards - k) % players == 0]
    kitty = draw(st.one_of(st.sampled_from(kitties[:2] + kitties[-2:]), st.sampled_from(kitties)))
    options: dict[str, Any] = {"decks": decks, "players": players, "kitty_size": kitty}
    for name in draw(st.lists(st.sampled_from(sorted(_CHOICES)), max_size=4, unique=True)):
        options[name] = draw(st.sampled_from(_CHOICES[name]))
    bools = [n for n, f in _FIELD_NAMES.items() if f.type in ("bool", bool)]
    for name in draw(st.lists(st.sampled_from(sorted(bools)), max_size=4, unique=True)):
        options[name] = draw(st.booleans())
    return options
