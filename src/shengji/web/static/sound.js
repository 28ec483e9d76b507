// Sound cues, synthesized with the Web Audio API (nothing is downloaded): your turn, a card
// played, a trick won, a declaration, an overturn, a failed throw, the deal's end. Off by
// default; the header's toggle (or the settings) turns them on, which is also the click
// that lets the browser start audio.
import { settings } from "./settings.js";

export const CUES = ["your_turn", "play", "trick_won", "declare", "overturn", "throw_failed",
  "deal_end"];

let ctx = null;

/** The cues played so far (newest last): what a test, or a curious player, can read. */
export const heard = [];
window.__shengjiSounds = heard;

/** Start the audio context (call from a click: browsers start audio only after one). */
export function unlock() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!ctx) ctx = new Ctx();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

/** One note: ``freq`` Hz (gliding to ``to``), starting ``at`` s from now, ``dur`` s long. */
function note(ac, freq, at, dur, { type = "sine", gain = 0.12, to = null } = {}) {
  const t0 = ac.currentTime + at;
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, t0 + dur);
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(amp).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

const SCORES = {
  your_turn: (ac) => { note(ac, 660, 0, 0.12); note(ac, 880, 0.11, 0.16); },
  play: (ac) => note(ac, 320, 0, 0.06, { type: "triangle", gain: 0.09, to: 180 }),
  trick_won: (ac) => [523, 659, 784].forEach((f, i) => note(ac, f, i * 0.06, 0.1, { gain: 0.08 })),
  declare: (ac) => { note(ac, 880, 0, 0.14, { type: "triangle" }); note(ac, 1175, 0.08, 0.2); },
  overturn: (ac) => { note(ac, 1175, 0, 0.12, { type: "square", gain: 0.05 }); note(ac, 880, 0.1, 0.22, { type: "square", gain: 0.05 }); },
  throw_failed: (ac) => note(ac, 170, 0, 0.26, { type: "sawtooth", gain: 0.07, to: 110 }),
  deal_end: (ac) => [392, 523, 659, 784].forEach((f, i) => note(ac, f, i * 0.09, 0.18, { gain: 0.08 })),
};

/** Play cue ``name`` if sounds are on. Never throws: a table without audio is still a table. */
export function cue(name) {
  if (!settings.sound || !SCORES[name]) return;
  heard.push(name);
  if (heard.length > 200) heard.splice(0, heard.length - 200);
  try {
    const ac = unlock();
    if (ac) SCORES[name](ac);
  } catch {
    // no audio device: the cue is skipped
  }
}
