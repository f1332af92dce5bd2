// The interface's words in English and Japanese: one message catalogue per language
// (static/i18n/<lang>.json), the phone's language by default, a switch in the top bar.
// t("card.han", {n: 3}) -> "3 han" / "3翻". A key missing from a catalogue falls back to English.
import * as store from "./store.js";

export const LANGS = ["en", "ja"];
const catalogues = {};
export let lang = "en";

/** The language to show: the player's choice, else the phone's language, else English. */
export function preferred() {
  const chosen = store.get("lang");
  if (LANGS.includes(chosen)) return chosen;
  const phone = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return phone.toLowerCase().startsWith("ja") ? "ja" : "en";
}

async function fetchCatalogue(code) {
  if (!catalogues[code]) {
    const url = new URL(`../i18n/${code}.json`, import.meta.url);
    const resp = await fetch(url);
    catalogues[code] = resp.ok ? await resp.json() : {};
  }
  return catalogues[code];
}

/** Load English and the chosen language; call once before the first screen. */
export async function loadLanguage(code = preferred()) {
  await fetchCatalogue("en").catch(() => { catalogues.en = {}; });
  lang = LANGS.includes(code) ? code : "en";
  if (lang !== "en") await fetchCatalogue(lang).catch(() => { lang = "en"; });
  document.documentElement.lang = lang;
  return lang;
}

export async function setLanguage(code) {
  store.set("lang", code);
  return loadLanguage(code);
}

/** The message for `key` with {placeholders} filled; `fallback` when no catalogue has the key. */
export function t(key, vars = {}, fallback = undefined) {
  const text = (catalogues[lang] && catalogues[lang][key]) ?? (catalogues.en && catalogues.en[key]) ?? fallback ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

/** True when the current language's catalogue itself has the key (not the English fallback). */
export const has = (key) => Boolean(catalogues[lang] && key in catalogues[lang]);

/** A reason the server gave as {id, params} (an error's `detail`, a photo proposal's `detail`) in
 * the interface's language; null when there is none or the catalogue has no words for it. Yaku
 * named in the parameters are shown by their names. */
export function detailText(detail) {
  if (!detail || typeof detail.id !== "string" || !has(`detail.${detail.id}`)) return null;
  const params = { ...(detail.params || {}) };
  if (params.yaku) params.yaku = t(`yaku.${params.yaku}`);
  if (params.others) params.others = String(params.others).split(", ").map((y) => t(`yaku.${y}`)).join(t("list.sep"));
  return t(`detail.${detail.id}`, params);
}

/** What the server said, in the interface's language: English keeps the server's own (most precise)
 * message; another language words the reason from its stable id, else shows `message` as before. */
export function reasonText(said) {
  if (!said) return "";
  return (lang !== "en" && detailText(said.detail)) || said.message || "";
}

/** A rule set's name in the language shown (ruleset.<id> in the catalogue); the server's title otherwise. */
export const rulesetName = (id, title) => (has(`ruleset.${id}`) ? t(`ruleset.${id}`) : title || id);
