// The felt while a match is played: the seat plates, the trick, the 竞标 board (kitty cards
// shown to all, the winning bid), the prompt line (whose turn, what to do) and the kitty's
// backs while another seat buries. Between matches the waiting room takes its place.
import { t } from "../i18n.js";
import { Card, CardBack, splitCards } from "../cards.js";
import { state } from "../store.js";
import { html } from "./html.js";
import { callsCopy, levelLabel, seatName, seatShort } from "./labels.js";
import { SeatPlate } from "./seats.js";
import { TrickArea } from "./trick.js";
import { WaitingRoom } from "./waiting.js";

export function Felt() {
  const room = state.room;
  const g = state.game;
  const n = room.ruleset.players;
  if (room.status === "waiting" || !g) return html`<${WaitingRoom} />`;
  return html`<div class=${"felt n" + n} data-testid="felt">
    ${room.seats.map((s) => html`<${SeatPlate} key=${s.seat} i=${s.seat} n=${n} />`)}
    <${TrickArea} />
    ${["bidding", "naming"].includes(g.phase) ? html`<${AuctionBoard} />` : null}
    <div class="prompt" data-testid="prompt">${phasePrompt()}</div>
    ${g.kitty_holder != null && g.phase === "burying" && g.kitty_holder !== state.seat
      ? html`<div class="kittybacks">${Array.from({ length: g.bury_count }).map(() => html`<${CardBack} cls="tiny" />`)}</div>` : null}
  </div>`;
}

/** 竞标: the kitty cards shown to everyone and the winning bid, in the middle of the felt. */
function AuctionBoard() {
  const g = state.game;
  const shown = splitCards(g.shown);
  return html`<div class="auction" data-testid="auction">
    ${shown.length ? html`<div class="k">${t("bid.shown")}</div>
      <div class="cards" data-testid="shown">${shown.map((c) => html`<${Card} card=${c} fourColor=${state.fourColor} cls="tiny" />`)}</div>` : null}
    ${g.target ? html`<div class="k">${t("bid.won", { name: seatName(g.dealer), n: g.target })}</div>` : null}
  </div>`;
}

/** The prompt line: what this seat is asked to do, or whom the table waits for. */
function phasePrompt() {
  const g = state.game;
  if (!g) return "";
  const me = state.seat;
  const turn = g.to_act === me && me != null;
  const waiting = () => t("prompt.waiting_for", { name: seatName(g.to_act) });
  switch (g.phase) {
    case "dealing":
      if (g.rights && g.rights.length && g.dealer == null) {
        // 亮牌权: only last deal's attackers declare, each with its own level
        return t(g.rights.includes(me) ? "prompt.dealing_rights" : "prompt.dealing_others", {
          n: g.cards_dealt, lv: levelLabel(g.declare_level || g.level),
          names: g.rights.map(seatShort).join(" ") });
      }
      return t("prompt.dealing", { n: g.cards_dealt });
    case "declaring":
      return turn ? t("prompt.declare_window") : waiting();
    case "burying":
      return turn ? t("prompt.bury", { n: g.bury_count, k: state.selected.length })
        : t("prompt.burying", { name: seatName(g.to_act) });
    case "rebury":
      return turn ? t("prompt.rebury") : waiting();
    case "bidding":
      return turn ? t("prompt.your_bid", { n: g.bid_ceiling }) : t("prompt.bidding", { name: seatName(g.to_act) });
    case "naming":
      return turn ? t("prompt.name_trump") : t("prompt.naming", { name: seatName(g.to_act) });
    case "calling":
      if (!turn) return t("prompt.calling", { name: seatName(g.to_act) });
      return t(callsCopy() ? "prompt.call_friend_copy" : "prompt.call_friend");
    case "playing":
      if (turn) return g.trick.length ? t("prompt.your_follow") : t("prompt.your_lead");
      return waiting();
    case "done":
      return t("prompt.deal_over");
    default:
      return "";
  }
}
