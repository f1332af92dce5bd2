// @ts-check
// The interface's words in English and Japanese: one message catalogue per language
// (static/i18n/<lang>.json), the phone's language by default, a switch in the top bar.
// t("card.han", {n: 3}) -> "3 han" / "3翻". A key missing from a catalogue falls back to English.
import * as store from "./store.js";

export const LANGS = ["en", "ja"];
/** @type {Record<string, Record<string, string>>} the catalogues loaded, by language */
const catalogues = {};
export let lang = "en";

/** The language to show: the player's choice, else the phone's language, else English. */
export function preferred() {
  const chosen = store.get("lang");
  if (LANGS.includes(chosen)) return chosen;
  const phone = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return phone.toLowerCase().startsWith("ja") ? "ja" : "en";
}

/** @param {string} code @returns {Promise<Record<string, string>>} */
async function fetchCatalogue(code) {
  if (!catalogues[code]) {
    const url = new URL(`../../i18n/${code}.json`, import.meta.url);
    const resp = await fetch(url);
    if (!resp.ok) throw new Error(`no catalogue for ${code} (${resp.status})`);
    catalogues[code] = await resp.json();
  }
  return catalogues[code];
}

/** Load the chosen language's catalogue (English if it cannot be had); call once before the first
 * screen. Only that one is downloaded: the catalogues have the same keys (tests/browser/
 * test_browser_i18n_complete.py), so a Japanese phone needs no English fallback. */
export async function loadLanguage(code = preferred()) {
  const want = LANGS.includes(code) ? code : "en";
  let got = want;
  try { await fetchCatalogue(want); } catch { got = "en"; }
  if (got === "en") await fetchCatalogue("en").catch(() => { catalogues.en = {}; });
  lang = got;
  document.documentElement.lang = lang;
  return lang;
}

/** @param {string} code */
export async function setLanguage(code) {
  store.set("lang", code);
  return loadLanguage(code);
}

/** The message for `key` with {placeholders} filled; `fallback` when no catalogue has the key. */
/** @param {string} key @param {Record<string, unknown>} [vars] @param {string} [fallback] @returns {string} */
export function t(key, vars = {}, fallback = undefined) {
  const text = (catalogues[lang] && catalogues[lang][key]) ?? (catalogues.en && catalogues.en[key]) ?? fallback ?? key;
  return text.replace(/\{(\w+)\}/g, (/** @type {string} */ m, /** @type {string} */ name) => (name in vars ? String(vars[name]) : m));
}

/** True when the current language's catalogue itself has the key (not the English fallback). */
export const has = (/** @type {string} */ key) => Boolean(catalogues[lang] && key in catalogues[lang]);

/** A reason the server gave as {id, params} (an error's `detail`, a photo proposal's `detail`) in
 * the interface's language, as the catalogue's whole sentence; null when there is none or the
 * catalogue has no words for it. Yaku named in the parameters are shown by their names, and a
 * seat by its player's name when `players` (the table's names, by seat) are known. */
/** @typedef {{id?: unknown, params?: Record<string, unknown>}} Detail */
/** @param {Detail|null|undefined} detail @param {string[]} [players] @returns {string|null} */
export function detailText(detail, players = []) {
  if (!detail || typeof detail.id !== "string" || !has(`detail.${detail.id}`)) return null;
  const params = { ...(detail.params || {}) };
  if (params.seat !== undefined) params.seat = players[Number(params.seat)] || t("refusal.seat", { n: params.seat });
  if (params.yaku) params.yaku = t(`yaku.${params.yaku}`);
  if (params.others) params.others = String(params.others).split(", ").map((y) => t(`yaku.${y}`)).join(t("list.sep"));
  const text = t(`detail.${detail.id}`, params);
  return text.charAt(0).toUpperCase() + text.slice(1);   // a sentence may start with a value ("{seat} declared riichi...")
}

/** An API error in the interface's language: the reason worded by the catalogue from its stable
 * detail id (a whole sentence, in English too); an error without one (a rate limit, a server
 * failure) by the kind of failure from its stable code, with the server's message after it in a
 * language other than English. Any other error (one the app threw itself) by its message. */
/** @param {{code?: string, message?: string, detail?: Detail}|null|undefined} err @returns {string} */
export function errorText(err) {
  if (!err) return "";
  if (!err.code) return err.message || "";
  return detailText(err.detail) || (lang === "en" ? err.message || "" : `${t(`error.${err.code}`)} (${err.message})`);
}

/** What the server said, in the interface's language: the reason worded from its stable id by the
 * catalogue (every refusal carries one), else the server's message. */
/** @param {{message?: string, detail?: Detail}|null|undefined} said @param {string[]} [players] @returns {string} */
export function reasonText(said, players = []) {
  if (!said) return "";
  return detailText(said.detail, players) || said.message || "";
}

/** A rule set's name in the language shown (ruleset.<id> in the catalogue); the server's title otherwise. */
export const rulesetName = (/** @type {string} */ id, /** @type {string|undefined} */ title = undefined) => (has(`ruleset.${id}`) ? t(`ruleset.${id}`) : title || id);

/** An abortive draw's name ("Four winds (suufon renda)" / "四風連打"); undefined when the catalogue has none. */
export const ABORT_NAMES = new Proxy(/** @type {Record<string, string|undefined>} */ ({}), { get: (_, k) => (typeof k === "string" && has(`abort.${k}`) ? t(`abort.${k}`) : undefined) });
