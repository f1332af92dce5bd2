// @ts-check
// Tile codes in mpsz notation (0 = red five) and their images.
import { t } from "./i18n.js";
export const SUITS = ["m", "p", "s", "z"];
/** A honour tile's name in the interface's language ("Chun (red)" / "中"). */
export const HONOURS = new Proxy(/** @type {Record<string, string|undefined>} */ ({}), { get: (_, c) => (typeof c === "string" && /^[1-7]z$/.test(c) ? t(`tile.${c}`) : undefined) });
export const WIND_OF = ["east", "south", "west", "north"];
/** @type {Record<string, string>} */
export const WIND_LETTER = { east: "E", south: "S", west: "W", north: "N" };
/** A wind's name in the interface's language ("East" / "東"). */
export const WIND_NAME = new Proxy(/** @type {Record<string, string>} */ ({}), { get: (_, w) => (typeof w === "string" ? t(`wind.${w}`, {}, w) : undefined) });

/** The picker's tiles by suit: 1-9 then the red five (honours 1-7). */
/** @type {Record<string, string[]>} */
export const PICKER = {
  m: ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "0m"],
  p: ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "0p"],
  s: ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "0s"],
  z: ["1z", "2z", "3z", "4z", "5z", "6z", "7z"],
};

const STATIC = new URL("../../", import.meta.url).pathname;  // /static/
export const tileSrc = (/** @type {string} */ code) => `${STATIC}tiles/${code === "back" ? "back" : code}.svg`;

/** A tile in words: "3-man", "red 5-pin", "Chun (red)" / "3萬", "赤5筒", "中". */
/** @param {string} code @returns {string} */
export function tileName(code) {
  if (code === "back") return t("tile.back");
  if (code[1] === "z") return HONOURS[code] || code;
  return t(`tile.${code[1]}`, { n: code[0] === "0" ? t("tile.red") : code[0] });
}

/** Same tile ignoring redness: "0m" -> "5m". */
export const plain = (/** @type {string} */ code) => (code[0] === "0" ? "5" + code[1] : code);
export const isRed = (/** @type {string} */ code) => code[0] === "0";

/** Sort order: suit m p s z, then number, a red five just after the plain fives. */
/** @param {string} code @returns {number} */
export function sortKey(code) {
  const n = code[0] === "0" ? 5.5 : Number(code[0]);
  return SUITS.indexOf(code[1]) * 10 + n;
}
export const sortTiles = (/** @type {Iterable<string>} */ codes) => [...codes].sort((a, b) => sortKey(a) - sortKey(b));

/** ["2m","3m","4m","1z"] -> "234m1z" (the order of the input kept). */
/** @param {Iterable<string>} codes @returns {string} */
export function toMpsz(codes) {
  let out = "", digits = "", suit = "";
  for (const code of codes) {
    if (code[1] !== suit && digits) { out += digits + suit; digits = ""; }
    suit = code[1];
    digits += code[0];
  }
  return digits ? out + digits + suit : out;
}

/** "234m11z" -> ["2m","3m","4m","1z","1z"]; throws on anything else, as scoring.tiles.parse_tiles
 * does: honours are 1z-7z (no 0z, 8z or 9z), a red five is 0m, 0p or 0s. */
/** @param {string|null|undefined} text @returns {string[]} */
export function parseMpsz(text) {
  /** @type {string[]} */
  const out = [];
  /** @type {string[]} */
  let pending = [];
  for (const ch of (text || "").replace(/\s+/g, "")) {
    if (/[0-9]/.test(ch)) pending.push(ch);
    else if (/[mpsz]/.test(ch) && pending.length) {
      const bad = ch === "z" ? pending.find((d) => d === "0" || d > "7") : null;
      if (bad) throw new Error(`cannot read ${JSON.stringify(text)}: there is no ${bad}z`);
      out.push(...pending.map((d) => d + ch));
      pending = [];
    } else throw new Error(`cannot read ${JSON.stringify(text)}`);
  }
  if (pending.length) throw new Error(`cannot read ${JSON.stringify(text)}: digits without a suit`);
  return out;
}

/** An <img> of a tile with its name as alt text. */
/** @param {string} code @param {{alt?: string, class?: string}} [attrs] @returns {HTMLImageElement} */
export function tileImg(code, attrs = {}) {
  const img = document.createElement("img");
  img.src = tileSrc(code);
  img.alt = attrs.alt !== undefined ? attrs.alt : tileName(code);
  img.draggable = false;
  img.decoding = "async";
  if (attrs.class) img.className = attrs.class;
  return img;
}

/** @param {string} code @returns {HTMLSpanElement} */
export function tileSpan(code) {
  const span = document.createElement("span");
  span.className = "tile";
  span.append(tileImg(code));
  return span;
}
