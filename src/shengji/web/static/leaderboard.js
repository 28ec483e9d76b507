// The leaderboard page: players by rating (积分), game coins (游戏币) or 欢乐豆
// (GET /api/leaderboard), and the signed-in player's balances and ledger
// (GET /api/players/{id}/stakes). Same catalogs (i18n/) and styles as the table.
import { h, render } from "preact";
import { useEffect, useState } from "preact/hooks";
import htm from "htm";
import { LANGS, initialLang, lang, setLang, t } from "./i18n.js";

const html = htm.bind(h);
const KINDS = ["rating", "coins", "beans"];

/** The player this browser signed in as (the table keeps it in localStorage). */
function me() {
  try {
    const p = JSON.parse(localStorage.getItem("shengji.player") || "null");
    return p && p.id ? p : null;
  } catch {
    return null;
  }
}

// The ledger's reason is stored in English words (core/stakes.py); shown in the page's language.
const REASON_ZH = [
  [/^dealer side \+(\d+)/, "庄家方升$1级"],
  [/^attackers take over \+0(?!\d)/, "闲家上台"],
  [/^attackers take over \+(\d+)/, "闲家上台，升$1级"],
  [/, stake x(\d+)/, "，反主/反底×$1"],
  [/, (\d+) points \(x(\d+)\)/, "，$1分（×$2）"],
  [/, (\d+) points/, "，$1分"],
  [/, X (\d+) \(x(\d+)\)/, "，X=$1（×$2）"],
  [/, X (\d+)/, "，X=$1"],
  [/, N (\d+)/, "，N=$1"],
  [/, A (\d+)/, "，A=$1"],
];

export function reasonText(reason, language) {
  if (!language.startsWith("zh")) return reason;
  return REASON_ZH.reduce((text, [re, zh]) => text.replace(re, zh), reason);
}

function signed(n) {
  return html`<span class=${n > 0 ? "plus" : n < 0 ? "minus" : ""}>${n > 0 ? "+" : ""}${n}</span>`;
}

function Ranking({ kind, player }) {
  const [rows, setRows] = useState(null);
  const [err, setErr] = useState(null);
  useEffect(() => {
    setRows(null);
    fetch(`/api/leaderboard?kind=${kind}&limit=100`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(r.statusText))))
      .then((d) => setRows(d.entries))
      .catch((x) => setErr(x.message));
  }, [kind]);
  if (err) return html`<p class="error">${err}</p>`;
  if (rows === null) return html`<p class="muted">${t("board.loading")}</p>`;
  if (rows.length === 0) return html`<p class="muted" data-testid="board-empty">${t("board.empty")}</p>`;
  return html`<table class="list" data-testid="board">
    <thead><tr>
      <th class="num">${t("board.rank")}</th><th>${t("board.player")}</th>
      <th class="num">${t("stakes.kind." + kind)}</th><th class="num">${t("board.deals")}</th>
    </tr></thead>
    <tbody>${rows.map((r) => html`<tr key=${r.player} class=${player && r.player === player.id ? "me" : ""}>
      <td class="num">${r.rank}</td><td>${r.name}</td>
      <td class="num">${r.value}</td><td class="num">${r.deals}</td>
    </tr>`)}</tbody>
  </table>`;
}

function Mine({ player }) {
  const [data, setData] = useState(null);
  useEffect(() => {
    fetch(`/api/players/${encodeURIComponent(player.id)}/stakes?limit=30`)
      .then((r) => (r.ok ? r.json() : null))
      .then(setData)
      .catch(() => setData(null));
  }, [player.id]);
  if (!data) return null;
  return html`<section class="panel" data-testid="mine">
    <h2>${t("board.mine", { name: data.name })}</h2>
    <div class="balances">
      ${KINDS.map((k) => html`<span>${t("stakes.kind." + k)} <b data-testid=${"my-" + k}>${data[k]}</b></span>`)}
    </div>
    ${data.ledger.length === 0 ? html`<p class="muted">${t("board.no_ledger")}</p>` : html`
    <table class="list" data-testid="ledger">
      <thead><tr>
        <th>${t("board.when")}</th><th>${t("board.kind")}</th>
        <th class="num">${t("board.delta")}</th><th class="num">${t("board.balance")}</th>
        <th>${t("board.reason")}</th>
      </tr></thead>
      <tbody>${data.ledger.map((r, i) => html`<tr key=${i}>
        <td>${new Date(r.at * 1000).toLocaleString(lang())}</td>
        <td>${t("stakes.kind." + r.kind)}</td>
        <td class="num">${signed(r.delta)}</td><td class="num">${r.balance}</td>
        <td class="muted small">${t("board.deal_no", { n: r.deal_no + 1 })} · ${reasonText(r.reason, lang())}</td>
      </tr>`)}</tbody>
    </table>`}
  </section>`;
}

function Page() {
  const first = new URLSearchParams(location.search).get("kind");
  const [kind, setKind] = useState(KINDS.includes(first) ? first : "rating");
  const [, setShown] = useState(lang());
  const player = me();
  const toggleLang = async () => {
    const next = LANGS[(LANGS.indexOf(lang()) + 1) % LANGS.length];
    await setLang(next);
    document.title = `升级 · ${t("board.title")}`;
    setShown(next);
  };
  const choose = (k) => {
    setKind(k);
    history.replaceState(null, "", `?kind=${k}`);
  };
  return html`<header class="top">
      <a class="brand" href="/"><span class="logo">升级</span><span class="sub">${t("app.subtitle")}</span></a>
      <div class="spacer"></div>
      ${player ? html`<span class="me">${player.name}</span>` : null}
      <button class="ghost" onClick=${toggleLang} data-testid="lang">${t("ui.other_lang")}</button>
    </header>
    <main class="board">
      <section class="panel">
        <h1>${t("board.title")}</h1>
        <p class="muted">${t("board.intro")}</p>
        <div class="kinds" role="tablist">
          ${KINDS.map((k) => html`<button role="tab" aria-pressed=${k === kind} data-testid=${"kind-" + k}
            onClick=${() => choose(k)}>${t("stakes.kind." + k)}</button>`)}
        </div>
        <${Ranking} kind=${kind} player=${player} />
        <p><a href="/">${t("board.back")}</a></p>
      </section>
      ${player ? html`<${Mine} player=${player} />` : null}
    </main>`;
}

async function main() {
  await setLang(initialLang());
  document.title = `升级 · ${t("board.title")}`;
  render(html`<${Page} />`, document.getElementById("app"));
}

main();
