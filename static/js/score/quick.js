// @ts-check
// Quick score: pick a hand, set the situation, score it with POST /api/score.
import { h, clear } from "../core/util.js";
import { api, OfflineError, rulesets, yakuNames } from "../core/api.js";
import { createHandEditor } from "../core/hand-editor.js";
import { resultCard } from "../core/results.js";
import { createConditions, currentHand, newHandConditions, placeError, SESSION_KEYS, tableHere } from "../core/conditions.js";
import { WIND_NAME } from "../core/tiles.js";
import { t, rulesetName } from "../core/i18n.js";
import * as store from "../core/store.js";
import { prepareOffline, scoreOffline } from "../core/offline.js";

export async function scoreScreen(view) {
  const current = currentHand();
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
      resultBox.scrollIntoView({ block: "start" });   // at once: a page still moving puts another tile under a tap
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
        try { await prepareOffline(); store.set("offline_scoring", true); drawOffline("ready"); } catch { drawOffline("idle", t("offline.failed")); }
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
