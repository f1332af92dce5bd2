// @ts-check
// The hand editor: tile picker, concealed tiles, melds, dora and ura indicators.
// Used by the quick-score and wait screens; it owns no API calls.
import { h, clear, segmented, stepper } from "../core/util.js";
import { t } from "../core/i18n.js";
import { PICKER, plain, isRed, sortKey, sortTiles, toMpsz, parseMpsz, tileImg, tileName } from "../core/tiles.js";

const MELD_SIZE = { chi: 3, pon: 3, daiminkan: 4, kakan: 4, ankan: 4 };
/** A meld's kind in words ("pon" / "ポン"). */
const MELD_LABEL = new Proxy({}, { get: (_, k) => (typeof k === "string" ? t(`meld.${k}`, {}, k) : undefined) });
const TARGET_IDS = ["hand", "chi", "pon", "daiminkan", "ankan", "dora", "ura", "win"];

export function emptyHand() {
  return { concealed: [], winIndex: null, melds: [], dora: [], ura: [], doraCount: 0 };
}

/** Where an API error's field is shown: "melds[0].tiles" -> "melds". */
export function fieldKey(field) {
  if (!field) return "";
  if (field === "win_tile") return "hand";
  return field.split(/[.[]/)[0];
}

/**
 * createHandEditor({state, withWin, onchange}) -> {el, state, request(), showError(field, msg), clearErrors()}
 * state is mutated in place (so the caller can keep it in storage).
 */
/** @param {{state: any, withWin?: boolean, withDiscards?: boolean, onchange?: (state: any) => void, onclear?: () => void}} opts */
export function createHandEditor({ state, withWin = true, withDiscards = false, onchange = () => {}, onclear = () => {} }) {
  let target = "hand";
  if (withDiscards && !Array.isArray(state.discards)) state.discards = [];
  // what was added, last first, so "Undo" takes back the last tile (or meld, or indicator)
  let added = [];
  const errors = {};
  const slots = {};
  const slot = (key) => (slots[key] = h("p", { class: "field-error", id: `err-${key}-${Math.random().toString(36).slice(2, 7)}`, role: "alert" }));

  const handRow = h("div", { class: "hand-row", role: "group", "aria-label": t("hand.aria_hand") });
  const counter = h("span", { class: "counter", "aria-live": "polite" });
  const doraRow = h("div", { class: "indicator-row", role: "group", "aria-label": t("hand.dora") });
  const uraRow = h("div", { class: "indicator-row", role: "group", "aria-label": t("hand.ura") });
  const discardRow = h("div", { class: "indicator-row", role: "group", "aria-label": t("hand.aria_discards") });
  const picker = h("div", { class: "picker", role: "group", "aria-label": t("hand.aria_picker") });
  const targetHint = h("p", { class: "hint", "aria-live": "polite" });
  const handSlot = slot("hand"), meldSlot = slot("melds"), doraSlot = slot("dora_indicators"), uraSlot = slot("ura_indicators"), pickSlot = slot("picker");

  // the dora count stepper: per hand (reset with the hand), shown beside the indicators
  if (typeof state.doraCount !== "number") state.doraCount = 0;
  const doraCountBox = withWin ? stepper(t("hand.dora_count"), state.doraCount, (v) => { state.doraCount = v; clearErrors(); onchange(state); }, { min: 0, max: 40 }) : null;
  if (doraCountBox) { doraCountBox.classList.add("dora-count"); doraCountBox.dataset.testid = "dora-count"; }
  const TARGETS = TARGET_IDS.map((id) => [id, t(`mode.${id}`)]);
  const targets = withWin ? TARGETS : [...TARGETS.filter(([id]) => id !== "win"), ...(withDiscards ? [["discards", t("mode.discards")]] : [])];
  const modes = segmented("target-" + Math.random().toString(36).slice(2, 7), targets, target, (t) => { target = t; render(); }, { legend: t("hand.modes_legend") });
  modes.classList.add("modes");

  for (const suit of ["m", "p", "s", "z"]) {
    const row = h("div", { class: "suit" });
    for (const code of PICKER[suit]) {
      row.append(h("button", { type: "button", dataset: { tile: code }, "aria-label": t("hand.add_tile", { tile: tileName(code) }),
        onclick: () => { if (swiped) { swiped = false; return; } pick(code); } }, tileImg(code, { alt: "" })));
    }
    picker.append(row);
  }
  // a set in one gesture, as in other apps: swipe across three tiles of a suit for a run (2m to 4m adds
  // 2-3-4m), flick sideways within one tile for a triplet (sideways: a vertical move scrolls the page). A plain tap still adds one tile.
  let swipeFrom = null, swiped = false;
  picker.addEventListener("pointerdown", (e) => {
    const btn = e.target.closest("button[data-tile]");
    swipeFrom = btn ? { el: btn, code: btn.dataset.tile, x: e.clientX, y: e.clientY } : null;
    if (btn && btn.releasePointerCapture && e.pointerId !== undefined) { try { btn.releasePointerCapture(e.pointerId); } catch { /* not captured */ } }
  });
  picker.addEventListener("pointerup", (e) => {
    const from = swipeFrom;
    swipeFrom = null;
    if (!from) return;
    const dx = e.clientX - from.x, dy = e.clientY - from.y;
    if (Math.hypot(dx, dy) < 16) return;   // a tap
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const to = under && under.closest ? /** @type {HTMLElement|null} */ (under.closest(".picker button[data-tile]")) : null;
    const set = setOf(from.code, to ? to.dataset.tile : null, Math.abs(dy) > Math.abs(dx));
    if (!set) return;
    // a flick within one tile is followed by a click on it: that click is not a tap (a swipe across
    // tiles ends on another one, and no click follows)
    if (to && to === from.el) { swiped = true; setTimeout(() => { swiped = false; }, 400); }
    addSet(set);
  });
  picker.addEventListener("pointercancel", () => { swipeFrom = null; });

  /** The tiles of a swipe from `a` to `b` (a run of three of one suit), or on one tile (a triplet). */
  function setOf(a, b, vertical) {
    if (b && plain(b) === plain(a)) return [a, plain(a), plain(a)];   // a flick within one tile
    if (!b) return vertical ? [a, plain(a), plain(a)] : null;
    if (a[1] !== b[1] || a[1] === "z") return null;
    const na = Number(plain(a)[0]), nb = Number(plain(b)[0]);
    if (Math.abs(na - nb) !== 2) return null;
    const lo = Math.min(na, nb);
    return [lo, lo + 1, lo + 2].map((n) => (n === na ? a : n === nb ? b : `${n}${a[1]}`));
  }

  /** Add the tiles of a set to the hand, or say why not (no room, a fifth tile). */
  function addSet(tiles) {
    say("");
    if (target !== "hand") { say(t("hand.say_set_hand")); return; }
    const c = counts();
    for (const tile of tiles) {
      c[plain(tile)] = (c[plain(tile)] || 0) + 1;
      if (c[plain(tile)] > 4) { say(t("hand.say_four", { tile: tileName(tile) })); return; }
    }
    if (state.concealed.length + tiles.length > limit()) { say(t("hand.say_set_room", { n: limit() - state.concealed.length })); return; }
    for (const tile of tiles) {
      state.concealed.push(tile);
      const pin = withWin && state.winIndex === null && state.concealed.length === limit();
      if (pin) state.winIndex = state.concealed.length - 1;
      added.push({ kind: "hand", index: state.concealed.length - 1, pin });
    }
    changed();
  }

  // the hand, the mode buttons and the picker's message stay in view (sticky) while the picker scrolls
  const el = h("section", { class: "card hand-editor", "aria-label": t("mode.hand") },
    h("div", { class: "row" }, h("h2", { class: "grow" }, withWin ? t("hand.winning") : t("hand.thirteen")), counter,
      h("button", { type: "button", "data-testid": "undo-tile", onclick: undo, "aria-label": t("hand.undo_label") }, t("hand.undo")),
      h("button", { type: "button", onclick: clearAll, "aria-label": withWin ? t("hand.clear_label_win") : t("hand.clear_label") }, t("hand.clear"))),
    h("div", { class: "row ind" }, h("span", { class: "small grow" }, t("hand.dora")), doraRow), doraSlot,
    // players who count their dora rather than enter the indicators: added to any from indicators and red fives
    withWin ? [doraCountBox, slot("dora_count")] : null,
    h("div", { class: "row ind" }, h("span", { class: "small grow" }, t("hand.ura")), uraRow), uraSlot,
    withDiscards ? [h("div", { class: "row ind" }, h("span", { class: "small grow" }, t("hand.discards")), discardRow), slot("discards")] : null,
    typedEntry(),
    h("div", { class: "entry-bar" }, handRow, handSlot, meldSlot, modes, h("div", { class: "entry-msg" }, pickSlot, targetHint)),
    picker, h("p", { class: "hint small", "data-testid": "sets-hint" }, t("hand.sets_hint")));

  function limit() { return (withWin ? 14 : 13) - 3 * state.melds.length; }
  function counts() {
    const c = {};
    const all = [...state.concealed, ...state.melds.flatMap((m) => m.tiles), ...state.dora, ...state.ura, ...(withDiscards ? state.discards : [])];
    for (const t of all) c[plain(t)] = (c[plain(t)] || 0) + 1;
    return c;
  }
  function winIndex() {
    if (!withWin || !state.concealed.length) return null;
    return state.winIndex !== null && state.winIndex < state.concealed.length ? state.winIndex : state.concealed.length - 1;
  }
  function say(message) { pickSlot.textContent = message; }

  function pick(code) {
    say("");
    if (target === "win") { say(t("hand.say_win")); return; }
    const c = counts();
    const need = target === "chi" ? [code, next(code, 1), next(code, 2)] : target in MELD_SIZE ? Array(MELD_SIZE[target]).fill(code) : [code];
    if (target === "chi" && (code[1] === "z" || Number(plain(code)[0]) > 7)) {
      say(t("hand.say_chi")); return;
    }
    const want = {};
    for (const t of need) want[plain(t)] = (want[plain(t)] || 0) + 1;
    for (const [code2, n] of Object.entries(want)) {
      if ((c[code2] || 0) + n > 4) { say(t("hand.say_four", { tile: tileName(code2) })); return; }
    }
    if (target === "hand" && withWin && state.concealed.length >= limit() && state.dora.length < 5) {
      // the hand is complete: the next tile tapped is a dora indicator (no switch to "Dora" needed)
      state.dora.push(code);
      added.push({ kind: "dora" });
      say(t("hand.say_dora_added", { tile: tileName(code) }));
      changed();
      return;
    }
    if (target === "hand") {
      if (state.concealed.length >= limit()) { say(t(state.melds.length ? "hand.say_full_melds" : "hand.say_full", { n: limit() })); return; }
      state.concealed.push(code);
      // the hand is complete: the tile just added is the winning tile, and stays so when another
      // tile is removed and added back (only removing the winning tile itself frees the mark)
      const pin = withWin && state.winIndex === null && state.concealed.length === limit();
      if (pin) state.winIndex = state.concealed.length - 1;
      added.push({ kind: "hand", index: state.concealed.length - 1, pin });
    } else if (target === "dora" || target === "ura") {
      const list = target === "dora" ? state.dora : state.ura;
      if (list.length >= 5) { say(t("hand.say_five")); return; }
      list.push(code);
      added.push({ kind: target });
    } else if (target === "discards") {
      if (state.discards.length >= 30) { say(t("hand.say_discards")); return; }
      state.discards.push(code);
      added.push({ kind: "discards" });
    } else {
      if (state.concealed.length > limit() - 3) { say(t("hand.say_meld_room")); return; }
      // a pon or kan of a red five: one red tile and plain ones
      const tiles = target === "chi" ? need : need.map((t, i) => (i === 0 ? t : plain(t)));
      state.melds.push({ type: target, tiles });
      added.push({ kind: "meld" });
    }
    changed();
  }

  /** Take back the last tile, meld or indicator added. */
  function undo() {
    say("");
    const last = added.pop();
    if (!last) { say(t("hand.say_nothing")); render(); return; }
    if (last.kind === "hand") {
      const i = last.index;
      if (state.winIndex === i && last.pin) state.winIndex = null;
      removeConcealed(i, { keepHistory: true });
      return;
    }
    if (last.kind === "meld") state.melds.pop();
    else if (last.kind === "dora") state.dora.pop();
    else if (last.kind === "ura") state.ura.pop();
    else if (last.kind === "discards") state.discards.pop();
    changed();
  }

  /** Typing the tiles in mpsz notation instead of tapping them. */
  function typedEntry() {
    const input = h("input", { type: "text", name: "typed-tiles", "data-testid": "typed-tiles", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
      inputmode: "text", placeholder: t("hand.typed_example", { tiles: withWin ? "234m067p345s11z555z" : "123m456p789s1122z" }), "aria-label": t("hand.typed_label") });
    const use = () => {
      let tiles;
      try { tiles = parseMpsz(input.value); } catch { say(t("hand.say_typed")); render(); return; }
      const c = {};
      for (const t of [...tiles, ...state.melds.flatMap((m) => m.tiles)]) c[plain(t)] = (c[plain(t)] || 0) + 1;
      const over = Object.entries(c).find(([t, n]) => n > 4 || /^[089]z$/.test(t));
      if (over) { say(/z$/.test(over[0]) && !/^[1-7]z$/.test(over[0]) ? t("hand.say_no_tile", { tile: over[0] }) : t("hand.say_four", { tile: tileName(over[0]) })); render(); return; }
      if (tiles.length > limit()) { say(t(state.melds.length ? "hand.say_count_melds" : "hand.say_count", { n: tiles.length, limit: limit() })); render(); return; }
      state.concealed = tiles;
      state.winIndex = withWin && tiles.length === limit() ? tiles.length - 1 : null;
      added = [];
      input.value = "";
      say("");
      changed();
    };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); use(); } });
    return h("details", { class: "typed" }, h("summary", { class: "small" }, t("hand.typed")),
      h("div", { class: "row" }, h("div", { class: "grow" }, input), h("button", { type: "button", "data-testid": "use-typed", onclick: use }, t("hand.use"))),
      h("p", { class: "hint" }, withWin ? t("hand.typed_hint_win") : t("hand.typed_hint")));
  }

  function next(code, k) {
    const n = Number(plain(code)[0]) + k;
    return `${n}${code[1]}`;
  }

  function setTarget(t) {
    target = t;
    const input = modes.querySelector(`input[value="${t}"]`);
    if (input) input.checked = true;
  }

  /** Empty the hand, melds and indicators, and put the picker back on "Hand". */
  function reset() {
    Object.assign(state, emptyHand());
    if (withDiscards) state.discards = [];
    added = [];
    setTarget("hand");
    say("");
    clearErrors();
    render();
  }

  function clearAll() {
    reset();
    onclear();
    onchange(state);
  }

  function removeConcealed(i, { keepHistory = false } = {}) {
    // later additions move down one place; the removed tile is no longer there to undo
    added = added.filter((a) => a.kind !== "hand" || a.index !== i || keepHistory).map((a) => (a.kind === "hand" && a.index > i ? { ...a, index: a.index - 1 } : a));
    if (state.winIndex !== null) {
      if (state.winIndex === i) state.winIndex = null;
      else if (state.winIndex > i) state.winIndex -= 1;
    }
    state.concealed.splice(i, 1);
    changed();
  }

  function tapHandTile(i) {
    if (target === "win") {
      state.winIndex = i;
      setTarget("hand");
      changed();
      return;
    }
    removeConcealed(i);
  }

  function changed() { clearErrors(); render(); onchange(state); }

  function render() {
    const win = winIndex();
    const order = state.concealed.map((t, i) => [t, i]).filter(([, i]) => i !== win);
    order.sort((a, b) => sortKey(a[0]) - sortKey(b[0]) || a[1] - b[1]);
    const buttons = order.map(([t, i]) => handTileButton(t, i, false));
    if (win !== null) buttons.push(handTileButton(state.concealed[win], win, true));
    const melds = state.melds.map((m, k) => h("span", { class: "meld", role: "group", "aria-label": `${MELD_LABEL[m.type]} ${m.tiles.map(tileName).join(t("list.sep"))}` },
      h("span", { class: "kind", "aria-hidden": "true" }, MELD_LABEL[m.type]),
      m.tiles.map((tile, j) => h("button", {
        type: "button", class: "hand-tile", "aria-label": plain(tile) === "5" + tile[1] && tile[1] !== "z" ? t("hand.switch_red", { tile: tileName(tile) }) : tileName(tile),
        onclick: () => toggleRed(k, j) }, tileImg(tile, { alt: "" }))),
      h("button", { type: "button", class: "remove", "aria-label": t("hand.remove_meld", { meld: MELD_LABEL[m.type] }), onclick: () => { state.melds.splice(k, 1); changed(); } }, "✕")));
    clear(handRow, buttons.length || melds.length ? [h("span", { class: "concealed" }, buttons), melds.length ? h("span", { class: "melds" }, melds) : null] : h("span", { class: "empty" }, withWin ? t("hand.empty_win") : t("hand.empty")));
    const total = state.concealed.length + state.melds.length * 3;
    counter.textContent = `${total}/${withWin ? 14 : 13}`;
    clear(doraRow, state.dora.length ? state.dora.map((tile, i) => indicatorButton(state.dora, tile, i, "dora")) : h("span", { class: "muted small" }, t("hand.none")));
    clear(uraRow, state.ura.length ? state.ura.map((tile, i) => indicatorButton(state.ura, tile, i, "ura")) : h("span", { class: "muted small" }, t("hand.none")));
    if (withDiscards) clear(discardRow, state.discards.length ? state.discards.map((tile, i) => indicatorButton(state.discards, tile, i, "discard")) : h("span", { class: "muted small" }, t("hand.none")));
    const c = counts();
    for (const btn of picker.querySelectorAll("button[data-tile]")) btn.dataset.used = String(c[plain(btn.dataset.tile)] || 0);
    targetHint.textContent = t(`hand.hint_${target}`);
    if (doraCountBox) doraCountBox.setValue(state.doraCount || 0);
    for (const [key, el2] of Object.entries(slots)) {
      el2.textContent = errors[key] || (key === "picker" ? el2.textContent : "");
    }
    handRow.classList.toggle("has-error", Boolean(errors.hand || errors.melds));
    handRow.setAttribute("aria-invalid", errors.hand || errors.melds ? "true" : "false");
  }

  function handTileButton(tile, i, isWin) {
    const label = target === "win" ? t("hand.make_win", { tile: tileName(tile) }) : t(isWin ? "hand.remove_win" : "hand.remove", { tile: tileName(tile) });
    return h("button", { type: "button", class: "hand-tile" + (isWin ? " win" : ""), "aria-label": label, dataset: { handTile: tile }, onclick: () => tapHandTile(i) }, tileImg(tile, { alt: "" }));
  }

  function indicatorButton(list, tile, i, kind) {
    return h("button", { type: "button", class: "hand-tile", "aria-label": t(`hand.remove_${kind}`, { tile: tileName(tile) }), dataset: { indicator: tile }, onclick: () => { list.splice(i, 1); changed(); } }, tileImg(tile, { alt: "" }));
  }

  function toggleRed(k, j) {
    const t = state.melds[k].tiles[j];
    if (t[1] === "z" || plain(t)[0] !== "5") return;
    state.melds[k].tiles[j] = isRed(t) ? "5" + t[1] : "0" + t[1];
    changed();
  }

  function clearErrors() { for (const k of Object.keys(errors)) delete errors[k]; }

  function showError(field, message) {
    const key = fieldKey(field);
    if (!(key in slots)) return false;
    errors[key] = message;
    render();
    slots[key].scrollIntoView({ block: "nearest" });
    return true;
  }

  /** The score request's tile part. */
  function request() {
    const win = winIndex();
    const rest = sortTiles(state.concealed.filter((_, i) => i !== win));
    /** @type {Record<string, any>} the request's fields, JSON */
    const req = {
      hand: toMpsz(win === null ? rest : [...rest, state.concealed[win]]),
      melds: state.melds.map((m) => ({ type: m.type, tiles: toMpsz(m.tiles) })),
      dora_indicators: toMpsz(state.dora),
      ura_indicators: toMpsz(state.ura),
    };
    if (withDiscards && state.discards.length) req.discards = toMpsz(state.discards);
    if (withWin && win !== null) req.win_tile = state.concealed[win];
    if (withWin && state.doraCount) req.dora_count = state.doraCount;
    return req;
  }

  render();
  return { el, state, request, showError, reset, clearErrors: () => { clearErrors(); render(); }, render, winTile: () => { const w = winIndex(); return w === null ? null : state.concealed[w]; } };
}
