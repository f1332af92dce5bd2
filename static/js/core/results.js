// @ts-check
// The result card of a scored hand, shared by the quick-score screen and the table sheets.
// Its words come from the message catalogue (English or Japanese, with the kanji names of yaku).
import { h } from "../core/util.js";
import { t, has, lang, reasonText } from "../core/i18n.js";
import { parseMpsz, tileImg, tileName } from "../core/tiles.js";

/** Waits in plain words (the API's ids are never shown). */
export const WAIT_NAMES = new Proxy({}, { get: (_, id) => (typeof id === "string" && has(`wait.${id}`) ? t(`wait.${id}`) : undefined) });

export function limitName(r) {
  if (!r.limit) return null;
  if (r.limit === "yakuman" && r.kazoe) return t("limit.kazoe");
  if (r.limit === "yakuman" && r.yakuman > 1) return r.yakuman <= 3 ? t(`limit.${r.yakuman}`) : t("limit.multi", { n: r.yakuman });
  return t(`limit.${r.limit}`, {}, r.limit);
}

/** A yaku's name: the catalogue's in Japanese (kanji), else the API's English name. */
export function yakuName(y, yakuNames = {}) {
  if (lang !== "en" && has(`yaku.${y.id}`)) return t(`yaku.${y.id}`);
  return y.name || yakuNames[y.id] || y.id.replace(/_/g, " ");
}

/** Who pays what, as lines of [label, points]. */
export function paymentLines(r) {
  const p = r.payments || {};
  if ("ron" in p) return [[t("card.discarder_pays"), p.ron]];
  if ("dealer" in p) return [[t("card.dealer_pays"), p.dealer], [t("card.non_dealer_pays"), p.non_dealer]];
  return [[t("card.each_pays"), p.non_dealer]];
}

/** A tsumo's payments as the table says them: "500/1000" (non-dealers/dealer) or "1300 all"; null for a ron. */
export function tsumoSplit(r) {
  const p = r.payments || {};
  if ("ron" in p || !("non_dealer" in p)) return null;
  return "dealer" in p ? `${p.non_dealer}/${p.dealer}` : t("split.all", { n: p.non_dealer });
}

const hanFu = (r) => (r.fu && !(r.limit && r.han >= 5) ? t("card.hanfu", { han: r.han, fu: r.fu }) : t("card.han", { n: r.han }));

/** A one-line summary: "3 han 40 fu · 5200" / "Mangan · 8000" / "1 han 30 fu · 1100 (300/500)". */
export function summary(r) {
  const lim = limitName(r);
  const split = tsumoSplit(r);
  return [lim, r.yakuman ? "" : hanFu(r)].filter(Boolean).join(", ") + ` · ${r.total}` + (split ? ` (${split})` : "");
}

export function resultCard(r, { title = t("card.result"), yakuNames = {}, extra = null } = {}) {
  const lim = limitName(r);
  const yakuRows = (r.yaku || []).map((y) => h("tr", { "data-yaku": y.id },
    h("td", {}, yakuName(y, yakuNames)),
    h("td", { class: "num" }, y.yakuman ? (y.yakuman > 1 ? t("limit.multi", { n: y.yakuman }) : t("card.yakuman")) : t("card.han", { n: y.han }))));
  const fuRows = (r.fu_details || []).map((f) => h("tr", { "data-fu": f.id }, h("td", {}, fuLine(f)), h("td", { class: "num" }, t("card.fu", { n: f.fu }))));
  const pay = paymentLines(r).map(([label, n]) => h("tr", {}, h("td", {}, label), h("td", { class: "num" }, String(n))));
  if (r.riichi_sticks) pay.push(h("tr", {}, h("td", {}, t("card.sticks", { n: r.riichi_sticks })), h("td", { class: "num" }, `+${r.riichi_sticks * 1000}`)));
  const split = tsumoSplit(r);
  return h("section", { class: "card result", "aria-label": title, "data-testid": "result" },
    h("h2", {}, h("span", {}, title, " ", lim ? h("span", { class: "limit", "data-testid": "limit" }, lim) : null),
      h("span", { class: "total" }, h("span", { "data-testid": "result-total", "data-value": String(r.total) }, String(r.total)), h("small", {}, t("card.pts")),
        split ? h("small", { class: "split", "data-testid": "tsumo-split" }, ` ${split}`) : null)),
    h("p", { class: "muted" }, r.yakuman ? (r.yakuman > 1 ? t("limit.multi", { n: r.yakuman }) : t("card.yakuman")) : t("card.hanfu", { han: r.han, fu: r.fu }),
      r.dealer ? ` · ${t("card.dealer")}` : "", r.win ? ` · ${t(`result.${r.win}`, {}, r.win)}` : "", r.honba ? ` · ${t("card.honba", { n: r.honba })}` : "",
      r.wait ? ` · ${WAIT_NAMES[r.wait] || r.wait.replace(/_/g, " ")}` : ""),
    h("h3", {}, t("card.yaku")), h("table", {}, h("tbody", {}, yakuRows)),
    fuRows.length && !r.yakuman ? [h("h3", {}, t("card.fu_title")), h("table", {}, h("tbody", {}, fuRows, h("tr", {}, h("td", {}, h("b", {}, t("card.fu_total"))), h("td", { class: "num" }, t("card.fu", { n: r.fu })))))] : null,
    h("h3", {}, t("card.payments")), h("table", {}, h("tbody", {}, pay, h("tr", {}, h("td", {}, h("b", {}, t("card.receives"))), h("td", { class: "num" }, String(r.total))))),
    r.notes && r.notes.length ? h("ul", { class: "notes" }, r.notes.map((n, i) => h("li", {}, noteText(r, n, i)))) : null,
    r.compare && r.compare.length ? compareTable(r.compare) : null,
    extra);
}

/** A note of the engine in the interface's language, by its stable id (the English text otherwise). */
function noteText(r, text, i) {
  const id = (r.note_ids || [])[i];
  return id && has(`note.${id}`) ? t(`note.${id}`, { rules: r.ruleset_title || "" }) : text;
}

/** The tiles of a fu line's group or pair as a plural-ish name: "red dragons", "2-pin" / "中", "2筒". */
function groupTileName(code) {
  return code[1] === "z" ? t(`fu.tiles.${code}`) : tileName(code);
}

/** One fu line in plain words, with its tiles drawn: "Concealed triplet of red dragons [tiles]" / "中の暗刻". */
export function fuLine(f) {
  let words;
  if (f.id === "group" && f.tiles) {
    const kind = `${f.concealed ? "concealed" : "open"}_${f.kan ? "kan" : "triplet"}`;
    words = t(`fu.group.${kind}`, { tiles: groupTileName(f.tiles.slice(-2)) });
  } else if (f.id === "pair" && f.tiles) {
    words = t(`fu.pair.${f.reason || "value"}`, { tiles: groupTileName(f.tiles.slice(-2)) });
  } else if (f.id === "wait" && f.wait) {
    words = t(`fu.wait.${f.wait}`);
  } else {
    words = has(`fu.${f.id}`) || lang === "en" ? t(`fu.${f.id}`, {}, f.label) : f.label;
  }
  let tiles = null;
  if (f.tiles) {
    try {
      tiles = h("span", { class: "fu-tiles", "aria-hidden": "true" }, parseMpsz(f.tiles).map((c) => tileImg(c, { alt: "" })));
    } catch { tiles = null; }
  }
  return h("span", { class: "fu-line" }, h("span", { class: "fu-words" }, words), tiles);
}

function compareTable(rows) {
  return [h("h3", {}, t("card.compare")), h("table", {}, h("tbody", {}, rows.map((c) => h("tr", {},
    h("td", {}, c.title || c.ruleset), h("td", { class: "num" }, c.error ? reasonText(c.error) : `${limitName(c) || hanFu(c)} · ${c.total}`)))))];
}
