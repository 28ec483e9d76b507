// The lobby: the name form (first visit), the create-room form (any preset the server
// lists, its options, stakes, bots), the open rooms and joining by code or link.
import { useEffect, useState } from "preact/hooks";
import { lang, t } from "../i18n.js";
import { NO_STAKES, StakesFields, stakesBody, stakesLabel } from "../stakes.js";
import { PaceFields, paceBody } from "./pace.js";
import * as S from "../store.js";
import { html } from "./html.js";
import { LevelSequence, isShortSequence } from "./levels.js";
import { displayName } from "./labels.js";
import { HouseRules, onlyChanged, rulesFromHash } from "./house_rules.js";

const { state } = S;

const LEVELS = ["beginner", "normal", "expert"];
const SPEEDS = { slow: 2, normal: 1, fast: 0.25 };

/** "Play now": a public classic room, three bots of the chosen level, the chosen bot speed,
 * dealt at once (a public room's turn clock: silence in the declare window is a pass). */
export async function playNow(level, speed) {
  const body = {
    preset: "classic", private: false, options: {},
    table: { bot_pace: SPEEDS[speed] || 1 }, bots: { 1: level, 2: level, 3: level },
  };
  const code = await S.createRoom(body, true);
  location.hash = `#/room/${code}`;
}

/** The level and speed pickers of "Play now", and its button. */
function PlayNowFields({ onPlay }) {
  const [level, setLevel] = useState(localStorage.getItem("shengji.botLevel") || "normal");
  const [speed, setSpeed] = useState(localStorage.getItem("shengji.botSpeed") || "normal");
  const go = (e) => {
    e.preventDefault();
    localStorage.setItem("shengji.botLevel", level);
    localStorage.setItem("shengji.botSpeed", speed);
    onPlay(level, speed);
  };
  return html`<div class="playnow">
    <label>${t("playnow.level")}
      <select data-testid="playnow-level" value=${level} onChange=${(e) => setLevel(e.target.value)}>
        ${LEVELS.map((b) => html`<option value=${b}>${t("botname." + b)}</option>`)}
      </select></label>
    <label>${t("playnow.speed")}
      <select data-testid="playnow-speed" value=${speed} onChange=${(e) => setSpeed(e.target.value)}>
        ${Object.keys(SPEEDS).map((x) => html`<option value=${x}>${t("speed." + x)}</option>`)}
      </select></label>
    <button class="primary big" type="button" data-testid="play-now" onClick=${go}>${t("playnow.button")}</button>
  </div>`;
}

/** The lobby's "Play now" panel. */
function PlayNow() {
  const [err, setErr] = useState(null);
  const play = (level, speed) => playNow(level, speed).catch((x) => setErr(x.message));
  return html`<section class="panel playnowpanel">
    <h2>${t("playnow.title")}</h2>
    <p class="muted">${t("playnow.text")}</p>
    <${PlayNowFields} onPlay=${play} />
    ${err ? html`<p class="error">${err}</p>` : null}
  </section>`;
}

export function NameForm() {
  const [name, setName] = useState(localStorage.getItem("shengji.lastName") || "");
  const [err, setErr] = useState(null);
  const enter = async () => {
    const n = name.trim();
    if (!n) return false;
    localStorage.setItem("shengji.lastName", n);
    await S.register(n);
    return true;
  };
  const submit = async (e) => {
    e.preventDefault();
    try {
      await enter();
    } catch (x) {
      setErr(x.message);
    }
  };
  const play = async (level, speed) => {
    try {
      if (await enter()) await playNow(level, speed);
    } catch (x) {
      setErr(x.message);
    }
  };
  return html`<section class="panel narrow">
    <h1>${t("lobby.welcome")}</h1>
    <p class="muted">${t("lobby.intro")}</p>
    <form onSubmit=${submit} class="row">
      <input data-testid="name" maxlength="32" placeholder=${t("lobby.name_placeholder")}
        value=${name} onInput=${(e) => setName(e.target.value)} autofocus />
      <button type="submit" data-testid="name-ok">${t("lobby.enter")}</button>
    </form>
    <h2 class="playnow-h">${t("playnow.title")}</h2>
    <p class="muted">${t("playnow.text")}</p>
    <${PlayNowFields} onPlay=${play} />
    ${err ? html`<p class="error">${err}</p>` : null}
  </section>`;
}

/** The create-room stakes fields a preset starts with: its ``stakes`` default (the 欢乐升级
 * preset plays for 欢乐豆), else nothing at stake. */
function presetStakes(presets, name) {
  const p = presets.find((x) => x.name === name);
  const d = p && p.stakes;
  if (!d || d.kind === "plain") return NO_STAKES;
  return {
    ...NO_STAKES,
    kind: d.kind,
    coefficient: d.coefficient != null ? String(d.coefficient) : NO_STAKES.coefficient,
    house: d.house != null ? String(d.house) : NO_STAKES.house,
    slam: d.slam_points != null ? String(d.slam_points) : "",
  };
}

/** A rule sheet's name without its place in the seed texts: "QQ游戏 升级, two decks". */
function sheetName(source) {
  return source.replace(/\s*\(seed[^)]*\)/g, "").replace(/;?\s*seed \d+[^,;)]*/g, "").trim();
}

/** The presets the server offers: ``[{name, players, playable, reason, level_sequence,
 * source, stakes}]``. */
function presetInfo() {
  const meta = state.meta;
  if (meta && meta.preset_info) return meta.preset_info;
  return (meta ? meta.presets : ["classic"]).map((name) => ({ name, players: 4, playable: true }));
}

function CreateRoom() {
  const meta = state.meta;
  const shared = rulesFromHash(); // a ``#/new?rules=…`` link: start from its rules
  const [preset, setPreset] = useState(shared ? shared.preset : "classic");
  const [maxDeals, setMaxDeals] = useState("");
  const [priv, setPriv] = useState(false);
  const [fill, setFill] = useState("");
  const [stakes, setStakes] = useState(NO_STAKES);
  const [extra, setExtraRaw] = useState(shared ? shared.options : {}); // changed ruleset fields
  const [ruleErr, setRuleErr] = useState(null); // the server's refusal of the house rules
  const [pace, setPace] = useState({}); // pace fields changed in the form (seconds)
  const [err, setErr] = useState(null);
  const presets = presetInfo();
  const info = presets.find((p) => p.name === preset) || { name: preset, players: 4 };
  const base = info.ruleset || {};
  const setExtra = (next) => setExtraRaw(onlyChanged(next, info.ruleset));
  const val = (k) => (k in extra ? extra[k] : base[k]);
  const load = (rules) => {
    setPreset(rules.preset);
    setExtraRaw(rules.options);
    setStakes(presetStakes(presets, rules.preset));
  };
  const submit = async (e) => {
    e.preventDefault();
    setErr(null);
    const body = { preset, private: priv, options: { ...extra }, table: paceBody(pace, priv) };
    if (maxDeals) body.max_deals = Number(maxDeals);
    if (stakesBody(stakes)) body.stakes = stakesBody(stakes);
    else if (info.stakes && info.stakes.kind !== "plain") body.stakes = { kind: "plain" };
    if (fill) {
      body.bots = {};
      const seats = val("players") || info.players || 4;
      for (let i = 1; i < seats; i++) body.bots[i] = fill;
    }
    try {
      const code = await S.createRoom(body);
      location.hash = `#/room/${code}`;
    } catch (x) {
      if (x.field && x.field.startsWith("options.")) setRuleErr({ field: x.field, detail: x.message });
      setErr(x.message);
    }
  };
  return html`<section class="panel" id="new-room">
    <h2>${t("lobby.create")}</h2>
    <form onSubmit=${submit} class="create">
      <label>${t("lobby.preset")}
        <select data-testid="preset" value=${preset}
          onChange=${(e) => { setPreset(e.target.value); setExtraRaw({}); setStakes(presetStakes(presets, e.target.value)); }}>
          ${presets.map((p) => html`<option value=${p.name}>${t("preset." + p.name)}${
            p.playable === false ? " — " + t("lobby.not_playable") : ""}</option>`)}
        </select>
      </label>
      <p class="desc" data-testid="preset-desc">${t("preset_desc." + preset)}
        ${info.players ? html` <span class="muted">${t("lobby.seats", { n: info.players })}</span>` : null}
        ${info.source && lang() === "en" ? html`<br /><span class="muted small" data-testid="preset-source">${t("lobby.follows", { sheet: sheetName(info.source) })}</span>` : null}
        ${info.playable === false && info.reason ? html`<br /><span class="error">${info.reason}</span>` : null}
        ${isShortSequence(info.level_sequence) ? html`<br /><${LevelSequence} seq=${info.level_sequence} />` : null}
      </p>
      <div class="grid2">
        <label>${t("lobby.max_deals")}
          <input type="number" min="1" max="99" placeholder=${t("lobby.until_win")}
            data-testid="max-deals" value=${maxDeals}
            onInput=${(e) => setMaxDeals(e.target.value)} />
        </label>
        <label>${t("lobby.fill_bots")}
          <select data-testid="fill-bots" value=${fill} onChange=${(e) => setFill(e.target.value)}>
            <option value="">${t("lobby.no_bots")}</option>
            ${(meta ? meta.bots : []).filter((b) => b !== "search").map(
              (b) => html`<option value=${b}>${t("bot." + b)}</option>`)}
          </select>
        </label>
      </div>
      <${StakesFields} value=${stakes} onChange=${setStakes} />
      <${PaceFields} value=${pace} priv=${priv} onChange=${setPace} />
      ${val("partnership") === "find-friend" ? html`<${FriendOptions} val=${val} extra=${extra} onChange=${setExtra} />` : null}
      <label class="check"><input type="checkbox" checked=${!!val("rebury")} data-testid="rebury"
        onChange=${(e) => setExtra({ ...extra, rebury: e.target.checked })} /> ${t("lobby.rebury")}</label>
      <${NoAids} val=${val} extra=${extra} onChange=${setExtra} />
      ${info.ruleset ? html`<${HouseRules} key=${preset} preset=${preset} base=${base} extra=${extra}
        onChange=${setExtra} onLoad=${load} error=${ruleErr} onError=${setRuleErr} />` : null}
      <label class="check"><input type="checkbox" checked=${priv} data-testid="private"
        onChange=${(e) => setPriv(e.target.checked)} /> ${t("lobby.private")}</label>
      <button class="primary" type="submit" data-testid="create" disabled=${!!ruleErr}>${t("lobby.create_btn")}</button>
      ${err ? html`<p class="error" data-testid="create-error">${err}</p>` : null}
    </form>
  </section>`;
}

/** 不许查牌、不许提示 (the tournament sheet): no hints, last-trick view or card counter; the
 * preset's value (tournament: on) until changed. */
function NoAids({ val, extra, onChange }) {
  const off = val("player_aids") === false;
  return html`<label class="check"><input type="checkbox" data-testid="no-aids" checked=${off}
    onChange=${(e) => onChange({ ...extra, player_aids: !e.target.checked })} /> ${t("lobby.no_aids")}</label>`;
}

/** Find-a-friend options (seed 002): how the dealer side shares its levels, and the J and A
 * kitty penalties; the preset's values until changed. */
function FriendOptions({ val, extra, onChange }) {
  const set = (k, v) => onChange({ ...extra, [k]: v });
  return html`<div class="grid2">
    <label>${t("lobby.level_shares")}
      <select data-testid="level-shares" value=${val("level_shares")}
        onChange=${(e) => set("level_shares", e.target.value)}>
        ${["equal", "fixed", "elastic"].map((x) => html`<option value=${x}>${t("shares." + x)}</option>`)}
      </select>
    </label>
    <div>
      <label class="check"><input type="checkbox" data-testid="jack-penalty" checked=${!!val("jack_kitty_penalty")}
        onChange=${(e) => set("jack_kitty_penalty", e.target.checked)} /> ${t("lobby.jack_penalty")}</label>
      <label class="check"><input type="checkbox" data-testid="ace-penalty" checked=${!!val("ace_kitty_penalty")}
        onChange=${(e) => set("ace_kitty_penalty", e.target.checked)} /> ${t("lobby.ace_penalty")}</label>
    </div>
  </div>`;
}

function RoomList() {
  const [code, setCode] = useState("");
  useEffect(() => {
    S.loadRooms().catch(() => {});
    const id = setInterval(() => S.loadRooms().catch(() => {}), 5000);
    return () => clearInterval(id);
  }, []);
  const join = (e) => {
    e.preventDefault();
    const c = code.trim().replace(/^.*#\/room\//, "");
    if (c) location.hash = `#/room/${c}`;
  };
  return html`<section class="panel">
    <h2>${t("lobby.open_rooms")}</h2>
    ${state.rooms.length === 0 ? html`<p class="muted">${t("lobby.no_rooms")}</p>` : null}
    <ul class="rooms" data-testid="rooms">
      ${state.rooms.map((r) => {
        const taken = r.seats.filter((s) => s.kind !== "empty").length;
        return html`<li key=${r.code}>
          <span class="rname">${t("preset." + r.preset)}${stakesLabel(r.stakes) ? " · " + stakesLabel(r.stakes) : ""}</span>
          <span class="muted" data-testid="room-names">${r.seats.map((s, i) => (s.kind === "empty" ? "·"
            : displayName(i, s.name, s.kind === "bot" ? s.bot || s.name : null))).join(t("list.sep"))}</span>
          <span class=${"status " + r.status}>${t("status." + r.status)} ${taken}/${r.seats.length}</span>
          <a class="button" href=${"#/room/" + r.code} data-testid="room-join">${
            taken >= r.seats.length ? t("lobby.watch") : t("lobby.join")}</a>
        </li>`;
      })}
    </ul>
    <form onSubmit=${join} class="row">
      <input placeholder=${t("lobby.code_placeholder")} value=${code}
        data-testid="join-code" onInput=${(e) => setCode(e.target.value)} />
      <button type="submit">${t("lobby.join")}</button>
    </form>
  </section>`;
}

export function Lobby() {
  useEffect(() => {
    S.loadMeta().catch(() => {});
  }, []);
  return html`<main class="lobby">
    <${PlayNow} />
    <${CreateRoom} />
    <${RoomList} />
    <section class="panel about">
      <h2>${t("lobby.how")}</h2>
      <p>${t("lobby.how_text")}</p>
      <p class="muted">${t("lobby.keys")}</p>
      <p><a href="/leaderboard.html" data-testid="leaderboard-link">${t("board.link")}</a></p>
    </section>
  </main>`;
}
