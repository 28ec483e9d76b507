"""``shengji play`` in the three-player 竞标 game: the auction, naming trump and the burial at
the prompt (an autopilot reading the screen, as in ``test_play.py``)."""

from __future__ import annotations

import io
import re

from shengji.cli.play import play_command
from tests.cli.test_play import Autopilot, args


class Bidder(Autopilot):
    """Bids the highest target allowed (after a typo and a too-high bid), names a bad
    trump once, buries as many cards as asked."""

    def readline(self, size: int | None = -1) -> str:
        text = self.screen.getvalue()
        last = text.rstrip().splitlines()[-1]
        answer: str | None = None
        if last.startswith("bid the attackers' target"):
            most = re.search(r"at most (\d+)", last)
            if "abc" not in self.typed:
                answer = "abc"
            elif "155" not in self.typed:
                answer = "155"
            else:
                answer = most.group(1) if most else "pass"
        elif "pass (Enter)" in last:  # 反底 with nothing to overturn with
            answer = ""
        elif "name trump" in last:
            answer = "H" if "NT" in self.typed else "NT"
        elif re.search(r"bury (\d+) cards", last):
            n = int(re.findall(r"bury (\d+) cards", last)[-1])
            hand = re.findall(r"your hand \(\d+\): (.*)", text)[-1]
            card = re.compile(r"[SHDC](10|[2-9JQKA])|[BL]J")
            cards = [c for c in re.split(r"[ |]+", hand) if card.fullmatch(c)]
            answer = " ".join(cards[-n:])
        if answer is None:
            return super().readline(size)
        self.typed.append(answer)
        self.screen.write(answer + "\n")
        return answer + "\n"


def test_a_three_player_deal_at_the_prompt() -> None:
    screen, err = io.StringIO(), io.StringIO()
    code = play_command(args(preset="three-player", bots="heuristic", seed="1"),
                        Bidder(screen), screen, err)
    text = screen.getvalue()
    assert code == 0 and err.getvalue() == "", text[-2000:]
    assert "kitty shows" in text and "bids: none yet" in text
    assert "not allowed: a bid is a number of points" in text
    assert "not allowed: the first bid is at most 150 points" in text
    assert "Kitty shows" in text and "attackers need" in text  # the narrated auction
    assert "Result:" in text
    assert "#1 deals" in text  # this seed's auction is the player's (the floor is 100)
    if "name trump" in text:
        assert "not allowed: name one of the suits" in text
