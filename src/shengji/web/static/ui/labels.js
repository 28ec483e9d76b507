// Words for what the server sent: seat names, teams, actions, cards, friend calls, refusal
// reasons and notices, in the current language. Projection only: the teams, roles and
// reasons are the server's.
import { has, t } from "../i18n.js";
import { state } from "../store.js";

/** A bot spec's level in words: ``"search:300"`` → "Search" / "搜索"; a plug-in's spec as
 * it is. The words are core/seat_names.py's ``BOT_LEVELS`` (a test compares them). */
export function levelName(spec) {
  const base = String(spec).split(":")[0].trim().toLowerCase();
  return has("botname." + base) ? t("botname." + base) : spec;
}

/** THE display name of a seat (core/seat_names.py ``display_name``): the player's name; a
 * bot as its level and seat number ("Normal (seat 2)", "普通·2号"); an empty seat by its
 * number. */
export function displayName(seat, name, bot) {
  if (bot) return t("seat.bot", { level: levelName(bot), n: seat + 1 });
  if (name) return name;
  return t("seat.n", { n: seat + 1 });
}

/** A seat's name at this table: ``displayName`` of the room's seat, or "empty". */
export function seatName(i) {
  const s = state.room && state.room.seats[i];
  if (!s) return t("seat.n", { n: i + 1 });
  if (s.kind === "empty") return t("seat.empty");
  return displayName(i, s.name, s.kind === "bot" ? s.bot || s.name : null);
}

/** A seat's display name from the names a game record keeps (a bot is kept as its spec:
 * "normal"), as core/seat_names.py ``record_name``. */
export function recordName(names, seat) {
  const raw = names[seat];
  const base = raw ? String(raw).split(":")[0].trim().toLowerCase() : "";
  return raw && has("botname." + base) ? displayName(seat, null, raw) : displayName(seat, raw, null);
}

/** Whether a seat's player is away (no connection plays it): what the server's presence
 * says, or the room's seat list before any presence came. */
export function isAway(i) {
  const s = state.room && state.room.seats[i];
  if (!s || s.kind !== "human") return false;
  if (state.presence.length || state.away.length) return state.away.includes(i);
  return !s.connected;
}

/** A seat's name cut short for tight spots. */
export function seatShort(i) {
  const name = seatName(i);
  return name.length > 16 ? name.slice(0, 15) + "…" : name;
}

/** Fixed partners: each seat's team as the server says (the game's, else the room's);
 * an empty list when partners are not fixed. */
export function teams() {
  const g = state.game;
  if (g && g.teams && g.teams.length) return g.teams;
  return (state.room && state.room.teams) || [];
}

/** Whether partners are fixed (the server sends each seat's team). */
export function fixedTeams() {
  return teams().length > 0;
}

/** "Your team" or "Team 2". */
export function teamName(team) {
  const me = state.seat;
  if (me != null && teams()[me] === team) return t("team.us_long");
  return t("team.n", { n: team + 1 });
}

/** The level shown on a seat: its own (find-a-friend, bidding) or its team's. */
export function seatLevel(i) {
  const g = state.game;
  if (!g) return null;
  if (g.seat_levels && g.seat_levels.length) return g.seat_levels[i];
  const tm = teams();
  return tm.length && g.team_levels ? g.team_levels[tm[i]] : null;
}

/** Words for a refused action, a whole sentence: the catalog's wording of its code, else
 * the server's text made a sentence. */
export function reasonText(code, message) {
  if (code && has("reason." + code)) return t("reason." + code);
  return sentence(message || code || "");
}

/** "must follow suit" → "Must follow suit." */
export function sentence(text) {
  const s = String(text).trim();
  if (!s) return s;
  const first = s[0].toUpperCase() + s.slice(1);
  return /[.!?。！？]$/.test(first) ? first : first + ".";
}

export function trumpLabel(trump) {
  if (!trump) return t("trump.undecided");
  if (trump === "NT") return t("trump.NT");
  return t("suit." + trump);
}

export function cardLabel(c) {
  if (c === "BJ") return t("card.BJ");
  if (c === "LJ") return t("card.LJ");
  return { S: "♠", H: "♥", D: "♦", C: "♣" }[c[0]] + c.slice(1);
}

/** Whether the room's rules offer no hints, last-trick view nor card counter (tournament
 * rooms: "不许查牌、不许提示"); the server refuses them there too. */
export function aidsOff() {
  return !!state.room && !!state.room.ruleset && state.room.ruleset.player_aids === false;
}

/** Whether the dealer names a copy ("the 2nd ♠A": nth-played) or just a card (边锋: its
 * holder nearest the dealer is the friend). */
export function callsCopy() {
  return !!state.room && state.room.ruleset.friend_rule === "nth-played";
}

/** A friend call in words: "♠A", or "the 1st ♠A" (the nth copy another seat plays). */
export function callLabel(call) {
  if (!call) return "";
  if (!callsCopy()) return cardLabel(call.card);
  return t("friend.nth_" + Math.min(call.nth, 4), { card: cardLabel(call.card) });
}

/** 找朋友: the friend line's status, from the seats the view says may still be it. */
export function friendStatus(g) {
  if (g.friend != null) return t("friend.found", { name: seatName(g.friend) });
  const c = g.friend_candidates;
  if (!c || callsCopy()) return t("friend.hidden");
  if (c.length === 0) return t("friend.known_alone");
  if (c.length === 1 && c[0] === g.seat) return t("friend.you");
  return t("friend.maybe", { names: c.map(seatShort).join(" ") });
}

/** A level for the eye: the ranks as they are, the joker level (JK, 王) in words. */
export function levelLabel(lv) {
  return lv === "JK" ? t("level.JK") : lv;
}

/** An action text as a button or a notice says it: "Declare ♥2", "Bid 120", "Pass"; a pass
 * in the auction is 不叫, in the 反底 round 不反, while declaring 不亮. */
export function actionLabel(action) {
  if (action === "pass") {
    const phase = state.game && state.game.phase;
    if (phase === "bidding") return t("action.pass_bid");
    if (phase === "rebury") return t("action.pass_rebury");
    return t("action.pass");
  }
  const [verb, ...cards] = action.split(" ");
  if (verb === "trump") return t("action.trump_suit", { suit: trumpLabel(cards[0]) });
  if (verb === "bid") return t("action.bid_n", { n: cards[0] });
  if (verb === "call") return t("action.call_card", { call: callLabel({ nth: Number(cards[0]), card: cards[1] }) });
  return `${t("action." + verb)} ${cards.map(cardLabel).join(" ")}`;
}

/** A notice (from the store) in words. */
export function noticeText(n) {
  if (!n) return "";
  const x = n.text;
  if (typeof x === "string") return x;
  if (x.key === "notice.armed_refused") return t(x.key, { why: reasonText(x.code, x.message) });
  if (x.code) return reasonText(x.code, x.message);
  if (x.key === "notice.throw_failed") {
    const words = (cards) => cards.split(" ").filter(Boolean).map(cardLabel).join(" ");
    return t(x.key, { name: seatName(x.seat), attempted: words(x.attempted), forced: words(x.forced) });
  }
  if (x.key === "notice.hint") return t(x.key, { action: actionLabel(x.action) });
  if (x.key === "notice.friend_revealed") return t(x.key, { name: seatName(x.seat) });
  if (x.key === "notice.not_friend") return t(x.key, { name: seatName(x.seat), card: cardLabel(x.card) });
  return t(x.key, x);
}

/** Whether this page was opened on this machine only (localhost, 127.x, [::1]). */
export function onLoopback() {
  const h = location.hostname.replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\./.test(h);
}

/** The room's share link: the address this browser used, except on the server's own
 * machine (a loopback address), where the server's LAN address is given instead
 * (/api/meta share_base, when it listens on every interface). */
export function roomLink(code) {
  const base = onLoopback() && state.meta && state.meta.share_base ? state.meta.share_base : location.origin;
  return `${base}/#/room/${code}`;
}
