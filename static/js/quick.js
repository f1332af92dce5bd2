// Quick score: pick a hand, set the situation, score it with POST /api/score.
import { h, clear, segmented, chip, stepper } from "./util.js";
import { api, ApiError, OfflineError, rulesets, yakuNames } from "./api.js";
import { createHandEditor, emptyHand, fieldKey } from "./hand.js";
import { resultCard } from "./results.js";
import { WIND_OF } from "./tiles.js";
import * as store from "./store.js";

export function defaultConditions() {
  return {
    ruleset: "wrr", win: "ron", riichi: false, double_riichi: false, ippatsu: false,
    seat_wind: "east", round_wind: "east", last_tile: false, rinshan: false, chankan: false,
    tenhou: false, chiihou: false, renhou: false, honba: 0, riichi_sticks: 0,
  };
}

const WINDS = WIND_OF.map((w) => [w, w[0].toUpperCase() + w.slice(1)]);

/**
 * The situational toggles. `fixed` names conditions the caller sets (a table sets the winds,
 * honba, sticks and rule set), which are then shown but not editable.
 */
export function createConditions(cond, { fixed = {}, onchange = () => {}, rulesetList = [], waits = false } = {}) {
  const slots = {};
  const slot = (key) => (slots[key] = h("p", { class: "field-error", role: "alert" }));
  const el = h("section", { class: "card conditions", "aria-label": "Situation" });
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
      h("h2", {}, "Situation"),
      f("ruleset") ? null : h("label", { class: "field" }, h("span", {}, "Rule set"),
        h("select", { name: "ruleset", "aria-label": "Rule set", onchange: (e) => set("ruleset", e.target.value) },
          rulesetList.map((r) => h("option", { value: r.id, selected: r.id === cond.ruleset }, r.title)))),
      slot("ruleset"),
      waits ? null : segmented("win", [["ron", "Ron"], ["tsumo", "Tsumo"]], cond.win, (v) => set("win", v), { legend: "Won by", disabled: f("win") }),
      slot("win"),
      h("div", { class: "toggles", role: "group", "aria-label": "Riichi" },
        chip("Riichi", cond.riichi, (v) => { cond.double_riichi = v ? false : cond.double_riichi; set("riichi", v); }, { name: "riichi" }),
        chip("Double riichi", cond.double_riichi, (v) => { cond.riichi = v ? false : cond.riichi; set("double_riichi", v); }, { name: "double_riichi" }),
        waits ? null : chip("Ippatsu", cond.ippatsu, (v) => set("ippatsu", v), { name: "ippatsu", disabled: !cond.riichi && !cond.double_riichi })),
      slot("riichi"), slot("ippatsu"),
      h("div", { class: "wind-row" }, h("span", { class: "small" }, "Seat wind"),
        segmented("seat_wind", WINDS, cond.seat_wind, (v) => set("seat_wind", v), { legend: "Seat wind", disabled: f("seat_wind") })),
      h("div", { class: "wind-row" }, h("span", { class: "small" }, "Round wind"),
        segmented("round_wind", WINDS, cond.round_wind, (v) => set("round_wind", v), { legend: "Round wind", disabled: f("round_wind") })),
      slot("seat_wind"), slot("round_wind"),
      waits ? null : h("div", { class: "toggles", role: "group", "aria-label": "Special wins" },
        chip(ron ? "Houtei (last discard)" : "Haitei (last draw)", cond.last_tile, (v) => set("last_tile", v), { name: "last_tile" }),
        chip("Rinshan", cond.rinshan, (v) => set("rinshan", v), { name: "rinshan", disabled: ron }),
        chip("Chankan", cond.chankan, (v) => set("chankan", v), { name: "chankan", disabled: !ron })),
      slot("haitei"), slot("houtei"), slot("rinshan"), slot("chankan"),
      waits ? null : h("details", {}, h("summary", { class: "small" }, "First-turn wins (tenhou, chiihou, renhou)"),
        h("div", { class: "toggles" },
          chip("Tenhou", cond.tenhou, (v) => set("tenhou", v), { disabled: ron }),
          chip("Chiihou", cond.chiihou, (v) => set("chiihou", v), { disabled: ron }),
          chip("Renhou", cond.renhou, (v) => set("renhou", v), { disabled: !ron }))),
      slot("tenhou"), slot("chiihou"), slot("renhou"),
      f("honba") ? null : h("div", { class: "row" },
        stepper("Honba", cond.honba, (v) => { cond.honba = v; onchange(cond); }),
        stepper("Riichi sticks", cond.riichi_sticks, (v) => { cond.riichi_sticks = v; onchange(cond); })),
      slot("honba"), slot("riichi_sticks"),
      waits || f("ruleset") ? null : h("div", { class: "toggles" },
        chip("Compare with the other rule sets", Boolean(cond.compare), (v) => set("compare", v), { name: "compare" })));
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

/** Show an API error next to the field that caused it; false when no field matched. */
export function placeError(err, parts, fallback) {
  const field = err instanceof ApiError ? err.field : null;
  for (const part of parts) if (field && part.showError(field, err.message)) return;
  clear(fallback, h("div", { class: "banner error", role: "alert" },
    err instanceof OfflineError ? "You are offline: scoring needs the server. Try again when you are back online." : err.message));
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

/** Fresh conditions for a new hand: the defaults with the session's rule set, seat and round. */
export function newHandConditions() {
  return { ...defaultConditions(), ...sessionConditions() };
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
  const firstLaunch = store.get("session") && store.get("session").ruleset ? h("span") : h("section", { class: "card", "aria-label": "Your table's rules", "data-testid": "first-ruleset" },
    h("h2", {}, "Which rules does your table play?"),
    h("p", { class: "hint" }, "Asked once; change it any time under Situation."),
    h("div", { class: "rules-choice" }, list.map((r) => {
      const red = r.parameters && r.parameters.red_fives ? r.parameters.red_fives.value : null;
      return h("button", { type: "button", "data-first-ruleset": r.id, onclick: () => {
        cond.ruleset = r.id;
        saveSession();
        firstLaunch.remove();
        drawConditions();
        edited();
      } }, h("span", {}, r.title), red === null ? null : h("small", { class: "muted" }, red ? "red fives count" : "no red fives"));
    })));
  drawConditions();
  const button = h("button", { type: "button", class: "btn-primary", "data-testid": "score", onclick: score }, "Score");
  const next = h("button", { type: "button", "data-testid": "next-hand", hidden: true, onclick: () => newHand() }, "Next hand");

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
      const result = await api("POST", "/api/score", req);
      clear(resultBox, resultCard(result, { yakuNames: names }));
      scored(true);
      resultBox.scrollIntoView({ behavior: "smooth", block: "start" });
    } catch (err) {
      placeError(err, [editor, conditions], resultBox);
    } finally {
      button.disabled = false;
    }
  }

  clear(view,
    h("h1", { class: "visually-hidden" }, "Quick score"),
    firstLaunch, editor.el, conditionsBox, resultBox,
    h("div", { class: "sticky-actions" }, next, button));
  if (current.autoscore) {  // arriving from the photo screen
    current.autoscore = false;
    score();
  }
}
