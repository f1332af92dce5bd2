// @ts-check
// What the screens that score a hand share: the situation's controls (win, riichi, winds, honba...)
// with their defaults, the session's rule set and seat, the situation at the table this phone is
// at, a refusal placed next to its field, and the hand handed from the photo screens to the Score
// screen.
import { h, clear, segmented, chip, stepper } from "./util.js";
import { ApiError, OfflineError } from "./api.js";
import { emptyHand, fieldKey } from "./hand-editor.js";
import { WIND_OF, WIND_NAME } from "./tiles.js";
import { errorText, t, rulesetName } from "./i18n.js";
import * as store from "./store.js";

export function defaultConditions() {
  return {
    ruleset: "wrr", win: "ron", riichi: false, double_riichi: false, ippatsu: false,
    seat_wind: "east", round_wind: "east", last_tile: false, rinshan: false, chankan: false,
    tenhou: false, chiihou: false, renhou: false, honba: 0, riichi_sticks: 0,
  };
}

const winds = () => WIND_OF.map((w) => [w, WIND_NAME[w]]);

/**
 * The situational toggles. `fixed` names conditions the caller sets (a table sets the winds,
 * honba, sticks and rule set), which are then shown but not editable.
 */
/** @param {any} cond the conditions, changed in place
 * @param {{fixed?: Record<string, unknown>, onchange?: (cond: any) => void, rulesetList?: any[], waits?: boolean}} [opts] */
export function createConditions(cond, { fixed = {}, onchange = () => {}, rulesetList = [], waits = false } = {}) {
  const slots = {};
  const slot = (key) => (slots[key] = h("p", { class: "field-error", role: "alert" }));
  const el = h("section", { class: "card conditions", "aria-label": t("score.situation") });
  const set = (key, value) => { cond[key] = value; fix(); render(); onchange(cond); };

  function fix() {
    if (!cond.riichi && !cond.double_riichi) cond.ippatsu = false;
    if (cond.win === "ron") { cond.rinshan = false; cond.tenhou = false; cond.chiihou = false; }
    if (cond.win === "tsumo") { cond.chankan = false; cond.renhou = false; }
  }

  function render() {
    const ron = cond.win === "ron";
    const f = (key) => key in fixed;
    clear(el,
      h("h2", {}, t("score.situation")),
      f("ruleset") ? null : h("label", { class: "field" }, h("span", {}, t("score.ruleset")),
        h("select", { name: "ruleset", "aria-label": t("score.ruleset"), onchange: (e) => set("ruleset", e.target.value) },
          rulesetList.map((r) => h("option", { value: r.id, selected: r.id === cond.ruleset }, rulesetName(r.id, r.title))))),
      slot("ruleset"),
      waits ? null : segmented("win", [["ron", t("result.ron")], ["tsumo", t("result.tsumo")]], cond.win, (v) => set("win", v), { legend: t("score.won_by"), disabled: f("win") }),
      slot("win"),
      h("div", { class: "toggles", role: "group", "aria-label": t("score.riichi") },
        chip(t("score.riichi"), cond.riichi, (v) => { cond.double_riichi = v ? false : cond.double_riichi; set("riichi", v); }, { name: "riichi" }),
        chip(t("score.double_riichi"), cond.double_riichi, (v) => { cond.riichi = v ? false : cond.riichi; set("double_riichi", v); }, { name: "double_riichi" }),
        waits ? null : chip(t("score.ippatsu"), cond.ippatsu, (v) => set("ippatsu", v), { name: "ippatsu", disabled: !cond.riichi && !cond.double_riichi })),
      slot("riichi"), slot("ippatsu"),
      h("div", { class: "wind-row" }, h("span", { class: "small" }, t("score.seat_wind")),
        segmented("seat_wind", winds(), cond.seat_wind, (v) => set("seat_wind", v), { legend: t("score.seat_wind"), disabled: f("seat_wind") })),
      h("div", { class: "wind-row" }, h("span", { class: "small" }, t("score.round_wind")),
        segmented("round_wind", winds(), cond.round_wind, (v) => set("round_wind", v), { legend: t("score.round_wind"), disabled: f("round_wind") })),
      slot("seat_wind"), slot("round_wind"),
      waits ? null : h("div", { class: "toggles", role: "group", "aria-label": t("score.special") },
        chip(ron ? t("score.houtei") : t("score.haitei"), cond.last_tile, (v) => set("last_tile", v), { name: "last_tile" }),
        chip(t("score.rinshan"), cond.rinshan, (v) => set("rinshan", v), { name: "rinshan", disabled: ron }),
        chip(t("score.chankan"), cond.chankan, (v) => set("chankan", v), { name: "chankan", disabled: !ron })),
      slot("haitei"), slot("houtei"), slot("rinshan"), slot("chankan"),
      waits ? null : h("details", {}, h("summary", { class: "small" }, t("score.first_turn")),
        h("div", { class: "toggles" },
          chip(t("score.tenhou"), cond.tenhou, (v) => set("tenhou", v), { disabled: ron }),
          chip(t("score.chiihou"), cond.chiihou, (v) => set("chiihou", v), { disabled: ron }),
          chip(t("score.renhou"), cond.renhou, (v) => set("renhou", v), { disabled: !ron }))),
      slot("tenhou"), slot("chiihou"), slot("renhou"),
      f("honba") ? null : h("div", { class: "row" },
        stepper(t("score.honba"), cond.honba, (v) => { cond.honba = v; onchange(cond); }),
        stepper(t("score.sticks"), cond.riichi_sticks, (v) => { cond.riichi_sticks = v; onchange(cond); })),
      slot("honba"), slot("riichi_sticks"),
      waits || f("ruleset") ? null : h("div", { class: "toggles" },
        chip(t("score.compare"), Boolean(cond.compare), (v) => set("compare", v), { name: "compare" })));
  }

  function showError(field, message) {
    const key = fieldKey(field);
    const target = key === "haitei" || key === "houtei" ? slots[key] : slots[key];
    if (!target) return false;
    render();
    slots[key].textContent = message;
    slots[key].scrollIntoView({ block: "nearest" });
    return true;
  }

  /** The score request's situation part. */
  function request() {
    /** @type {Record<string, any>} */
    const r = {
      ruleset: cond.ruleset, win: cond.win, seat_wind: cond.seat_wind, round_wind: cond.round_wind,
      riichi: cond.riichi, double_riichi: cond.double_riichi, ippatsu: cond.ippatsu,
      haitei: cond.last_tile && cond.win === "tsumo", houtei: cond.last_tile && cond.win === "ron",
      rinshan: cond.rinshan, chankan: cond.chankan, tenhou: cond.tenhou, chiihou: cond.chiihou, renhou: cond.renhou,
      honba: cond.honba, riichi_sticks: cond.riichi_sticks,
    };
    if (cond.compare && !waits) r.compare = rulesetList.map((x) => x.id).filter((id) => id !== cond.ruleset);
    return r;
  }

  fix();
  render();
  return { el, request, showError, render };
}

/** Show an API error next to the field that caused it; false when no field matched. */
export function placeError(err, parts, fallback) {
  const field = err instanceof ApiError ? err.field : null;
  for (const part of parts) if (field && part.showError(field, errorText(err))) return;
  clear(fallback, h("div", { class: "banner error", role: "alert" },
    err instanceof OfflineError ? t("score.offline") : errorText(err)));
}

/** What belongs to the session and is kept between hands and after a reload: the rule set, the
 * seat and the round. Everything else (riichi, tsumo, honba, dora, the tiles...) is per hand. */
export const SESSION_KEYS = ["ruleset", "seat_wind", "round_wind", "compare"];

function sessionConditions() {
  const saved = store.get("session") || {};
  const out = {};
  for (const k of SESSION_KEYS) if (k in saved) out[k] = saved[k];
  return out;
}

/** The table this phone is at: the one it looked at last, in the last 3 hours, not over, with the
 * phone's seat known. Its rule set (when it has no house rules), this phone's seat wind, the round,
 * honba and sticks are then the hand's own: nothing to tap. */
const AT_TABLE_MS = 3 * 3600 * 1000;
export function tableHere() {
  const now = Date.now();
  const entry = Object.values(store.tables()).filter((k) => k.table && k.table.state && !k.table.state.finished
    && Number.isInteger(k.view_seat) && now - (k.seen_at || 0) < AT_TABLE_MS).sort((a, b) => (b.seen_at || 0) - (a.seen_at || 0))[0];
  if (!entry) return null;
  const s = entry.table.state;
  const plainRules = !entry.table.rules || !Object.keys(entry.table.rules).length;
  return { entry, cond: { ...(plainRules ? { ruleset: entry.table.ruleset } : {}), seat_wind: s.seat_winds[entry.view_seat], round_wind: s.round_wind,
    honba: s.honba, riichi_sticks: s.riichi_sticks } };
}

/** Fresh conditions for a new hand: the defaults with the session's rule set, seat and round, and
 * the situation at the table the phone is at. */
export function newHandConditions() {
  const here = tableHere();
  return { ...defaultConditions(), ...sessionConditions(), ...(here ? here.cond : {}) };
}

// the Score screen's hand being entered, kept while the app is open (switching screens) but never
// across a reload
let current = null;

/** The photo and camera screens hand over a hand read from a photo with the win and seat the player
 * chose; the Score screen scores it when it opens. */
export function handOver(hand, { win, seat_wind }) {
  current = { hand, cond: { ...newHandConditions(), win, seat_wind }, autoscore: true };
}

/** The hand the Score screen shows: the one handed over or being entered, else a fresh one. */
export function currentHand() {
  if (!current) current = { hand: emptyHand(), cond: newHandConditions() };
  return current;
}
