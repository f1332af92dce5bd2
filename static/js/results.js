// The result card of a scored hand, shared by the quick-score screen and the table sheets.
import { h } from "./util.js";

/** Waits in plain words (the API's ids are never shown). */
export const WAIT_NAMES = {
  ryanmen: "two-sided wait (ryanmen)", kanchan: "closed wait (kanchan)", penchan: "edge wait (penchan)",
  tanki: "pair wait (tanki)", shanpon: "double-pair wait (shanpon)", chiitoitsu: "pair wait (seven pairs)",
  kokushi: "single wait (thirteen orphans)", kokushi_13: "13-sided wait (thirteen orphans)",
};

export const LIMIT_NAMES = { mangan: "Mangan", haneman: "Haneman", baiman: "Baiman", sanbaiman: "Sanbaiman", yakuman: "Yakuman" };

export function limitName(r) {
  if (!r.limit) return null;
  if (r.limit === "yakuman" && r.kazoe) return "Kazoe yakuman";
  if (r.limit === "yakuman" && r.yakuman > 1) return `${["", "", "Double", "Triple", "Quadruple", "Quintuple", "Sextuple"][r.yakuman] || r.yakuman + "×"} yakuman`;
  return LIMIT_NAMES[r.limit] || r.limit;
}

/** Who pays what, as lines of [label, points]. */
export function paymentLines(r) {
  const p = r.payments || {};
  if ("ron" in p) return [["Discarder pays", p.ron]];
  if ("dealer" in p) return [["Dealer pays", p.dealer], ["Each non-dealer pays", p.non_dealer]];
  return [["Each player pays", p.non_dealer]];
}

/** A tsumo's payments as the table says them: "500/1000" (non-dealers/dealer) or "1300 all"; null for a ron. */
export function tsumoSplit(r) {
  const p = r.payments || {};
  if ("ron" in p || !("non_dealer" in p)) return null;
  return "dealer" in p ? `${p.non_dealer}/${p.dealer}` : `${p.non_dealer} all`;
}

/** A one-line summary: "3 han 40 fu · 5200" / "Mangan · 8000" / "1 han 30 fu · 1100 (300/500)". */
export function summary(r) {
  const lim = limitName(r);
  const hanfu = r.yakuman ? "" : r.fu && !(r.limit && r.han >= 5) ? `${r.han} han ${r.fu} fu` : `${r.han} han`;
  const split = tsumoSplit(r);
  return [lim, hanfu].filter(Boolean).join(", ") + ` · ${r.total}` + (split ? ` (${split})` : "");
}

export function resultCard(r, { title = "Result", yakuNames = {}, extra = null } = {}) {
  const lim = limitName(r);
  const yakuRows = (r.yaku || []).map((y) => h("tr", {},
    h("td", {}, y.name || yakuNames[y.id] || y.id),
    h("td", { class: "num" }, y.yakuman ? (y.yakuman > 1 ? `${y.yakuman}× yakuman` : "yakuman") : `${y.han} han`)));
  const fuRows = (r.fu_details || []).map((f) => h("tr", {}, h("td", {}, f.label), h("td", { class: "num" }, `${f.fu} fu`)));
  const pay = paymentLines(r).map(([label, n]) => h("tr", {}, h("td", {}, label), h("td", { class: "num" }, String(n))));
  if (r.riichi_sticks) pay.push(h("tr", {}, h("td", {}, `Riichi sticks on the table (${r.riichi_sticks})`), h("td", { class: "num" }, `+${r.riichi_sticks * 1000}`)));
  return h("section", { class: "card result", "aria-label": title, "data-testid": "result" },
    h("h2", {}, h("span", {}, title, " ", lim ? h("span", { class: "limit" }, lim) : null),
      h("span", { class: "total" }, h("span", { "data-testid": "result-total", "data-value": String(r.total) }, String(r.total)), h("small", {}, " pts"),
        tsumoSplit(r) ? h("small", { class: "split", "data-testid": "tsumo-split" }, ` ${tsumoSplit(r)}`) : null)),
    h("p", { class: "muted" }, r.yakuman ? `${r.yakuman > 1 ? r.yakuman + "× " : ""}yakuman` : `${r.han} han ${r.fu} fu`,
      r.dealer ? " · dealer" : "", r.win ? ` · ${r.win}` : "", r.honba ? ` · ${r.honba} honba` : "", r.wait ? ` · ${WAIT_NAMES[r.wait] || r.wait.replace(/_/g, " ")}` : ""),
    h("h3", {}, "Yaku"), h("table", {}, h("tbody", {}, yakuRows)),
    fuRows.length && !r.yakuman ? [h("h3", {}, "Fu"), h("table", {}, h("tbody", {}, fuRows, h("tr", {}, h("td", {}, h("b", {}, "Total (rounded up)")), h("td", { class: "num" }, `${r.fu} fu`))))] : null,
    h("h3", {}, "Payments"), h("table", {}, h("tbody", {}, pay, h("tr", {}, h("td", {}, h("b", {}, "Winner receives")), h("td", { class: "num" }, String(r.total))))),
    r.notes && r.notes.length ? h("ul", { class: "notes" }, r.notes.map((n) => h("li", {}, n))) : null,
    r.compare && r.compare.length ? compareTable(r.compare) : null,
    extra);
}

function compareTable(rows) {
  return [h("h3", {}, "Other rule sets"), h("table", {}, h("tbody", {}, rows.map((c) => h("tr", {},
    h("td", {}, c.title || c.ruleset), h("td", { class: "num" }, c.error ? c.error.message : `${limitName(c) || `${c.han} han ${c.fu} fu`} · ${c.total}`)))))];
}
