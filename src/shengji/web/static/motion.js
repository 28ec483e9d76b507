// Motion: a played card flies from its seat (or the hand) to the trick, a finished trick
// gathers to its winner, dealt cards drop into the hand. Each is a Web Animation of at most
// MOTION_MS on elements already in their final place, so the table never waits on one: the
// state, the buttons and the next action are there from the first frame. None of it runs
// when the player turned motion off or the system asks for reduced motion.
import { motionOn } from "./settings.js";

export const MOTION_MS = 220;

function centre(r) {
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** Move ``el`` from the centre of rectangle ``from`` to where it is (it shrinks in flight). */
export function flyFrom(el, from, ms = MOTION_MS) {
  if (!motionOn() || !el || !from || typeof el.animate !== "function") return null;
  const a = centre(from);
  const b = centre(el.getBoundingClientRect());
  const dx = Math.round(a.x - b.x);
  const dy = Math.round(a.y - b.y);
  return el.animate(
    [{ translate: `${dx}px ${dy}px`, scale: "0.55", opacity: 0.35 }, { translate: "0 0", scale: "1", opacity: 1 }],
    { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
}

/** Move ``el`` from where it is to the centre of ``to``, fading: a trick gathered to its
 * winner. ``done`` runs when it has gone (at once without motion). */
export function flyTo(el, to, done, ms = MOTION_MS) {
  if (!motionOn() || !el || !to || typeof el.animate !== "function") {
    done();
    return null;
  }
  const a = centre(el.getBoundingClientRect());
  const b = centre(to);
  const anim = el.animate(
    [{ translate: "0 0", scale: "1", opacity: 0.9 },
      { translate: `${Math.round(b.x - a.x)}px ${Math.round(b.y - a.y)}px`, scale: "0.35", opacity: 0 }],
    { duration: ms, easing: "cubic-bezier(.4,0,.8,.4)", fill: "forwards" },
  );
  anim.onfinish = done;
  anim.oncancel = done;
  return anim;
}

/** A dealt card arriving in the hand: dropped from above. */
export function dropIn(el, ms = MOTION_MS) {
  if (!motionOn() || !el || typeof el.animate !== "function") return null;
  return el.animate(
    [{ translate: "0 -46px", opacity: 0 }, { translate: "0 0", opacity: 1 }],
    { duration: ms, easing: "ease-out" },
  );
}
