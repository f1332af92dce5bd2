// Wait analysis: for a 13-tile hand, each winning tile and what it is worth (POST /api/waits).
import { h, clear } from "./util.js";
import { api, rulesets, yakuNames } from "./api.js";
import { createHandEditor, emptyHand } from "./hand.js";
import { createConditions, defaultConditions, placeError } from "./quick.js";
import { summary } from "./results.js";
import { tileSpan, tileName, toMpsz, parseMpsz } from "./tiles.js";
import * as store from "./store.js";

function describe(value, names) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "—");
  if (value.error) return h("span", { class: "muted" }, value.error.message);
  const yaku = (value.yaku || []).map((y) => names[y.id] || y.name || y.id).join(", ");
  return h("span", {}, h("b", {}, summary(value)), yaku ? h("span", { class: "small muted" }, " — ", yaku) : null);
}

export async function waitsScreen(view) {
  const saved = store.get("waits") || {};
  const state = saved.hand || emptyHand();
  const cond = { ...defaultConditions(), ...(saved.cond || {}) };
  let discards = saved.discards || "";
  const save = () => store.set("waits", { hand: state, cond, discards });
  let list = [];
  try { list = (await rulesets()).rulesets; } catch { list = [{ id: cond.ruleset, title: cond.ruleset }]; }
  const names = await yakuNames().catch(() => ({}));
  const out = h("div", { "aria-live": "polite" });
  const editor = createHandEditor({ state, withWin: false, onchange: () => { save(); clear(out); } });
  const conditions = createConditions(cond, { rulesetList: list, waits: true, onchange: () => { save(); clear(out); } });
  const discardErr = h("p", { class: "field-error", role: "alert", id: "discards-error" });
  const discardInput = h("input", { type: "text", name: "discards", value: discards, placeholder: "e.g. 19m5z", autocomplete: "off", "aria-describedby": "discards-error",
    oninput: (e) => { discards = e.target.value; save(); discardErr.textContent = ""; } });
  const discardsPart = {
    showError(field, message) { if (field !== "discards") return false; discardErr.textContent = message; return true; },
  };
  const button = h("button", { type: "button", class: "btn-primary", "data-testid": "analyse", onclick: analyse }, "Find waits");

  async function analyse() {
    clear(out);
    discardErr.textContent = "";
    const req = { ...conditions.request(), ...editor.request() };
    delete req.win;
    if (discards.trim()) {
      try { req.discards = toMpsz(parseMpsz(discards)); } catch (err) { discardErr.textContent = err.message; return; }
    }
    button.disabled = true;
    try {
      const res = await api("POST", "/api/waits", req);
      const items = res.waits.map((w) => h("li", { "data-wait": w.tile },
        tileSpan(w.tile),
        h("div", { class: "value" }, h("div", {}, h("span", { class: "small" }, "Ron: "), describe(w.ron, names)),
          h("div", {}, h("span", { class: "small" }, "Tsumo: "), describe(w.tsumo, names)),
          w.reason ? h("div", { class: "small muted" }, w.reason) : null)));
      clear(out, h("section", { class: "card", "aria-label": "Waits" },
        h("h2", {}, res.tenpai ? `Tenpai: ${res.waits.length} winning tile${res.waits.length === 1 ? "" : "s"}` : "Not tenpai"),
        res.furiten ? h("div", { class: "banner warn" }, "Furiten: one of your waits is among your discards, so you cannot win by ron.") : null,
        res.tenpai ? h("ul", { class: "waits-list" }, items) : h("p", {}, "No single tile completes this hand."),
        res.waits.length ? h("p", { class: "small muted" }, "Waits: ", res.waits.map((w) => tileName(w.tile)).join(", ")) : null));
      out.scrollIntoView({ behavior: "smooth", block: "start" });
    } catch (err) {
      placeError(err, [editor, conditions, discardsPart], out);
    } finally {
      button.disabled = false;
    }
  }

  clear(view, h("h1", { class: "visually-hidden" }, "Wait analysis"), editor.el, conditions.el,
    h("section", { class: "card" }, h("label", { class: "field" }, h("span", {}, "Your discards (optional, for furiten)"), discardInput), discardErr),
    out, h("div", { class: "sticky-actions" }, button));
}
