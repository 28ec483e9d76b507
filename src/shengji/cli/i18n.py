"""Message catalogs of the command line (``replay``, ``play``): English and Chinese, the same
keys. Seats are labelled so that no label reads as a card (``#1`` / ``1号``, never ``S1``).

Card notation stays canonical in both languages (``SA H10 BJ``); only the words change.

>>> tr("zh", "trick", no=3, plays="1号 SA | 2号 S3", winner="1号", points=0)
'第3轮：1号 SA | 2号 S3 → 1号 赢，得分 0'
>>> tr("en", "seat", n=3)
'#3'
>>> set(EN) == set(ZH)
True
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any, Final

EN: dict[str, str] = {
    "seat": "#{n}",
    "sep": "; ",
    "comma": ", ",
    "team": "team {team} ({seats})",
    "record": "Record: preset {preset}, seed {seed}, {deals}; players {players}",
    "deal": "Deal {no}: dealer {dealer} (with {partners}), level {level}, {trump}{stake}",
    "trump.suit": "trump {suit}",
    "trump.none": "no trump (NT)",
    "suit.0": "S",
    "suit.1": "H",
    "suit.2": "D",
    "suit.3": "C",
    "stake": ", stake x{stake}",
    "declarations": "  Declarations: {items}",
    "declare": "{seat} declares {cards}",
    "overturn": "{seat} overturns with {cards}",
    "reinforce": "{seat} reinforces with {cards}",
    "self-overturn": "{seat} overturns own declaration with {cards}",
    "first-dealer-first": "  First deal: {dealer} declared first and deals; the overturn "
    "changed trump, not the dealer",
    "first-dealer-last": "  First deal: {dealer} overturned and takes the dealer seat",
    "no-declaration": "  Nobody declared",
    "turned": "  Nobody declared; kitty card {card} turned up",
    "kitty": "  Kitty: {seat} picks up {picked}; buries {buried}",
    "rebury": "  {seat} overturns the kitty (re-bury) with {cards}: {trump}{stake}",
    "throw-failed": "  {seat} throw failed: {attempted} -> must play {forced}{penalty}",
    "penalty": " (penalty {penalty})",
    "trick": "Trick {no}: {plays} -> {winner} wins {points} pts",
    "running": ", attackers {total}",
    "kitty-captured": (
        "  Kitty revealed: {cards} ({points} pts); attackers win the last trick: "
        "x{mult} = {gain:+d}"
    ),
    "kitty-kept": "  Kitty revealed: {cards} ({points} pts), kept by the dealer side",
    "kitty-transfer": "  Last trick to the dealer side: attackers {gain:+d}",
    "last-trick-attackers": "  Attackers win the last trick: x{mult} = {gain:+d}",
    "result": "Result: attackers {points} pts; {outcome}",
    "dealer-up": "dealer side goes up {n}",
    "takeover": "attackers take over, no level change",
    "takeover-up": "attackers take over and go up {n}",
    "levels": "Levels: {levels}",
    "level-of": "team {team} on {rank}",
    "seat-level-of": "{seat} on {rank}",
    "friend-called": "  {seat} calls copy {nth} of {card}: whoever else plays it is the friend",
    "friend-called-holder": (
        "  {seat} calls {card}: the holder nearest the dealer is the friend "
        "({friend}, hidden until it plays {card})"
    ),
    "friend-called-alone": "  {seat} calls {card}: no other seat holds one, the dealer plays alone",
    "friend-called-secret": (
        "  {seat} calls {card}: the holder nearest the dealer is the friend, secret until it "
        "plays {card}"
    ),
    "friend-called-you": (
        "  {seat} calls {card}: you hold it nearest the dealer, so you are the friend (secret "
        "until you play it)"
    ),
    "not-friend": "  {seat} plays {card} but is not the friend: a seat nearer the dealer holds one",
    "friend-revealed": "  {seat} plays {card}: the dealer's friend",
    "rights": "  亮牌权: {seats} (the last deal's attackers) declared, each at its own level",
    "winners": "{seats}",
    "auction": "  Kitty shows {shown}; bids: {bids}; {dealer} deals, attackers need {target}",
    "bid": "{seat} {target}",
    "bid-pass": "{seat} passes",
    "attackers-up": "attackers reach the target and go up {n} each",
    "match-over": "Match over after {deals}: {team} wins",
    "match-unfinished": "Match not finished after {deals}",
    "mismatch": "warning: the record's result disagrees with the replay: {diff}",
    "illegal": "error: action {n} ({action}) cannot be replayed: {why}",
    "bad-file": "error: cannot read {file}: {why}",
    "no-such-deal": "error: the record has {deals}; --deal must be 1..{n}",
    "bad-deal": "error: --deal counts from 1",
    "deals.one": "{n} deal",
    "deals.other": "{n} deals",
    "redeal": "Deal {no} is dealt again (the players agreed to reset it)",
    "play.intro": "shengji play: {ruleset}, you are {seat} ({partner}), bots: {bots}. "
    "Type cards like 'SA SA', 'hint', 'pass' or 'quit'.",
    "play.partner": "partner {seat}",
    "play.no-partner": "no fixed partner",
    "play.you": "{seat} (you)",
    "play.bye": "bye",
    "play.error": "shengji play: error: {why}",
    "play.bad-seat": "--seat must be 0..{last} (seat 0 is shown as #1)",
    "play.status": "  [level {level}, trump {trump}, attackers {points} pts] "
    "your hand ({n}): {hand}",
    "play.unknown-trump": "?",
    "play.showed": " ({seat} showed {cards})",
    "play.deals-first": ", {seat} deals",
    "play.group-trump": "trump",
    "play.declare-now": "declare? ({options}; Enter = no, hint): ",
    "play.declare-window": "declare ({options}) or pass (or hint): ",
    "play.declare-none": "nothing to declare: pass (Enter) or hint: ",
    "play.rebury-window": "反底 ({options}) or pass (or hint): ",
    "play.rebury-none": "nothing to overturn the kitty with (反底): pass (Enter) or hint: ",
    "play.nothing": "nothing",
    "play.bury": "kitty was {kitty}; bury {n} cards (or hint): ",
    "play.trick": "  trick: {trick}",
    "play.you-lead": "(you lead)",
    "play.play": "play (or hint): ",
    "play.hint": "  hint: {text}",
    "play.hint-enter": "  hint: (press Enter: do not declare now)",
    "play.no-hint": "  hint: none",
    "play.no-aids": "  no hints at this table (不许提示)",
    "play.bids": "  kitty shows {shown}; bids: {bids}",
    "play.no-bids": "none yet",
    "play.bid-prompt": "bid the attackers' target ({most}, steps of {step}), pass or hint: ",
    "play.at-most": "at most {n}",
    "play.none-left": "none left",
    "play.bid-number": "a bid is a number of points, e.g. 120",
    "play.name-trump": "you deal for {target}: name trump (S, H, D, C) or hint: ",
    "play.call": "call a friend: copy and card, e.g. '1 SA' (or hint): ",
    "play.call-card": "call a friend: a card, e.g. 'SA' — its holder nearest you is the friend "
    "(or hint): ",
    "play.refused": "  not allowed: {why}",
}

ZH: dict[str, str] = {
    "seat": "{n}号",
    "sep": "；",
    "comma": "，",
    "team": "{team}队（{seats}）",
    "record": "对局记录：规则 {preset}，种子 {seed}，共 {deals}；玩家 {players}",
    "deal": "第{no}局：庄家 {dealer}（同伴 {partners}），级牌 {level}，{trump}{stake}",
    "trump.suit": "主 {suit}",
    "trump.none": "无主",
    "suit.0": "黑桃",
    "suit.1": "红桃",
    "suit.2": "方块",
    "suit.3": "梅花",
    "stake": "，倍数 x{stake}",
    "declarations": "  亮主：{items}",
    "declare": "{seat} 亮 {cards}",
    "overturn": "{seat} 反主 {cards}",
    "reinforce": "{seat} 自保 {cards}",
    "self-overturn": "{seat} 自反 {cards}",
    "first-dealer-first": "  首局：{dealer} 先亮为庄家（反主只改主花色，不换庄）",
    "first-dealer-last": "  首局：{dealer} 翻主翻庄",
    "no-declaration": "  无人亮主",
    "turned": "  无人亮主，翻底牌 {card} 定主",
    "kitty": "  底牌：{seat} 拿起 {picked}；扣下 {buried}",
    "rebury": "  {seat} 反底 {cards}：{trump}{stake}",
    "throw-failed": "  {seat} 甩牌失败：{attempted} → 改出 {forced}{penalty}",
    "penalty": "（罚 {penalty} 分）",
    "trick": "第{no}轮：{plays} → {winner} 赢，得分 {points}",
    "running": "，闲家共 {total} 分",
    "kitty-captured": "  亮底：{cards}（{points} 分）；闲家扣底 x{mult}，得分 {gain:+d}",
    "kitty-kept": "  亮底：{cards}（{points} 分），归庄家方",
    "kitty-transfer": "  庄家方赢最后一轮：闲家 {gain:+d} 分",
    "last-trick-attackers": "  闲家赢最后一轮 x{mult}，得分 {gain:+d}",
    "result": "结果：闲家得分 {points}；{outcome}",
    "dealer-up": "庄家方升{n}级",
    "takeover": "闲家上台，不升级",
    "takeover-up": "闲家上台，升{n}级",
    "levels": "级别：{levels}",
    "level-of": "{team}队打 {rank}",
    "seat-level-of": "{seat}打 {rank}",
    "friend-called": "  {seat} 找朋友：第{nth}张 {card}，别家谁出它谁是朋友",
    "friend-called-holder": (
        "  {seat} 找朋友：{card}，按出牌顺序靠近庄家的持有者是朋友（{friend}，出此牌时亮明）"
    ),
    "friend-called-alone": "  {seat} 找朋友：{card}，别家都没有此牌，庄家一打多",
    "friend-called-secret": (
        "  {seat} 找朋友：{card}，按出牌顺序靠近庄家的持有者是朋友（出此牌时亮明）"
    ),
    "friend-called-you": (
        "  {seat} 找朋友：{card}，你是离庄家最近的持有者，你就是朋友（出此牌前别人不知道）"
    ),
    "not-friend": "  {seat} 出 {card}，但不是朋友：离庄家更近的玩家有此牌",
    "friend-revealed": "  {seat} 出 {card}：庄家的朋友",
    "rights": "  亮牌权：{seats}（上一局的闲家）各用自己的级牌亮主",
    "winners": "{seats}",
    "auction": "  亮底 {shown}；竞标：{bids}；{dealer} 坐庄，抓分方须得 {target} 分",
    "bid": "{seat} {target}分",
    "bid-pass": "{seat} 放弃",
    "attackers-up": "抓分方到点，各升{n}级",
    "match-over": "比赛结束（共 {deals}）：{team} 获胜",
    "match-unfinished": "比赛未结束（已打 {deals}）",
    "mismatch": "警告：记录的结果与重放不一致：{diff}",
    "illegal": "错误：第{n}个动作（{action}）无法重放：{why}",
    "bad-file": "错误：无法读取 {file}：{why}",
    "no-such-deal": "错误：记录只有 {deals}；--deal 须在 1..{n} 之间",
    "bad-deal": "错误：--deal 从 1 开始计数",
    "deals.one": "{n} 局",
    "deals.other": "{n} 局",
    "redeal": "第{no}局重新发牌（玩家同意重来）",
    "play.intro": "shengji play：{ruleset}，你是 {seat}（{partner}），机器人：{bots}。"
    "输入牌如 'SA SA'，或 'hint'（提示）、'pass'（不亮）、'quit'（退出）。",
    "play.partner": "对家 {seat}",
    "play.no-partner": "没有固定对家",
    "play.you": "{seat}（你）",
    "play.bye": "再见",
    "play.error": "shengji play：错误：{why}",
    "play.bad-seat": "--seat 须在 0..{last} 之间（0 号位显示为 1号）",
    "play.status": "  [打 {level}，主 {trump}，闲家 {points} 分] 你的手牌（{n} 张）：{hand}",
    "play.unknown-trump": "未定",
    "play.showed": "（{seat} 亮了 {cards}）",
    "play.deals-first": "，{seat} 坐庄",
    "play.group-trump": "主",
    "play.declare-now": "亮主吗？（{options}；回车 = 不亮，hint = 提示）：",
    "play.declare-window": "亮主（{options}）或 pass 不亮（hint = 提示）：",
    "play.declare-none": "没有可亮的牌：pass 不亮（或直接回车；hint = 提示）：",
    "play.rebury-window": "反底（{options}）或 pass 不反（hint = 提示）：",
    "play.rebury-none": "没有可以反底的牌：pass 不反（或直接回车；hint = 提示）：",
    "play.nothing": "无",
    "play.bury": "底牌是 {kitty}；扣 {n} 张（hint = 提示）：",
    "play.trick": "  本轮：{trick}",
    "play.you-lead": "（你首出）",
    "play.play": "出牌（hint = 提示）：",
    "play.hint": "  提示：{text}",
    "play.hint-enter": "  提示：（直接回车：现在不亮）",
    "play.no-hint": "  提示：无",
    "play.no-aids": "  本桌不许提示",
    "play.bids": "  亮出的底牌 {shown}；叫分：{bids}",
    "play.no-bids": "还没人叫",
    "play.bid-prompt": "叫闲家目标分（{most}，每档 {step} 分），pass 不叫，hint 提示：",
    "play.at-most": "最多 {n}",
    "play.none-left": "已无可叫",
    "play.bid-number": "叫分要写一个分数，例如 120",
    "play.name-trump": "你以 {target} 分坐庄：请定主（S 黑桃、H 红桃、D 方块、C 梅花）或 hint：",
    "play.call": "找朋友：第几张哪张牌，例如 '1 SA'（hint = 提示）：",
    "play.call-card": "找朋友：叫一张牌，例如 'SA'，离你最近的持有者就是朋友（hint = 提示）：",
    "play.refused": "  不行：{why}",
}

REASONS_ZH: dict[str, str] = {
    "bad-notation": "这不是牌",
    "impossible-cards": "不可能有这些牌",
    "not-in-hand": "你手里没有这些牌",
    "wrong-count": "出牌张数要和首家一样",
    "must-follow-suit": "有首家的花色必须跟",
    "must-follow-structure": "必须尽量跟首家的对子和拖拉机",
    "mixed-lead": "首家出牌必须是同一花色",
    "throw-not-allowed": "不能这样甩牌",
    "empty-play": "至少出一张牌",
    "bad-ruleset": "这些规则没法打",
    "wrong-phase": "现在不能这样做",
    "not-your-turn": "还没轮到你",
    "bad-declaration": "不能这样亮主",
    "bad-kitty": "扣底的张数或牌不对",
    "bad-bid": "这个叫分不行",
    "bad-call": "不能这样叫朋友",
}
"""Why an input was refused, in Chinese, by ``Reason`` code (English shows the engine's own
words)."""


CATALOGS: dict[str, dict[str, str]] = {"en": EN, "zh": ZH}
"""Catalogs by language code."""


def tr(lang: str, key: str, **fields: Any) -> str:
    """The message ``key`` in ``lang`` with ``fields`` filled in (English if unknown)."""
    return CATALOGS.get(lang, EN)[key].format(**fields)


_HINT_WORDS: Final = (
    (" (or hint)", ""), ("; Enter = no, hint", "; Enter = no"), (", pass or hint", " or pass"),
    (" or hint", ""), ("'hint', ", ""), ("，hint = 提示", ""), ("；hint = 提示", ""),
    ("（hint = 提示）", ""), ("，hint 提示", ""), ("或 hint", ""), ("'hint'（提示）、", ""),
)
"""Where the prompts offer a hint, and what they say without it."""


def without_hints(text: str) -> str:
    """A prompt as a table without hints says it (tournament: "不许提示").

    >>> without_hints(tr("en", "play.play")), without_hints(tr("zh", "play.play"))
    ('play: ', '出牌：')
    """
    for offer, bare in _HINT_WORDS:
        text = text.replace(offer, bare)
    return text


@cache
def _table_words(lang: str) -> dict[str, str]:
    """The browser table's catalog for ``lang`` (its preset and bot names), or nothing."""
    if lang != "zh":
        return {}
    try:
        path = files("shengji") / "web" / "static" / "i18n" / "zh-CN.json"
        words: dict[str, str] = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return words


def named(lang: str, kind: str, name: str) -> str:
    """A preset's or a bot's name as the browser table says it in ``lang`` (``kind``
    ``preset`` or ``bot``); the name itself where it has none (English, a plug-in bot).

    >>> named("zh", "preset", "classic"), named("zh", "bot", "heuristic")
    ('经典 · QQ游戏（两副牌）', '智能机器人')
    >>> named("en", "bot", "heuristic"), named("zh", "bot", "my.module:Bot")
    ('heuristic', 'my.module:Bot')
    """
    return _table_words(lang).get(f"{kind}.{name}", name)


def plural(lang: str, key: str, n: int) -> str:
    """``key.one`` or ``key.other`` with ``n``: ``plural("en", "deals", 1)`` is ``'1 deal'``.

    >>> plural("en", "deals", 2), plural("zh", "deals", 1)
    ('2 deals', '1 局')
    """
    return tr(lang, f"{key}.one" if n == 1 else f"{key}.other", n=n)


def refusal(lang: str, reason: str, message: str) -> str:
    """Why an input was refused, in ``lang``: the engine's words in English, the reason's
    in Chinese (a notation error keeps the engine's words, which quote what was typed).

    >>> refusal("zh", "must-follow-suit", "must follow the led suit while you hold it")
    '有首家的花色必须跟'
    """
    if lang != "zh" or reason not in REASONS_ZH:
        return message
    text = REASONS_ZH[reason]
    return f"{text}（{message}）" if reason == "bad-notation" else text
