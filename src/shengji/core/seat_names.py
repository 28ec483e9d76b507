"""A seat's display name, the one place that makes it: a player's own name, or a bot's
level name with its seat number, so that four bots of one level read as four players.

The table, the deal summary, the match end, the lobby, the history, the replay and the CLI
all show seats this way; the browser's ``displayName`` (``web/static/ui/labels.js``) takes
the same data and its words are checked against ``BOT_LEVELS`` by a test.

>>> display_name(1, "normal", "normal"), display_name(1, "normal", "normal", "zh")
('Normal (seat 2)', '普通·2号')
>>> display_name(0, "Alice"), display_name(3, None)
('Alice', 'Seat 4')
>>> record_name(["Alice", "heuristic", "normal", "search:300"], 3, "zh")
'搜索·4号'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

BOT_LEVELS: Final[dict[str, tuple[str, str]]] = {
    "beginner": ("Beginner", "新手"),
    "normal": ("Normal", "普通"),
    "expert": ("Expert", "高手"),
    "random": ("Random", "随机"),
    "heuristic": ("Heuristic", "智能"),
    "search": ("Search", "搜索"),
}
"""A bot's level name in English and Chinese, by its registry name (a spec's part before
``:``, so ``search:300`` is a search bot)."""

LANGS: Final = ("en", "zh")


def _lang(lang: str) -> int:
    """0 for English, 1 for Chinese (``zh``, ``zh-CN``); ``ValueError`` for others."""
    if lang == "en":
        return 0
    if lang.startswith("zh"):
        return 1
    raise ValueError(f"no seat names in {lang!r}; known: {', '.join(LANGS)}")


def bot_level(spec: str) -> str | None:
    """The level a bot spec names (``"search:300"`` → ``"search"``); None if not a bot's."""
    base = spec.split(":", 1)[0].strip().lower()
    return base if base in BOT_LEVELS else None


def level_name(spec: str, lang: str = "en") -> str:
    """A bot's level in words: ``level_name("normal", "zh") == "普通"``; an unknown spec
    (a plug-in) is shown as it is."""
    level = bot_level(spec)
    return spec if level is None else BOT_LEVELS[level][_lang(lang)]


def display_name(seat: int, name: str | None, bot: str | None = None, lang: str = "en") -> str:
    """How seat ``seat`` (0-based) is shown: the player's ``name``; a bot (``bot``: its spec)
    as its level and seat number; an empty seat as its number."""
    i = _lang(lang)
    if bot:
        level = level_name(bot, lang)
        return f"{level}·{seat + 1}号" if i else f"{level} (seat {seat + 1})"
    if name:
        return name
    return f"{seat + 1}号位" if i else f"Seat {seat + 1}"


def record_name(names: Sequence[str | None], seat: int, lang: str = "en") -> str:
    """A seat's display name from the names a game record keeps (a bot is kept as its spec:
    ``"normal"``); a human named like a bot level reads as that bot."""
    raw = names[seat] if 0 <= seat < len(names) else None
    if raw and bot_level(raw) is not None:
        return display_name(seat, None, raw, lang)
    return display_name(seat, raw, None, lang)


def team_display_name(team: int, lang: str = "en", mine: bool = False) -> str:
    """A fixed-partner team: ``"Your team"`` / ``"我方"`` or ``"Team 2"`` / ``"2队"``."""
    if mine:
        return "我方" if _lang(lang) else "Your team"
    return f"{team + 1}队" if _lang(lang) else f"Team {team + 1}"
