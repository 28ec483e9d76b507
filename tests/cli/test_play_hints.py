"""``shengji play`` for a new player (issue 14): seats are labelled so that no label reads
as a card, ``hint`` prints exactly what can be typed back at every prompt (declaring,
burying, bidding, naming trump, calling a friend, playing), and ``--lang zh`` prints no
English."""

from __future__ import annotations

import io
import re

import pytest

from shengji.cli.i18n import CATALOGS, without_hints
from shengji.cli.play import play_command
from tests.cli.test_play import args

CARD = re.compile(r"^(?:[SHDC](?:10|[2-9JQKA])|BJ|LJ)$")


class HintFollower(io.StringIO):
    """At every prompt types ``hint``, then exactly what the hint printed (Enter when the
    hint says to let a declaration go). Records whether anything typed was refused."""

    def __init__(self, screen: io.StringIO) -> None:
        super().__init__()
        self.screen = screen
        self.prompts = 0
        self.hinted = 0
        self.asked = False

    def readline(self, size: int | None = -1) -> str:
        lines = self.screen.getvalue().splitlines()
        if not self.asked:
            self.prompts += 1
            self.asked = True
            answer = "hint"
        else:
            hint = re.fullmatch(r"  (?:hint: |提示：)(.*)", lines[-2])
            assert hint is not None, lines[-3:]
            self.hinted += 1
            self.asked = False
            said = hint.group(1)
            answer = "" if said.startswith(("(", "（")) else said
        self.screen.write(answer + "\n")
        return answer + "\n"


@pytest.mark.parametrize(
    ("preset", "seed", "lang"),
    [("classic", "11", "en"), ("find-friend", "3", "en"), ("three-player", "4", "zh"),
     ("classic", "5", "zh")],
)
def test_every_hint_is_typed_back_and_accepted(preset: str, seed: str, lang: str) -> None:
    screen, err = io.StringIO(), io.StringIO()
    player = HintFollower(screen)
    code = play_command(args(preset=preset, seed=seed, bots="heuristic", lang=lang),
                        player, screen, err)
    text = screen.getvalue()
    assert code == 0 and err.getvalue() == "", text[-1500:]
    assert player.hinted == player.prompts > 10
    assert "not allowed" not in text and "不行" not in text


def _english_words(text: str) -> set[str]:
    # the command, what is typed back, and QQ游戏 (the preset and bot names are Chinese)
    allowed = {"shengji", "play", "hint", "pass", "quit", "QQ", "NT"}
    words = set()
    for token in re.findall(r"[A-Za-z][A-Za-z-]+", text):
        if token in allowed or CARD.match(token) or token in {"S", "H", "D", "C"}:
            continue
        words.add(token)
    return words


def test_chinese_play_prints_no_english() -> None:
    screen, err = io.StringIO(), io.StringIO()
    assert play_command(args(seed="5", bots="heuristic", lang="zh"),
                        HintFollower(screen), screen, err) == 0
    text = screen.getvalue()
    assert "1号（你）" in text or "你是 1号" in text
    assert _english_words(text) == set(), text[:1500]
    refused = io.StringIO()
    inp = io.StringIO("\n" * 40 + "SA SA SA SA\n")
    play_command(args(seed="5", lang="zh"), inp, refused, err)
    assert "不行" in refused.getvalue()


def test_seat_labels_never_read_as_cards() -> None:
    screen, err = io.StringIO(), io.StringIO()
    play_command(args(seed="11", bots="heuristic"), HintFollower(screen), screen, err)
    text = screen.getvalue()
    assert "you are #1 (partner #3)" in text
    for line in text.splitlines():
        if line.startswith("Trick "):
            seats = re.findall(r"(?:^Trick \d+: |\| )(\S+)", line)
            assert seats and all(re.fullmatch(r"#[1-4]", s) for s in seats), line
            assert not re.search(r"\bS[0-3]\b", line.split("->")[1]), line


# ------------------------------------------- tournament: "不许查牌、不许提示" (Decision 140)


class Asker(io.StringIO):
    """Types ``hint`` at each prompt until the ``n``-th, where it quits."""

    def __init__(self, screen: io.StringIO, n: int = 3) -> None:
        super().__init__()
        self.screen, self.n = screen, n

    def readline(self, size: int | None = -1) -> str:
        self.n -= 1
        answer = "hint" if self.n > 0 else "quit"
        self.screen.write(answer + "\n")
        return answer + "\n"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_tournament_table_offers_no_hints(lang: str) -> None:
    screen, err = io.StringIO(), io.StringIO()
    code = play_command(args(preset="tournament", seed="5", lang=lang), Asker(screen), screen,
                        err)
    text = screen.getvalue()
    assert code == 1 and err.getvalue() == ""  # it quit at the third prompt
    refusal = "no hints at this table (不许提示)" if lang == "en" else "本桌不许提示"
    assert text.count(refusal) == 2
    prompts = text.replace("hint\n", "\n").replace(refusal, "")
    assert "hint" not in prompts and "提示" not in prompts, prompts[-800:]


def test_a_room_option_turns_the_hints_off_elsewhere_and_prompts_stay_whole() -> None:
    screen, err = io.StringIO(), io.StringIO()
    play_command(args(options='{"player_aids": false}'), Asker(screen), screen, err)
    assert "no hints at this table" in screen.getvalue()
    on = io.StringIO()
    play_command(args(), Asker(on), on, err)
    assert "no hints at this table" not in on.getvalue() and "  hint: " in on.getvalue()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_prompt_loses_its_hint_offer(lang: str) -> None:
    catalog = CATALOGS[lang]
    for key, text in catalog.items():
        if key.startswith("play.") and not key.startswith(("play.hint", "play.no-")):
            bare = without_hints(text)
            assert "hint" not in bare and "提示" not in bare, key
