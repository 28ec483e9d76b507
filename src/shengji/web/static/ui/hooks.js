// Preact hooks shared by the screen parts: re-render on store changes, an element's width.
import { useEffect, useState } from "preact/hooks";
import * as S from "../store.js";

/** The store's state; the component re-renders on every change. */
export function useStore() {
  const [, force] = useState(0);
  useEffect(() => S.subscribe(() => force((n) => n + 1)), []);
  return S.state;
}

/** The width in pixels of the element behind ``ref`` (kept current on resize). */
export function useWidth(ref) {
  const [w, setW] = useState(800);
  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const ro = new ResizeObserver(() => setW(el.clientWidth));
    ro.observe(el);
    setW(el.clientWidth);
    return () => ro.disconnect();
  }, [ref.current]);
  return w;
}
