"""Dataclasses whose ``__init__`` is written out stay the dataclasses they were (issue 17).

The engine's most built values (``Play``, ``Unit``, ``Lead``, ``TrickRecord``, ``Declaration``,
``Played`` …) and the table's per action (``TableFacts``, ``MatchState``, ``Outbox``, the
effects ``Send``, ``Write``, ``Record`` …) write their ``__init__`` by hand: mypyc compiles
a written one, while the one ``@dataclass`` generates runs interpreted (about six times
slower per object in the compiled build). These tests hold each written ``__init__`` to
what ``@dataclass`` would have made: the same parameters in field order with the same
defaults, every field set from its argument, and a frozen class still frozen.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from typing import Any

import pytest

import shengji.core
from shengji.bots.build import compiled
from shengji.core.actions import Play
from shengji.core.cards import parse_cards as p

pytestmark = pytest.mark.skipif(
    compiled(), reason="reads the written __init__s' source, which a compiled build has not"
)


def _modules() -> list[str]:
    """The modules the compiled build compiles whose classes are built per action."""
    names = [f"shengji.core.{i.name}" for i in pkgutil.iter_modules(shengji.core.__path__)]
    table = importlib.import_module("shengji.server.table")
    names += [f"shengji.server.table.{i.name}" for i in pkgutil.iter_modules(table.__path__)]
    return [*names, "shengji.server.live.backlog"]


def _written_inits() -> list[type[Any]]:
    """Every dataclass of ``_modules()`` whose ``__init__`` is written in its module."""
    found: dict[str, type[Any]] = {}
    for name in _modules():
        module = importlib.import_module(name)
        for cls in vars(module).values():
            if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
                continue
            if cls.__module__ != module.__name__ or "__init__" not in vars(cls):
                continue
            code = getattr(vars(cls)["__init__"], "__code__", None)
            if code is not None and code.co_filename == getattr(module, "__file__", None):
                found[f"{name}.{cls.__qualname__}"] = cls
    return [found[key] for key in sorted(found)]


WRITTEN = _written_inits()


def test_the_hot_classes_write_their_init() -> None:
    names = {cls.__name__ for cls in WRITTEN}
    assert {"Play", "Declare", "Unit", "Lead", "TrickRecord", "DealResult", "Declaration",
            "Played", "TrickWon", "CardDealt", "TableFacts", "SharedFacts", "MatchState",
            "Outbox", "Send", "Write", "Record", "LogRecords", "Kept", "ActionLog"} <= names


@pytest.mark.parametrize("cls", WRITTEN, ids=lambda c: c.__name__)
def test_a_written_init_takes_the_fields_in_order_with_their_defaults(cls: type[Any]) -> None:
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = [f for f in dataclasses.fields(cls) if f.init]
    assert [q.name for q in params] == [f.name for f in fields]
    for q, f in zip(params, fields, strict=True):
        assert q.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        expected = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        assert q.default == expected, f.name


@pytest.mark.parametrize("cls", WRITTEN, ids=lambda c: c.__name__)
def test_a_written_init_sets_every_field_from_its_argument(cls: type[Any]) -> None:
    fields = [f for f in dataclasses.fields(cls) if f.init]
    values = [object() for _ in fields]
    made = cls(*values)
    assert [getattr(made, f.name) for f in fields] == values
    by_name = cls(**{f.name: v for f, v in zip(fields, values, strict=True)})
    assert [getattr(by_name, f.name) for f in fields] == values
    if cls.__dataclass_params__.frozen:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, fields[0].name, None)


def test_a_written_init_keeps_equality_hash_replace_and_repr() -> None:
    play = Play(2, tuple(p("SA SA")))
    assert play == Play(seat=2, cards=tuple(p("SA SA")))
    assert hash(play) == hash(Play(2, tuple(p("SA SA"))))
    assert dataclasses.replace(play, seat=3) == Play(3, play.cards)
    assert repr(play) == f"Play(seat=2, cards={play.cards!r})"
