"""``shengji play``: a whole deal typed at the prompt (by an autopilot reading the screen)."""

from __future__ import annotations

import io
import re
from types import SimpleNamespace

from shengji.cli.play import play_command


class Autopilot(io.StringIO):
    """Answers the prompts written to ``screen`` the way a patient player would."""

    def __init__(self, screen: io.StringIO) -> None:
        super().__init__()
        self.screen = screen
        self.typed: list[str] = []
        self.bad_once = False

    def readline(self, size: int | None = -1) -> str:
        text = self.screen.getvalue()
        last = text.rstrip().splitlines()[-1]
        if last.startswith("declare?"):
            answer = ""
        elif "or pass" in last:
            answer = "pass"
        elif "bury" in last:
            hand = re.findall(r"your hand \(\d+\): (.*)", text)[-1]
            card = re.compile(r"[SHDC](10|[2-9JQKA])|[BL]J")
            cards = [c for c in re.split(r"[ |]+", hand) if card.fullmatch(c)]
            answer = " ".join(cards[-8:])
        elif last.startswith("play"):
            if not self.bad_once:
                self.bad_once = True
                answer = "XX"  # a typo is refused, then the game goes on
            else:
                hints = re.findall(r"hint: (.*)", text)
                asked = text.rstrip().endswith("hint") or (self.typed and self.typed[-1] == "hint")
                answer = hints[-1] if asked and hints else "hint"
        else:
            answer = "quit"
        self.typed.append(answer)
        self.screen.write(answer + "\n")
        return answer + "\n"


def args(**kw: object) -> SimpleNamespace:
    base = {"preset": "classic", "options": None, "seat": 0, "bots": "random", "deals": 1,
            "seed": "11", "lang": "en"}
    base.update(kw)
    return SimpleNamespace(**base)


def test_a_whole_deal_can_be_played_at_the_prompt() -> None:
    screen = io.StringIO()
    err = io.StringIO()
    assert play_command(args(), Autopilot(screen), screen, err) == 0
    text = screen.getvalue()
    assert "not allowed: bad card 'XX'" in text
    assert "Trick 25:" in text or "Result:" in text
    assert "Result:" in text and err.getvalue() == ""


def test_quit_and_bad_arguments() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert play_command(args(), io.StringIO("quit\n"), out, err) == 1
    assert out.getvalue().endswith("bye\n")
    assert play_command(args(preset="nope"), io.StringIO(), out, err) == 2
    assert play_command(args(seat=7), io.StringIO(), out, err) == 2
    assert "--seat" in err.getvalue()


def test_the_bots_default_to_normal_and_are_named_by_seat() -> None:
    from shengji.cli.main import build_parser

    parsed = build_parser().parse_args(["play"])
    assert parsed.bots == "normal"
    screen = io.StringIO()
    inp = io.StringIO("quit\n")
    play_command(args(bots="normal", lang="zh"), inp, screen, io.StringIO())
    intro = screen.getvalue().splitlines()[0]
    assert "普通·2号，普通·3号，普通·4号" in intro, intro
