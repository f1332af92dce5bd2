// @ts-check
// Wait analysis: for a 13-tile hand, each winning tile and what it is worth (POST /api/waits).
import { h, clear } from "../core/util.js";
import { rulesets, yakuNames } from "../core/api.js";
import { createHandEditor, emptyHand } from "../core/hand-editor.js";
import { createConditions, defaultConditions, placeError } from "../core/conditions.js";
import { summary, yakuName } from "../core/results.js";
import { findWaits } from "../core/waits.js";
import { t, reasonText } from "../core/i18n.js";
import { tileSpan, tileName, parseMpsz } from "../core/tiles.js";
import * as store from "../core/store.js";
import { warmOffline } from "../core/offline.js";

function describe(value, names) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "—");
  if (value.error) return h("span", { class: "muted" }, reasonText(value.error));
  const yaku = (value.yaku || []).map((y) => yakuName(y, names)).join(t("list.sep"));
  return h("span", {}, h("b", {}, summary(value)), yaku ? h("span", { class: "small muted" }, " — ", yaku) : null);
}

/** Copies of a tile the player can still draw: four, less those in sight (the hand, the melds, the
 * dora and ura indicators, the discards). */
export function tilesLeft(state, tile) {
  const base = (c) => (c[0] === "0" ? "5" + c[1] : c);
  const seen = [...state.concealed, ...state.melds.flatMap((m) => m.tiles), ...state.dora, ...state.ura, ...(state.discards || [])];
  return Math.max(0, 4 - seen.filter((c) => base(c) === base(tile)).length);
}

export async function waitsScreen(view) {
  const saved = store.get("waits") || {};
  const state = saved.hand || emptyHand();
  if (!Array.isArray(state.discards)) state.discards = [];
  if (saved.discards && typeof saved.discards === "string") {   // kept as text by an older version
    try { state.discards = parseMpsz(saved.discards); } catch { /* dropped */ }
  }
  const cond = { ...defaultConditions(), ...(saved.cond || {}) };
  const save = () => store.set("waits", { hand: state, cond });
  let list;
  try { list = (await rulesets()).rulesets; } catch { list = [{ id: cond.ruleset, title: cond.ruleset }]; }
  const names = await yakuNames().catch(() => ({}));
  if (!navigator.onLine) warmOffline();  // the engine loads while the player enters the hand
  const out = h("div", { "aria-live": "polite" });
  const editor = createHandEditor({ state, withWin: false, withDiscards: true, onchange: () => { save(); clear(out); } });
  const conditions = createConditions(cond, { rulesetList: list, waits: true, onchange: () => { save(); clear(out); } });
  const button = h("button", { type: "button", class: "btn-primary", "data-testid": "analyse", onclick: analyse }, t("waits.find"));

  async function analyse() {
    clear(out);
    const req = { ...conditions.request(), ...editor.request() };
    delete req.win;
    button.disabled = true;
    try {
      const { res, offline } = await findWaits(req);
      const items = res.waits.map((w) => h("li", { "data-wait": w.tile },
        tileSpan(w.tile),
        h("div", { class: "value" },
          h("div", { class: "small", "data-testid": `left-${w.tile}` }, h("b", {}, String(tilesLeft(state, w.tile))), t("waits.of_four_left")),
          h("div", {}, h("span", { class: "small" }, t("waits.ron")), describe(w.ron, names)),
          h("div", {}, h("span", { class: "small" }, t("waits.tsumo")), describe(w.tsumo, names)),
          w.reason ? h("div", { class: "small muted" }, w.reason_id ? t(`waits.reason.${w.reason_id}`, {}, w.reason) : w.reason) : null)));
      const left = res.waits.reduce((n, w) => n + tilesLeft(state, w.tile), 0);
      clear(out, h("section", { class: "card", "aria-label": t("nav.waits") },
        offline ? h("p", { class: "banner info", "data-testid": "waits-offline" }, t("waits.found_offline")) : null,
        h("h2", {}, res.tenpai ? t(res.waits.length === 1 ? "waits.tenpai_one" : "waits.tenpai", { n: res.waits.length, left }) : t("waits.noten")),
        res.furiten ? h("div", { class: "banner warn" }, t("waits.furiten")) : null,
        res.tenpai ? h("ul", { class: "waits-list" }, items) : h("p", {}, t("waits.none")),
        res.waits.length ? h("p", { class: "small muted" }, t("waits.list"), res.waits.map((w) => tileName(w.tile)).join(t("list.sep"))) : null));
      out.scrollIntoView({ block: "start" });   // at once: a page still moving puts another tile under a tap
    } catch (err) {
      placeError(err, [editor, conditions], out);
    } finally {
      button.disabled = false;
    }
  }

  clear(view, h("h1", { class: "visually-hidden" }, t("waits.title")), editor.el, conditions.el,
    out, h("div", { class: "sticky-actions" }, button));
}
