// Stakes of a room (积分 / 游戏币 / 欢乐豆): the create-room fields and a room's label.
// The server side is src/shengji/server/live/stakes.py; the rules are docs/rules.md 75-87, 120-129.
import { h } from "preact";
import htm from "htm";
import { t } from "./i18n.js";

const html = htm.bind(h);

export const STAKE_KINDS = ["plain", "rating", "coins", "beans"];

/** The form's starting values (strings, as the inputs hold them); ``doubling`` null follows
 * the sheets: on for 欢乐豆, off for coins and ratings (docs/rules.md Decision 120). */
export const NO_STAKES = { kind: "plain", coefficient: "100", house: "10", slam: "", doubling: null };

/** Whether each 反主/反底 doubles X in a room of this kind unless its creator says otherwise. */
export function doublingByDefault(kind) {
  return kind === "beans";
}

/** The create-room form's stakes fields: ``value`` shaped like NO_STAKES, ``onChange(next)``. */
export function StakesFields({ value, onChange }) {
  const set = (key) => (e) => onChange({ ...value, [key]: e.target.value });
  const money = value.kind === "coins" || value.kind === "beans";
  const slam = value.kind === "rating" || value.kind === "beans";
  const doubling = value.doubling ?? doublingByDefault(value.kind);
  return html`<div data-testid="stakes-fields"><div class="grid2">
    <label>${t("stakes.kind")}
      <select data-testid="stakes-kind" value=${value.kind}
        onChange=${(e) => onChange({ ...value, kind: e.target.value, doubling: null })}>
        ${STAKE_KINDS.map((k) => html`<option value=${k}>${t("stakes.kind." + k)}</option>`)}
      </select>
    </label>
    ${money ? html`<label>${t("stakes.coefficient")}
      <input type="number" min="1" data-testid="stakes-n" value=${value.coefficient}
        onInput=${set("coefficient")} /></label>` : null}
    ${value.kind === "beans" ? html`<label>${t("stakes.house")}
      <input type="number" min="0" data-testid="stakes-a" value=${value.house}
        onInput=${set("house")} /></label>` : null}
    ${slam ? html`<label>${t("stakes.slam")}
      <input type="number" min="1" max="100" placeholder=${t("stakes.slam_default")}
        data-testid="stakes-slam" value=${value.slam} onInput=${set("slam")} /></label>` : null}
  </div>
  ${value.kind !== "plain" ? html`<label class="check"><input type="checkbox"
      data-testid="stakes-doubling" checked=${doubling}
      onChange=${(e) => onChange({ ...value, doubling: e.target.checked })} />
    ${t("stakes.doubling")} <span class="muted">${t("stakes.doubling_hint")}</span></label>` : null}
  </div>`;
}

/** The ``stakes`` of a ``POST /api/rooms`` body; undefined for a plain room. */
export function stakesBody(value) {
  if (!value || value.kind === "plain") return undefined;
  const out = { kind: value.kind };
  if (value.kind === "coins" || value.kind === "beans") out.coefficient = Number(value.coefficient) || 1;
  if (value.kind === "beans") out.house = Number(value.house) || 0;
  if (value.kind !== "coins" && value.slam) out.slam_points = Number(value.slam);
  if (value.doubling != null) out.overturn_doubling = Boolean(value.doubling);
  return out;
}

/** A room's stakes in a few words ("积分", "游戏币 N=1000"); empty for a plain room. */
export function stakesLabel(stakes) {
  if (!stakes || stakes.kind === "plain") return "";
  if (stakes.kind === "rating") return t("stakes.kind.rating");
  return t("stakes.label_n", { kind: t("stakes.kind." + stakes.kind), n: stakes.coefficient });
}

/** The table's info-bar words for a room's stakes ("积分场", "游戏币场 N=1000",
 * "欢乐豆场 N=100 A=10"); empty for a plain room. */
export function stakesRoomLabel(stakes) {
  if (!stakes || stakes.kind === "plain") return "";
  const label = t("stakes.room." + stakes.kind, { n: stakes.coefficient, a: stakes.house });
  return stakes.overturn_doubling ? label + " · " + t("stakes.doubles") : label;
}

/** A signed settlement amount: "+2700", "-3000"; "—" for an unrated seat (null). */
export function signedDelta(d) {
  if (d == null) return "—";
  return d > 0 ? "+" + d : String(d);
}

/** The deal summary's stakes part: each seat's change as the server settled it. */
export function SettlementLines({ stakes, settled, seatName }) {
  if (!stakes || stakes.kind === "plain") return null;
  const kind = t("stakes.kind." + stakes.kind);
  if (!settled) return html`<p class="muted" data-testid="summary-stakes">${t("stakes.pending", { kind })}</p>`;
  if (!settled.settled) {
    return html`<p class="muted" data-testid="summary-stakes">${t("stakes.unsettled", { kind })}</p>`;
  }
  return html`<div class="settlement" data-testid="summary-stakes">
    <div class="k">${t("stakes.settled", { kind })}</div>
    <div class="levels2">${settled.deltas.map((d, i) => html`<span data-testid=${"stake-" + i}>
      ${seatName(i)}: <b class=${d == null ? "muted" : d > 0 ? "gain" : d < 0 ? "loss" : ""}>${signedDelta(d)}</b></span>`)}</div>
  </div>`;
}
