// The player's settings, kept in this browser (localStorage "shengji.settings"): card size,
// the hand's order, four-colour suits, sounds, motion. The language is kept by i18n.js.
// The hand's orders are the server's (trumps first, suits high to low), the same with its
// suit groups reversed (trumps on the right), and by printed suit (the faces only, trumps
// marked where they fall): the client never sorts by a rule.

const KEY = "shengji.settings";

export const CARD_SIZES = ["small", "medium", "large"];
export const HAND_ORDERS = ["server", "trumps-right", "suits"];

const DEFAULTS = {
  cardSize: "medium",
  handOrder: "server",
  fourColor: false,
  sound: false, // off until the player turns it on
  motion: true, // also off whenever the system asks for reduced motion
  showPlayed: false, // the played-cards panel beside the table
};

function load() {
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    stored = {};
  }
  const s = { ...DEFAULTS };
  for (const k of Object.keys(DEFAULTS)) {
    if (typeof stored[k] === typeof DEFAULTS[k]) s[k] = stored[k];
  }
  if (!("fourColor" in stored) && localStorage.getItem("shengji.fourColor") === "1") {
    s.fourColor = true; // the old toggle's key
  }
  if (!CARD_SIZES.includes(s.cardSize)) s.cardSize = DEFAULTS.cardSize;
  if (!HAND_ORDERS.includes(s.handOrder)) s.handOrder = DEFAULTS.handOrder;
  return s;
}

export const settings = load();

const listeners = new Set();
export function onSettings(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Change one setting, keep it, tell whoever listens (the store re-renders). */
export function setSetting(key, value) {
  if (!(key in DEFAULTS) || typeof value !== typeof DEFAULTS[key]) return;
  settings[key] = value;
  localStorage.setItem(KEY, JSON.stringify(settings));
  applySettings();
  listeners.forEach((fn) => fn(settings));
}

const reduced = typeof window.matchMedia === "function"
  ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

/** Whether cards move: the setting, unless the system asks for reduced motion. */
export function motionOn() {
  return settings.motion && !reduced.matches;
}

/** The page-wide marks of the settings (card size as a class on <html>). */
export function applySettings() {
  const root = document.documentElement;
  for (const size of CARD_SIZES) root.classList.toggle("cards-" + size, settings.cardSize === size);
  root.classList.toggle("still", !motionOn());
}

if (reduced.addEventListener) reduced.addEventListener("change", applySettings);
applySettings();
