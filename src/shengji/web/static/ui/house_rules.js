// House rules: the create-room form's editor of ruleset fields (the server lists them in
// ``/api/meta`` ``rule_fields``, grouped, with kinds, choices and bounds; the words are the
// catalogs' ``rule.<field>``), the share link and rules file, and a room's changed rules.
// The browser computes no rule: every change is checked by ``POST /api/rules/check``,
// whose refusal names the field at fault.
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../i18n.js";
import * as S from "../store.js";
import { html } from "./html.js";

const { state } = S;

/** Fields the form above the editor already shows (its own controls). */
export const SHOWN_ABOVE = ["rebury", "player_aids", "level_shares", "jack_kitty_penalty", "ace_kitty_penalty"];

const FORMAT = "shengji-rules/1";

/** ``{preset, options}`` as the ``rules=`` part of a link (base64url of its JSON). */
export function encodeRules(preset, options) {
  const bytes = new TextEncoder().encode(JSON.stringify({ preset, options }));
  let bin = "";
  bytes.forEach((b) => { bin += String.fromCharCode(b); });
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Inverse of ``encodeRules`` (null when it is not one). */
export function decodeRules(text) {
  try {
    const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
    const bin = atob(b64 + "===".slice((b64.length + 3) % 4));
    const data = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
    return readRules(data);
  } catch {
    return null;
  }
}

/** A rules document (``{format?, preset, options}``) as ``{preset, options}``, or null. */
export function readRules(data) {
  if (!data || typeof data !== "object" || typeof data.preset !== "string") return null;
  const options = data.options == null ? {} : data.options;
  if (typeof options !== "object" || Array.isArray(options)) return null;
  return { preset: data.preset, options };
}

/** The rules a ``#/new?rules=…`` address carries, or null. */
export function rulesFromHash() {
  const m = location.hash.match(/^#\/new\?(?:.*&)?rules=([\w-]+)/);
  return m ? decodeRules(m[1]) : null;
}

/** The link that opens the create-room form with these rules. */
export function rulesLink(preset, options) {
  return `${location.origin}/#/new?rules=${encodeRules(preset, options)}`;
}

/** A field's value in words: a choice's label, on/off, or the number. */
export function valueText(name, value) {
  if (typeof value === "boolean") return value ? t("rules.on") : t("rules.off");
  if (typeof value === "string") return t(`rule.${name}.${value}`);
  if (Array.isArray(value)) return value.length ? value.map((r) => (r === "JK" ? t("rule.rank.JK") : r)).join(" ") : t("rules.none");
  return String(value);
}

/** ``extra`` without the keys whose value is the preset's (what changed, only). */
export function onlyChanged(extra, base) {
  const out = {};
  for (const [k, v] of Object.entries(extra)) {
    if (!base || JSON.stringify(base[k]) !== JSON.stringify(v)) out[k] = v;
  }
  return out;
}

function shown(field, value) {
  return !field.when || Object.entries(field.when).every(([k, v]) => value(k) === v);
}

function Control({ field, value, onSet }) {
  const id = `rule-${field.name}`;
  if (field.kind === "bool") {
    return html`<input id=${id} type="checkbox" data-testid=${id} checked=${!!value}
      onChange=${(e) => onSet(e.target.checked)} />`;
  }
  if (field.kind === "ranks") {
    // ticked ranks, kept in the order of the ranks (the server checks the set)
    const on = new Set(value || []);
    const flip = (r) => onSet(field.ranks.filter((x) => (x === r ? !on.has(r) : on.has(x))));
    return html`<div class="rankset" id=${id} data-testid=${id} role="group">
      ${field.ranks.map((r) => html`<label class="rank"><input type="checkbox" data-testid=${id + "-" + r}
        checked=${on.has(r)} onChange=${() => flip(r)} />${r === "JK" ? t("rule.rank.JK") : r}</label>`)}
    </div>`;
  }
  if (field.kind === "int") {
    return html`<input id=${id} type="number" data-testid=${id} min=${field.min} max=${field.max}
      value=${value} onChange=${(e) => e.target.value !== "" && onSet(Math.trunc(Number(e.target.value)))} />`;
  }
  return html`<select id=${id} data-testid=${id} value=${value} onChange=${(e) => onSet(e.target.value)}>
    ${field.choices.map((c) => html`<option value=${c}>${t(`rule.${field.name}.${c}`)}</option>`)}
  </select>`;
}

function Field({ field, value, base, error, onSet }) {
  const changed = JSON.stringify(value) !== JSON.stringify(base);
  return html`<div class=${"rulefield" + (changed ? " changed" : "") + (error ? " bad" : "")}
      data-testid=${"field-" + field.name}>
    <label class=${field.kind === "bool" ? "check" : ""} for=${"rule-" + field.name}>
      ${field.kind === "bool" ? html`<${Control} field=${field} value=${value} onSet=${onSet} /> ` : null}${t(`rule.${field.name}`)}
      ${changed ? html` <span class="muted small">${t("rules.default_was", { value: valueText(field.name, base) })}</span>` : null}
    </label>
    ${field.kind === "bool" ? null : html`<${Control} field=${field} value=${value} onSet=${onSet} />`}
    <p class="muted small help">${t(`rule.${field.name}.help`)}<br /><i>${t("rules.example", { text: t(`rule.${field.name}.ex`) })}</i></p>
    ${error ? html`<p class="error small" data-testid="rule-error">${error.split(field.name).join(t(`rule.${field.name}`))}</p>` : null}
  </div>`;
}

/** Copy link, download and load a rules file. */
function ShareRow({ preset, extra, onLoad }) {
  const [copied, setCopied] = useState(false);
  const [msg, setMsg] = useState(null);
  const link = rulesLink(preset, extra);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const download = () => {
    const text = JSON.stringify({ format: FORMAT, preset, options: extra }, null, 2) + "\n";
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const a = Object.assign(document.createElement("a"), { href: url, download: `shengji-rules-${preset}.json` });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const upload = async (e) => {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    let rules = null;
    try {
      rules = readRules(JSON.parse(await file.text()));
    } catch (x) {
      setMsg(t("rules.bad_file", { why: x.message }));
      return;
    }
    if (!rules) {
      setMsg(t("rules.bad_file", { why: "{preset, options}" }));
      return;
    }
    setMsg(t("rules.loaded", { preset: t("preset." + rules.preset), n: Object.keys(rules.options).length }));
    onLoad(rules);
  };
  return html`<div class="rulesshare">
    <label>${t("rules.link")}
      <div class="row"><input class="link" readonly value=${link} data-testid="rules-link"
        onFocus=${(e) => e.target.select()} />
      <button type="button" class="small" onClick=${copy}>${copied ? t("rules.copied") : t("rules.copy")}</button></div>
    </label>
    <div class="row">
      <button type="button" class="small" data-testid="rules-download" onClick=${download}>${t("rules.download")}</button>
      <label class="button small filepick">${t("rules.upload")}
        <input type="file" accept="application/json,.json" data-testid="rules-upload" onChange=${upload} /></label>
    </div>
    ${msg ? html`<p class="muted small" data-testid="rules-msg">${msg}</p>` : null}
  </div>`;
}

/** The player's saved rule sets: save these rules under a name, load or forget one. */
function SavedRow({ preset, extra, onLoad }) {
  const [list, setList] = useState([]);
  const [name, setName] = useState("");
  const [pick, setPick] = useState("");
  const [msg, setMsg] = useState(null);
  const refresh = () => S.savedRules().then(setList, () => setList([]));
  useEffect(() => { refresh(); }, []);
  const save = async () => {
    const n = name.trim();
    if (!n) return;
    try {
      await S.saveRules(n, preset, extra);
      setMsg(t("rules.saved", { name: n }));
      setName("");
      refresh();
    } catch (x) {
      setMsg(x.message);
    }
  };
  const chosen = list.find((r) => r.name === pick);
  const forget = async () => {
    if (!chosen) return;
    await S.forgetRules(chosen.name).catch(() => {});
    setPick("");
    refresh();
  };
  return html`<div class="rulesshare" data-testid="saved-rules">
    <div class="row">
      <input maxlength="40" placeholder=${t("rules.save_name")} value=${name} data-testid="rules-save-name"
        onInput=${(e) => setName(e.target.value)} />
      <button type="button" class="small" data-testid="rules-save" disabled=${!name.trim()} onClick=${save}>${t("rules.save")}</button>
    </div>
    ${list.length ? html`<div class="row">
      <select class="small" value=${pick} data-testid="rules-saved" onChange=${(e) => setPick(e.target.value)}>
        <option value="">${t("rules.mine")}</option>
        ${list.map((r) => html`<option value=${r.name}>${r.name} · ${t("preset." + r.preset)}</option>`)}
      </select>
      <button type="button" class="small" data-testid="rules-load" disabled=${!chosen}
        onClick=${() => chosen && onLoad({ preset: chosen.preset, options: chosen.options })}>${t("rules.load")}</button>
      <button type="button" class="small" data-testid="rules-forget" disabled=${!chosen} onClick=${forget}>${t("rules.forget")}</button>
    </div>` : null}
    ${msg ? html`<p class="muted small" data-testid="rules-saved-msg">${msg}</p>` : null}
  </div>`;
}

/** The editor: every field the server lists, grouped, over ``base`` (the preset's ruleset);
 * ``extra`` holds only what changed; ``onError`` gets the server's refusal (or null). */
export function HouseRules({ preset, base, extra, onChange, onLoad, error, onError }) {
  const groups = (state.meta && state.meta.rule_fields) || [];
  const [open, setOpen] = useState(Object.keys(extra).length > 0);
  const seq = useRef(0);
  const value = (k) => (k in extra ? extra[k] : base[k]);
  useEffect(() => {
    const n = ++seq.current;
    const id = setTimeout(() => {
      S.checkRules(preset, extra).then(
        () => n === seq.current && onError(null),
        (x) => n === seq.current && onError(x.status === 400 ? { field: x.field || "", detail: x.message } : null),
      );
    }, 150);
    return () => clearTimeout(id);
  }, [preset, JSON.stringify(extra)]);
  const set = (k, v) => onChange(onlyChanged({ ...extra, [k]: v }, base));
  const n = Object.keys(extra).length;
  const visible = groups.flatMap((g) => g.fields.filter((f) => !SHOWN_ABOVE.includes(f.name) && shown(f, value)))
    .map((f) => f.name);
  const named = error && error.field.startsWith("options.") ? error.field.slice(8) : null;
  const errField = visible.includes(named) ? named : null;
  return html`<details class="houserules" open=${open} data-testid="house-rules"
      onToggle=${(e) => setOpen(e.target.open)}>
    <summary>${t("rules.title")}${n ? html` <span class="badge" data-testid="rules-count">${t("rules.changed", { n })}</span>` : null}</summary>
    <p class="muted small">${t("rules.intro")}</p>
    ${error && !errField ? html`<p class="error" data-testid="rule-error">${error.detail}</p>` : null}
    ${groups.map((g) => {
      const fields = g.fields.filter((f) => visible.includes(f.name));
      return fields.length ? html`<fieldset class="rulegroup" data-testid=${"group-" + g.group}>
        <legend>${t("rule.group." + g.group)}</legend>
        ${fields.map((f) => html`<${Field} key=${f.name} field=${f} value=${value(f.name)} base=${base[f.name]}
          error=${errField === f.name ? error.detail : null} onSet=${(v) => set(f.name, v)} />`)}
      </fieldset>` : null;
    })}
    ${n ? html`<button type="button" class="small" data-testid="rules-reset" onClick=${() => onChange({})}>${t("rules.reset")}</button>` : null}
    <${ShareRow} preset=${preset} extra=${extra} onLoad=${onLoad} />
    ${state.player ? html`<${SavedRow} preset=${preset} extra=${extra} onLoad=${onLoad} />` : null}
  </details>`;
}

/** The fields of a room's rules that differ from its preset's (``{}``: none), with the
 * preset's ruleset; null before the server's presets are known. */
function roomChanges(room) {
  const info = state.meta && (state.meta.preset_info || []).find((p) => p.name === room.preset);
  if (!info || !info.ruleset) return null;
  const changed = onlyChanged(
    Object.fromEntries(Object.entries(room.ruleset).filter(([k]) => k !== "name" && k in info.ruleset)),
    info.ruleset,
  );
  return { info, changed };
}

/** During a match: the room's house rules in the side column, folded (nothing when the
 * room plays its preset as it is). */
export function RulesPanel({ room }) {
  const c = roomChanges(room);
  if (!c || !Object.keys(c.changed).length) return null;
  return html`<details class="rulespanel" data-testid="rules-panel">
    <summary>${t("rules.panel", { n: Object.keys(c.changed).length })}</summary>
    <${RulesDiff} room=${room} />
  </details>`;
}

/** A room's rules that differ from its preset (the waiting room's rules card, and the
 * table's rules panel). */
export function RulesDiff({ room }) {
  const c = roomChanges(room);
  if (!c) return null;
  const { info, changed } = c;
  const keys = Object.keys(changed);
  if (!keys.length) return null;
  return html`<div class="rulesdiff" data-testid="rules-diff">
    <p class="small"><b>${t("rules.diff_title", { preset: t("preset." + room.preset) })}</b></p>
    <ul class="small">
      ${keys.map((k) => html`<li key=${k} data-testid=${"diff-" + k}>${t("rule." + k)}: <b>${valueText(k, changed[k])}</b>
        <span class="muted"> ${t("rules.default_was", { value: valueText(k, info.ruleset[k]) })}</span></li>`)}
    </ul>
    <p class="small"><a href=${rulesLink(room.preset, changed)} data-testid="room-rules-link">${t("rules.link")}</a></p>
  </div>`;
}
