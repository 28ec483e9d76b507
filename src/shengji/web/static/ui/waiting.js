// The waiting room between matches: the room's preset, pace and link, each seat (sit, add or
// remove a bot, stand; away marks), readiness. Seat controls that only the room's owner may
// use (move a player to the spectators, put a bot in their seat) are in SeatControls.
import { useEffect, useState } from "preact/hooks";
import { t, tn } from "../i18n.js";
import * as S from "../store.js";
import { html } from "./html.js";
import { aidsOff, isAway, onLoopback, roomLink, seatName, teams } from "./labels.js";
import { LevelSequence, isShortSequence } from "./levels.js";
import { RulesDiff } from "./house_rules.js";

const { state } = S;

export function WaitingRoom() {
  const room = state.room;
  const me = state.seat;
  const mine = me != null ? room.seats[me] : null;
  const empty = room.seats.filter((s) => s.kind === "empty").length;
  const tm = teams();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    S.loadMeta().catch(() => {});
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(roomLink(room.code));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const fill = () => room.seats.forEach((s) => s.kind === "empty" && s.seat !== me &&
    S.send({ t: "add_bot", seat: s.seat, bot: "heuristic" }));
  return html`<div class="felt waitroom" data-testid="waiting">
    <div class="wcard winfo">
      <h2>${t("preset." + room.preset)}</h2>
      <p class="muted small">${t("preset_desc." + room.preset)}
        ${room.max_deals ? " " + tn("room.max_deals", room.max_deals) : ""}</p>
      <p class="muted small" data-testid="room-pace">${paceLine(room.options)}</p>
      ${aidsOff() ? html`<p class="small" data-testid="room-no-aids">${t("room.no_aids")}</p>` : null}
      ${isShortSequence(room.ruleset.level_sequence) ? html`<p class="small"><${LevelSequence} seq=${room.ruleset.level_sequence} /></p>` : null}
      <${RulesDiff} room=${room} />
      <div class="row">
        <input class="link" readonly value=${roomLink(room.code)} data-testid="room-link"
          onFocus=${(e) => e.target.select()} />
        <button class="small" onClick=${copy}>${copied ? t("room.copied") : t("room.copy")}</button>
      </div>
      ${me == null ? html`<p>${t("room.pick_seat")}</p>` : null}
      <div class="row">
        ${empty > 0 && isOwner() ? html`<button data-testid="fill-bots-btn" onClick=${fill}>${t("room.fill_bots")}</button>` : null}
        ${mine ? html`<button class=${mine.ready ? "" : "primary"} data-testid="ready"
          onClick=${() => S.send({ t: "ready", ready: !mine.ready })}>
          ${mine.ready ? t("room.not_ready") : t("room.ready")}</button>` : null}
      </div>
      ${isOwner() && onLoopback() && state.meta && state.meta.local_only ? html`<p class="muted small" data-testid="local-only">${t("room.local_only")}</p>` : null}
      <p class="muted small">${empty ? tn("room.need_seats", empty) : t("room.need_ready")}
        ${empty && !isOwner() ? " " + t("room.owner_only") : ""}</p>
    </div>
    <div class=${"wseats n" + room.seats.length}>
      ${room.seats.map((s) => html`<div key=${s.seat} data-testid=${"seat-" + s.seat}
          class=${"wcard wseat" + (s.seat === me ? " mine" : "") + (s.kind === "empty" ? " empty" : "")}>
        <div class="whead">
          <span class="muted small">${t("seat.n", { n: s.seat + 1 })}${tm.length ? " · " + t("team.n", { n: tm[s.seat] + 1 }) : ""}</span>
          ${s.kind === "human" && s.ready ? html`<span class="badge ok">${t("badge.ready")}</span>` : null}
          ${isAway(s.seat) ? html`<span class="badge away" data-testid=${"away-" + s.seat}>${t("badge.away")}</span>` : null}
        </div>
        <div class="wname">${s.kind === "empty" ? html`<span class="muted">${t("seat.empty")}</span>` : seatName(s.seat)}
          ${s.seat === me ? html` <small class="muted">(${t("seat.you")})</small>` : null}</div>
        <${SeatControls} i=${s.seat} s=${s} />
      </div>`)}
    </div>
  </div>`;
}

/** The room's pace in words: the turn timer (or none) and the summary's wait. */
function paceLine(o) {
  if (!o || o.turn_s == null) return "";
  const turn = o.turn_s > 0 ? t("room.pace_turn", { n: o.turn_s, m: o.long_turn_s || o.turn_s })
    : t("room.pace_no_timer");
  return o.next_deal_s > 0 ? `${turn} · ${t("room.pace_next", { n: o.next_deal_s })}` : turn;
}

/** What can be done with one seat of the waiting room: sit or seat a bot (empty), remove
 * the bot, or stand up (my own seat). */
/** Whether I have the room owner's rights (bots, moving others out of seats); a room
 * without an owner gives them to everyone. */
function isOwner() {
  const room = state.room;
  if (!room) return false;
  return room.owner == null || (state.player != null && room.owner === state.player.id);
}

function SeatControls({ i, s }) {
  const [bot, setBot] = useState("heuristic");
  const bots = (state.meta ? state.meta.bots : ["random", "heuristic"]).filter((b) => b !== "search");
  const owner = isOwner();
  if (s.kind === "empty") {
    return html`<div class="seatctl">
      <button class="small" data-testid=${"sit-" + i}
        onClick=${() => S.send({ t: "sit", seat: i })}>${t("seat.sit")}</button>
      ${owner ? html`<select class="small" data-testid=${"bot-level-" + i} value=${bot}
        onChange=${(e) => setBot(e.target.value)}>
        ${bots.map((b) => html`<option value=${b}>${t("bot." + b)}</option>`)}
      </select>
      <button class="small" data-testid=${"add-bot-" + i}
        onClick=${() => S.send({ t: "add_bot", seat: i, bot })}>${t("seat.add_bot")}</button>` : null}
    </div>`;
  }
  if (s.kind === "bot") {
    if (!owner) return null;
    return html`<div class="seatctl"><button class="small" data-testid=${"remove-bot-" + i}
      onClick=${() => S.send({ t: "remove_bot", seat: i })}>${t("seat.remove_bot")}</button></div>`;
  }
  if (state.seat === i) {
    return html`<div class="seatctl"><button class="small" data-testid="stand"
      onClick=${() => S.send({ t: "stand" })}>${t("seat.stand")}</button></div>`;
  }
  if (owner && s.kind === "human") {
    const botIn = () => {  // move the player to the spectators, then seat a bot there
      S.send({ t: "unseat", seat: i });
      S.send({ t: "add_bot", seat: i, bot });
    };
    return html`<div class="seatctl"><button class="small" data-testid=${"unseat-" + i}
      onClick=${() => S.send({ t: "unseat", seat: i })}>${t("seat.unseat")}</button>
      <button class="small" data-testid=${"bot-in-" + i} onClick=${botIn}>${t("seat.bot_in")}</button></div>`;
  }
  return null;
}
