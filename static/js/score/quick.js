// Quick score: pick a hand, set the situation, score it with POST /api/score.
import { h, clear, segmented, chip, stepper } from "../core/util.js";
import { api, ApiError, OfflineError, rulesets, yakuNames } from "../core/api.js";
import { createHandEditor, emptyHand, fieldKey } from "./hand.js";
import { resultCard } from "./results.js";
import { WIND_OF, WIND_NAME } from "../core/tiles.js";
import { errorText, t, lang, detailText, rulesetName } from "../core/i18n.js";
import * as store from "../core/store.js";
import { prepareOffline, scoreOffline } from "../core/offline.js";

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

export { errorText };   // kept here for the screens that import it from quick.js

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

// the hand being entered, kept while the app is open (switching screens) but never across a reload
let current = null;

/** The photo screen hands over a hand read from a photo with the win and seat the player chose. */
export function handOver(hand, { win, seat_wind }) {
  current = { hand, cond: { ...newHandConditions(), win, seat_wind }, autoscore: true };
}

export async function scoreScreen(view) {
  if (!current) current = { hand: emptyHand(), cond: newHandConditions() };
  const state = current.hand;
  const cond = current.cond;
  const saveSession = () => store.set("session", Object.fromEntries(SESSION_KEYS.filter((k) => k in cond).map((k) => [k, cond[k]])));
  let list = [];
  try { list = (await rulesets()).rulesets; } catch { list = [{ id: cond.ruleset, title: cond.ruleset }]; }
  const names = await yakuNames().catch(() => ({}));

  const resultBox = h("div", { "aria-live": "polite" });
  const conditionsBox = h("div");
  let conditions;
  const edited = () => { scored(false); clear(resultBox); };
  const editor = createHandEditor({ state, withWin: true, onchange: edited, onclear: () => newHand({ keepEditor: true }) });
  const drawConditions = () => {
    conditions = createConditions(cond, { rulesetList: list, onchange: () => { saveSession(); firstLaunch.remove(); edited(); } });
    clear(conditionsBox, conditions.el);
  };
  // asked once, on first launch: the table's rules decide, among other things, whether red fives count
  const firstLaunch = store.get("session") && store.get("session").ruleset ? h("span") : h("section", { class: "card", "aria-label": t("first.title"), "data-testid": "first-ruleset" },
    h("h2", {}, t("first.title")),
    h("p", { class: "hint" }, t("first.hint")),
    h("div", { class: "rules-choice" }, list.map((r) => {
      const red = r.parameters && r.parameters.red_fives ? r.parameters.red_fives.value : null;
      return h("button", { type: "button", "data-first-ruleset": r.id, onclick: () => {
        cond.ruleset = r.id;
        saveSession();
        firstLaunch.remove();
        drawConditions();
        edited();
      } }, h("span", {}, rulesetName(r.id, r.title)), red === null ? null : h("small", { class: "muted" }, red ? t("first.red") : t("first.nored")));
    })));
  drawConditions();
  const button = h("button", { type: "button", class: "btn-primary", "data-testid": "score", onclick: score }, t("score.button"));
  const next = h("button", { type: "button", "data-testid": "next-hand", hidden: true, onclick: () => newHand() }, t("score.next"));

  function scored(yes) { next.hidden = !yes; }

  /** Start the next hand: only the session's settings stay. */
  function newHand({ keepEditor = false } = {}) {
    Object.assign(cond, newHandConditions());
    if (!keepEditor) editor.reset();
    drawConditions();
    scored(false);
    clear(resultBox);
    window.scrollTo(0, 0);
  }

  async function score() {
    clear(resultBox);
    const req = { ...conditions.request(), ...editor.request() };
    button.disabled = true;
    try {
      let result, offline = false;
      try {
        result = await api("POST", "/api/score", req);
      } catch (err) {
        if (!(err instanceof OfflineError) || !store.get("offline_scoring")) throw err;
        // no connection: the same engine, run on this phone
        result = await scoreOffline(req);
        offline = true;
      }
      clear(resultBox, resultCard(result, { yakuNames: names, extra: offline ? h("p", { class: "banner info", "data-testid": "scored-offline" }, t("score.scored_offline")) : null }));
      scored(true);
      resultBox.scrollIntoView({ behavior: "smooth", block: "start" });
    } catch (err) {
      placeError(err, [editor, conditions], resultBox);
    } finally {
      button.disabled = false;
    }
  }

  // offline scoring is downloaded only when the player asks for it (12 MB), then kept by the service worker
  const offlineBox = h("div", { class: "offline-prep", "aria-live": "polite" });
  const drawOffline = (state, message = "") => clear(offlineBox,
    state === "ready" ? h("p", { class: "small muted", "data-testid": "offline-ready" }, t("offline.ready"))
      : h("button", { type: "button", class: "btn-block", "data-testid": "prepare-offline", disabled: state === "busy", onclick: async () => {
        drawOffline("busy");
        try { await prepareOffline(); store.set("offline_scoring", true); drawOffline("ready"); } catch (err) { drawOffline("idle", err.message); }
      } }, state === "busy" ? t("offline.loading") : t("offline.prepare")),
    message ? h("p", { class: "field-error", role: "alert" }, message) : null);
  drawOffline(store.get("offline_scoring") ? "ready" : "idle");

  // the seat, round, honba and sticks taken from the table the phone is at, said where the player sees them
  const here = tableHere();
  const fromTable = here ? h("p", { class: "banner info small", "data-testid": "from-table" }, t("score.from_table", {
    players: here.entry.table.players.join(" · "), round: t("table.round", { wind: WIND_NAME[here.cond.round_wind], n: here.entry.table.state.hand_number }),
    seat: WIND_NAME[here.cond.seat_wind], honba: here.cond.honba, sticks: here.cond.riichi_sticks })) : null;
  clear(view,
    h("h1", { class: "visually-hidden" }, t("score.title")),
    firstLaunch, fromTable, editor.el, conditionsBox, resultBox, offlineBox,
    h("div", { class: "sticky-actions" }, next, button));
  if (current.autoscore) {  // arriving from the photo screen
    current.autoscore = false;
    score();
  }
}
