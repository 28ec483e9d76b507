"""Message catalogs of the command line (``replay``): English and Chinese, the same keys.

Card notation stays canonical in both languages (``SA H10 BJ``); only the words change.

>>> tr("zh", "trick", no=3, plays="0号 SA | 1号 S3", winner="0号", points=0)
'第3轮：0号 SA | 1号 S3 → 0号 赢，得分 0'
>>> set(EN) == set(ZH)
True
"""

from __future__ import annotations

from typing import Any

EN: dict[str, str] = {
    "seat": "S{seat}",
    "sep": "; ",
    "comma": ", ",
    "team": "team {team} ({seats})",
    "record": "Record: preset {preset}, seed {seed}, {deals} deal(s); players {players}",
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
    "not-friend": "  {seat} plays {card} but is not the friend: a seat nearer the dealer holds one",
    "friend-revealed": "  {seat} plays {card}: the dealer's friend",
    "rights": "  亮牌权: {seats} (the last deal's attackers) declared, each at its own level",
    "winners": "{seats}",
    "auction": "  Kitty shows {shown}; bids: {bids}; {dealer} deals, attackers need {target}",
    "bid": "{seat} {target}",
    "bid-pass": "{seat} passes",
    "attackers-up": "attackers reach the target and go up {n} each",
    "match-over": "Match over after {deals} deal(s): {team} wins",
    "match-unfinished": "Match not finished after {deals} deal(s)",
    "mismatch": "warning: the record's result disagrees with the replay: {diff}",
    "illegal": "error: action {n} ({action}) cannot be replayed: {why}",
    "bad-file": "error: cannot read {file}: {why}",
    "no-such-deal": "error: the record has {deals} deal(s); --deal must be 1..{deals}",
    "bad-deal": "error: --deal counts from 1",
}

ZH: dict[str, str] = {
    "seat": "{seat}号",
    "sep": "；",
    "comma": "，",
    "team": "{team}队（{seats}）",
    "record": "对局记录：规则 {preset}，种子 {seed}，共 {deals} 副；玩家 {players}",
    "deal": "第{no}副：庄家 {dealer}（同伴 {partners}），级牌 {level}，{trump}{stake}",
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
    "not-friend": "  {seat} 出 {card}，但不是朋友：离庄家更近的玩家有此牌",
    "friend-revealed": "  {seat} 出 {card}：庄家的朋友",
    "rights": "  亮牌权：{seats}（上一副的抓分方）各用自己的级牌亮主",
    "winners": "{seats}",
    "auction": "  亮底 {shown}；竞标：{bids}；{dealer} 坐庄，抓分方须得 {target} 分",
    "bid": "{seat} {target}分",
    "bid-pass": "{seat} 放弃",
    "attackers-up": "抓分方到点，各升{n}级",
    "match-over": "比赛结束（共 {deals} 副）：{team} 获胜",
    "match-unfinished": "比赛未结束（已打 {deals} 副）",
    "mismatch": "警告：记录的结果与重放不一致：{diff}",
    "illegal": "错误：第{n}个动作（{action}）无法重放：{why}",
    "bad-file": "错误：无法读取 {file}：{why}",
    "no-such-deal": "错误：记录只有 {deals} 副；--deal 须在 1..{deals} 之间",
    "bad-deal": "错误：--deal 从 1 开始计数",
}

CATALOGS: dict[str, dict[str, str]] = {"en": EN, "zh": ZH}
"""Catalogs by language code."""


def tr(lang: str, key: str, **fields: Any) -> str:
    """The message ``key`` in ``lang`` with ``fields`` filled in (English if unknown)."""
    return CATALOGS.get(lang, EN)[key].format(**fields)
