// Languages from catalogs (i18n/en.json, i18n/zh-CN.json): t("key", {name: "x"}).
export const LANGS = ["zh-CN", "en"];

const catalogs = {};
let current = "en";

/** The language to start with: the stored choice, else navigator.language. */
export function initialLang() {
  const stored = localStorage.getItem("shengji.lang");
  if (LANGS.includes(stored)) return stored;
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return nav.toLowerCase().startsWith("zh") ? "zh-CN" : "en";
}

/** Load a catalog (once) and make it current. */
export async function setLang(lang) {
  if (!catalogs[lang]) {
    const r = await fetch(`/i18n/${lang}.json`);
    catalogs[lang] = await r.json();
  }
  if (!catalogs.en && lang !== "en") {
    const r = await fetch("/i18n/en.json");
    catalogs.en = await r.json();
  }
  current = lang;
  localStorage.setItem("shengji.lang", lang);
  document.documentElement.lang = lang;
  return lang;
}

export function lang() {
  return current;
}

/** The text for ``key`` in the current language (English, then the key, as fallbacks). */
export function t(key, params) {
  let s = (catalogs[current] && catalogs[current][key]) ?? (catalogs.en && catalogs.en[key]);
  if (s == null) return key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] ?? m));
  return s;
}

/** Whether the catalog has ``key`` (for optional texts, e.g. an error code's wording). */
export function has(key) {
  return !!(catalogs[current] && key in catalogs[current]);
}

/** A text with a count: ``key.one`` for 1 (English "1 level"), else ``key.other``
 * ("2 levels"); ``n`` is filled in. Both catalogs hold both forms. */
export function tn(key, n, params) {
  const form = n === 1 && has(key + ".one") ? ".one" : ".other";
  return t(key + form, { ...(params || {}), n });
}
