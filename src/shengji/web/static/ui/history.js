// The game history page (#/history): your finished matches, newest first (private rooms'
// too, with your token), and the public rooms' recent matches for anyone; each with its
// preset, date, players and result, a replay link and the record's download.
import { useEffect, useState } from "preact/hooks";
import { lang, t, tn } from "../i18n.js";
import * as S from "../store.js";
import { html } from "./html.js";
import { recordName } from "./labels.js";

const { state } = S;

function when(ts) {
  try {
    return new Date(ts * 1000).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });
  } catch {
    return new Date(ts * 1000).toISOString().slice(0, 16).replace("T", " ");
  }
}

/** The match's outcome in words: the winners' names (for a match cut short, the seats
 * that led, as the server says), or no winner with every seat's level. */
function outcome(g) {
  const names = (g.winners || []).map((s) => recordName(g.players, s));
  const deals = g.deals != null ? tn("history.deals", g.deals) : "";
  if (!names.length) {
    const levels = (g.levels || []).length ? t("history.levels", { levels: g.levels.join(" · ") }) : "";
    return [deals, t("history.no_winner"), levels].filter(Boolean).join(" · ");
  }
  return [deals, t("history.won_by", { names: names.join(t("list.sep")) })].filter(Boolean).join(" · ");
}

function Row({ g, mine }) {
  const won = mine && g.seat != null && (g.winners || []).includes(g.seat);
  const lost = mine && g.seat != null && (g.winners || []).length > 0 && !won;
  const players = g.players.map((_, s) => recordName(g.players, s)).join(t("list.sep"));
  return html`<li class="game" data-testid=${"game-" + g.id}>
    <span class="gwhen">${when(g.finished)}</span>
    <span class="gpreset">${t("preset." + g.preset)}${g.private ? html` <span class="badge">${t("history.private")}</span>` : null}</span>
    <span class="gplayers muted" title=${players}>${players}</span>
    <span class="gresult">${mine && won ? html`<span class="badge ok">${t("history.you_won")}</span> ` : null}
      ${lost ? html`<span class="badge away">${t("history.you_lost")}</span> ` : null}${outcome(g)}</span>
    <span class="gbtns">
      <a class="button small primary" href=${"#/replay/" + g.id} data-testid=${"replay-" + g.id}>${t("history.replay")}</a>
      <button class="small" data-testid=${"download-" + g.id} title=${g.filename}
        onClick=${() => S.downloadRecord(g.id)}>${t("history.download")}</button>
    </span>
  </li>`;
}

export function HistoryPage() {
  const [mine, setMine] = useState(null);
  const [recent, setRecent] = useState(null);
  const [err, setErr] = useState(null);
  useEffect(() => {
    const me = state.player;
    if (me) {
      S.getJSON(`/api/players/${me.id}/games`).then((x) => setMine(x.games)).catch((e) => setErr(e.message));
    }
    S.getJSON("/api/games?limit=30").then((x) => setRecent(x.games)).catch((e) => setErr(e.message));
  }, []);
  const ownIds = new Set((mine || []).map((g) => g.id));
  const others = (recent || []).filter((g) => !ownIds.has(g.id));
  return html`<main class="history" data-testid="history">
    <section class="panel">
      <h2>${t("history.mine")}</h2>
      ${mine == null ? html`<p class="muted">${t("board.loading")}</p>`
        : mine.length ? html`<ul class="games" data-testid="my-games">${mine.map((g) => html`<${Row} g=${g} mine=${true} />`)}</ul>`
        : html`<p class="muted" data-testid="no-games">${t("history.none")}</p>`}
    </section>
    <section class="panel">
      <h2>${t("history.recent")}</h2>
      ${recent == null ? html`<p class="muted">${t("board.loading")}</p>`
        : others.length ? html`<ul class="games" data-testid="recent-games">${others.map((g) => html`<${Row} g=${g} mine=${false} />`)}</ul>`
        : html`<p class="muted">${t("history.none_public")}</p>`}
    </section>
    ${err ? html`<p class="error">${err}</p>` : null}
    <p><a href="#/">${t("history.lobby")}</a></p>
  </main>`;
}
