// Choices that are more than a button, built from the server's list of this seat's legal
// actions (GameView.options): the friend call (找朋友: a card and which copy) and the bid
// (竞标: the attackers' target). A hint fills them; the player confirms.
import { useEffect, useState } from "preact/hooks";
import { t } from "../i18n.js";
import { Card, RANKS, SuitMark } from "../cards.js";
import * as S from "../store.js";
import { html } from "./html.js";
import { callLabel, callsCopy } from "./labels.js";

const { state } = S;

/** The seat's options of one verb: ``verbOptions("bid")`` → ``[["bid", "120"], ...]``. */
function verbOptions(verb) {
  const g = state.game;
  return (g && g.options ? g.options : [])
    .filter((a) => a.startsWith(verb + " "))
    .map((a) => a.split(" "));
}

/** 找朋友: the dealer names a card (suit and rank, or a joker) and which copy counts; the
 * cards and copies offered are those the server lists as legal calls. */
export function FriendPicker() {
  const calls = verbOptions("call").map(([, nth, card]) => ({ nth: Number(nth), card }));
  const legal = new Set(calls.map((c) => `call ${c.nth} ${c.card}`));
  const cards = new Set(calls.map((c) => c.card));
  const nths = [...new Set(calls.map((c) => c.nth))].sort((a, b) => a - b);
  const suits = ["S", "H", "C", "D"].filter((x) => RANKS.some((r) => cards.has(x + r)));
  const ranks = [...RANKS].reverse().filter((r) => suits.some((x) => cards.has(x + r)));
  const jokers = ["BJ", "LJ"].filter((j) => cards.has(j));
  const sug = state.suggestion && state.suggestion.startsWith("call ") ? state.suggestion.split(" ") : null;
  const [suit, setSuit] = useState("S");
  const [rank, setRank] = useState("A");
  const [joker, setJoker] = useState(null);
  const [nth, setNth] = useState(1);
  useEffect(() => {
    if (!sug) return;
    const card = sug[2];
    setNth(Number(sug[1]));
    if (card === "BJ" || card === "LJ") setJoker(card);
    else {
      setJoker(null);
      setSuit(card[0]);
      setRank(card.slice(1));
    }
  }, [state.suggestion]);
  const card = joker || suit + rank;
  const action = `call ${nth} ${card}`;
  const send = () => {
    S.act(action);
    S.set({ suggestion: null });
  };
  return html`<div class="picker" data-testid="friend-picker">
    <span class="k">${t(callsCopy() ? "friend.pick" : "friend.pick_holder")}</span>
    <span class="seg">${suits.map((x) => html`<button
      class=${"small" + (!joker && suit === x ? " on" : "")} data-testid=${"call-suit-" + x}
      onClick=${() => { setJoker(null); setSuit(x); }}><${SuitMark} suit=${x} fourColor=${state.fourColor} /></button>`)}</span>
    <span class="seg ranks">${ranks.map((r) => html`<button
      class=${"small" + (!joker && rank === r ? " on" : "")} data-testid=${"call-rank-" + r}
      onClick=${() => { setJoker(null); setRank(r); }}>${r}</button>`)}
      ${jokers.map((j) => html`<button class=${"small" + (joker === j ? " on" : "")}
        data-testid=${"call-" + j} onClick=${() => setJoker(j)}>${t("card." + j)}</button>`)}</span>
    ${callsCopy() ? html`<select class="small" data-testid="call-nth" value=${nth} onChange=${(e) => setNth(Number(e.target.value))}>
      ${nths.map((k) => html`<option value=${k}>${t("friend.nth_" + Math.min(k, 4), { card: "" }).trim()}</option>`)}
    </select>` : null}
    <${Card} card=${card} fourColor=${state.fourColor} cls="tiny" />
    <button class="primary" data-testid="call" disabled=${!legal.has(action)} onClick=${send}>
      ${t("action.call_card", { call: callLabel({ nth, card }) })}</button>
  </div>`;
}

/** 竞标: bid one of the targets the server lists as legal now (below the standing bid, in
 * steps), or pass (a button of the action bar). */
export function BidPicker() {
  const options = verbOptions("bid").map(([, x]) => Number(x)).sort((a, b) => b - a);
  const sug = state.suggestion && state.suggestion.startsWith("bid ") ? Number(state.suggestion.split(" ")[1]) : null;
  const [value, setValue] = useState(sug || options[0]);
  useEffect(() => {
    if (sug) setValue(sug);
  }, [state.suggestion]);
  if (!options.length) return null;
  const v = options.includes(value) ? value : options[0];
  return html`<div class="picker" data-testid="bid-picker">
    <span class="k">${t("bid.target")}</span>
    <select data-testid="bid-value" value=${v} onChange=${(e) => setValue(Number(e.target.value))}>
      ${options.map((x) => html`<option value=${x}>${x}</option>`)}
    </select>
    <button class="primary" data-testid="bid" onClick=${() => { S.act(`bid ${v}`); S.set({ suggestion: null }); }}>
      ${t("action.bid_n", { n: v })}</button>
  </div>`;
}
