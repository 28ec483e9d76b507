"""The zh-CN and English catalogs of the browser table say the same things."""

from __future__ import annotations

import json
import re
from pathlib import Path

from shengji.bots.registry import bot_names
from shengji.core.errors import Reason
from shengji.core.ruleset import PRESETS, RESERVED_PRESETS

STATIC = Path(__file__).resolve().parents[2] / "src" / "shengji" / "web" / "static"


def _catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def test_both_catalogs_have_the_same_keys_and_placeholders() -> None:
    en, zh = _catalog("en"), _catalog("zh-CN")
    assert sorted(en) == sorted(zh), set(en) ^ set(zh)
    for key in en:
        assert en[key].strip() and zh[key].strip(), key
        assert set(re.findall(r"\{(\w+)\}", en[key])) == set(re.findall(r"\{(\w+)\}", zh[key])), key


def test_every_key_the_code_asks_for_is_in_the_catalogs() -> None:
    en = _catalog("en")
    code = "\n".join(p.read_text("utf-8") for p in STATIC.rglob("*.js") if "vendor" not in p.parts)
    used = set(re.findall(r"""\bt\(\s*"([\w.-]+)"\s*[,)]""", code))
    for key in re.findall(r"""\btn\(\s*"([\w.-]+)"\s*,""", code):  # counted texts
        used |= {f"{key}.one", f"{key}.other"}
    used |= set(re.findall(r"""key: "([\w.-]+)\"""", code))
    used.discard("key")  # the example in i18n.js
    assert len(used) > 50
    # keys made from game data: presets, bots, refusal reasons, suits, statuses
    presets = {*PRESETS, *RESERVED_PRESETS}  # the create-room form lists them all
    used |= {f"preset.{p}" for p in presets} | {f"preset_desc.{p}" for p in presets}
    used |= {f"bot.{b}" for b in bot_names()}
    used |= {f"reason.{r.value}" for r in Reason}
    used |= {f"suit.{s}" for s in "SHDC"} | {"status.waiting", "status.playing"}
    used |= {"action.play", "action.declare", "action.bury"}
    assert sorted(used - set(en)) == []


def test_keys_made_from_data_are_in_the_catalogs() -> None:
    """Keys the code builds from values: settings choices, vote outcomes."""
    en = _catalog("en")
    made = {f"settings.cardSize.{v}" for v in ("small", "medium", "large")}
    made |= {f"settings.handOrder.{v}" for v in ("server", "trumps-right", "suits")}
    made |= {f"settings.lang.{v}" for v in ("zh-CN", "en")}
    made |= {f"vote.{v}" for v in ("passed", "refused", "void")}
    parts = ("tricks", "penalty", "kitty", "kitty_kept", "transfer_won", "transfer_lost")
    made |= {f"summary.part.{v}" for v in parts} | {"summary.penalty_jack", "summary.penalty_ace"}
    chat = (STATIC / "ui" / "chat.js").read_text("utf-8")
    phrases = re.search(r"PHRASES = \[([^\]]*)\]", chat)
    assert phrases is not None
    made |= {f"quick.{k}" for k in re.findall(r'"(\w+)"', phrases.group(1))}
    assert sorted(made - set(en)) == []


def test_a_deal_is_one_word_in_chinese() -> None:
    """局 everywhere for a deal (副 is a deck of cards), 不叫 to pass in the auction."""
    zh = _catalog("zh-CN")
    assert zh["action.pass_bid"] == "不叫" and zh["info.deal_n"] == "第{n}局"
    for key, text in zh.items():
        assert "第几局" not in text and "盘" not in text, key
        assert not re.search(r"第\{?\w*\}?副", text), key
        assert not re.search(r"[上下这每]一?副(?!牌)", text), key  # 上一副 is the last deal: 上一局


def test_no_word_is_said_twice() -> None:
    """A slip like "asks to deal deal 3 again" in either catalog."""
    for lang in ("en", "zh-CN"):
        for key, text in _catalog(lang).items():
            assert not re.search(r"\b([A-Za-z]{2,}) \1\b", text), (lang, key, text)


ZH_LATIN_ALLOWED = frozenset(
    {"English", "QQ", "Enter", "Esc", "venv", "bin", "shengji", "serve", "host"}
)
"""Latin words a Chinese text may hold: a language's own name, a brand, key names and a
command to type. Card names (J, Q, K, A) are single letters and always allowed."""


def test_the_chinese_catalog_says_nothing_in_english() -> None:
    """No English word (nor a "seed §" reference) inside the Chinese page."""
    for key, text in _catalog("zh-CN").items():
        words = set(re.findall(r"[A-Za-z]{2,}", re.sub(r"\{\w+\}", "", text)))
        assert words <= ZH_LATIN_ALLOWED, (key, text, sorted(words - ZH_LATIN_ALLOWED))
        assert "§" not in text and "seed" not in text, (key, text)


def test_the_browser_names_seats_as_the_seat_names_module_does() -> None:
    """labels.js ``displayName`` takes its words from the catalogs: the bot levels and the
    formats must be core/seat_names.py's."""
    from shengji.core.seat_names import BOT_LEVELS, display_name

    for lang, i, short in (("en", 0, "en"), ("zh-CN", 1, "zh")):
        cat = _catalog(lang)
        for spec, words in BOT_LEVELS.items():
            assert cat[f"botname.{spec}"] == words[i], (lang, spec)
            shown = cat["seat.bot"].format(level=words[i], n=3)
            assert shown == display_name(2, None, spec, short), (lang, spec)
        assert cat["seat.n"].format(n=4) == display_name(3, None, None, short)


def test_english_teams_take_a_singular_verb() -> None:
    """"Your team goes up 1 level", "Team 2 takes over the deal"."""
    en = _catalog("en")
    for key, text in en.items():
        if text.startswith("{team} "):
            verb = text.split()[1]
            assert verb.endswith("s"), (key, text)
