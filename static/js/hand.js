// The hand editor: tile picker, concealed tiles, melds, dora and ura indicators.
// Used by the quick-score and wait screens; it owns no API calls.
import { h, clear, segmented } from "./util.js";
import { t } from "./i18n.js";
import { PICKER, plain, isRed, sortKey, sortTiles, toMpsz, parseMpsz, tileImg, tileName } from "./tiles.js";

const MELD_SIZE = { chi: 3, pon: 3, daiminkan: 4, kakan: 4, ankan: 4 };
const MELD_LABEL = { chi: "chi", pon: "pon", daiminkan: "kan", kakan: "kan", ankan: "closed kan" };
const TARGET_IDS = ["hand", "chi", "pon", "daiminkan", "ankan", "dora", "ura", "win"];

export function emptyHand() {
  return { concealed: [], winIndex: null, melds: [], dora: [], ura: [] };
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
export function createHandEditor({ state, withWin = true, withDiscards = false, onchange = () => {}, onclear = () => {} }) {
  let target = "hand";
  if (withDiscards && !Array.isArray(state.discards)) state.discards = [];
  // what was added, last first, so "Undo" takes back the last tile (or meld, or indicator)
  let added = [];
  const errors = {};
  const slots = {};
  const slot = (key) => (slots[key] = h("p", { class: "field-error", id: `err-${key}-${Math.random().toString(36).slice(2, 7)}`, role: "alert" }));

  const handRow = h("div", { class: "hand-row", role: "group", "aria-label": "Your hand" });
  const counter = h("span", { class: "counter", "aria-live": "polite" });
  const doraRow = h("div", { class: "indicator-row", role: "group", "aria-label": "Dora indicators" });
  const uraRow = h("div", { class: "indicator-row", role: "group", "aria-label": "Ura dora indicators" });
  const discardRow = h("div", { class: "indicator-row", role: "group", "aria-label": "Your discards" });
  const picker = h("div", { class: "picker", role: "group", "aria-label": "Tile picker" });
  const targetHint = h("p", { class: "hint", "aria-live": "polite" });
  const handSlot = slot("hand"), meldSlot = slot("melds"), doraSlot = slot("dora_indicators"), uraSlot = slot("ura_indicators"), pickSlot = slot("picker");

  const TARGETS = TARGET_IDS.map((id) => [id, t(`mode.${id}`)]);
  const targets = withWin ? TARGETS : [...TARGETS.filter(([id]) => id !== "win"), ...(withDiscards ? [["discards", t("mode.discards")]] : [])];
  const modes = segmented("target-" + Math.random().toString(36).slice(2, 7), targets, target, (t) => { target = t; render(); }, { legend: "Tap a tile to add it to" });
  modes.classList.add("modes");

  for (const suit of ["m", "p", "s", "z"]) {
    const row = h("div", { class: "suit" });
    for (const code of PICKER[suit]) {
      row.append(h("button", { type: "button", dataset: { tile: code }, "aria-label": `Add ${tileName(code)}`, onclick: () => pick(code) }, tileImg(code, { alt: "" })));
    }
    picker.append(row);
  }

  // the hand, the mode buttons and the picker's message stay in view (sticky) while the picker scrolls
  const el = h("section", { class: "card hand-editor", "aria-label": "Hand" },
    h("div", { class: "row" }, h("h2", { class: "grow" }, withWin ? t("hand.winning") : t("hand.thirteen")), counter,
      h("button", { type: "button", "data-testid": "undo-tile", onclick: undo, "aria-label": "Undo the last tile" }, t("hand.undo")),
      h("button", { type: "button", onclick: clearAll, "aria-label": withWin ? "Clear: start this hand again" : "Clear the hand" }, t("hand.clear"))),
    h("div", { class: "row ind" }, h("span", { class: "small grow" }, t("hand.dora")), doraRow), doraSlot,
    h("div", { class: "row ind" }, h("span", { class: "small grow" }, t("hand.ura")), uraRow), uraSlot,
    withDiscards ? [h("div", { class: "row ind" }, h("span", { class: "small grow" }, "Discards (for furiten)"), discardRow), slot("discards")] : null,
    typedEntry(),
    h("div", { class: "entry-bar" }, handRow, handSlot, meldSlot, modes, h("div", { class: "entry-msg" }, pickSlot, targetHint)),
    picker);

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
    if (target === "win") { say("Tap a tile in your hand to make it the winning tile."); return; }
    const c = counts();
    const need = target === "chi" ? [code, next(code, 1), next(code, 2)] : target in MELD_SIZE ? Array(MELD_SIZE[target]).fill(code) : [code];
    if (target === "chi" && (code[1] === "z" || Number(plain(code)[0]) > 7)) {
      say("For chi, tap the lowest tile of the run (1 to 7 of a suit)."); return;
    }
    const want = {};
    for (const t of need) want[plain(t)] = (want[plain(t)] || 0) + 1;
    for (const [t, n] of Object.entries(want)) {
      if ((c[t] || 0) + n > 4) { say(`There are only four ${tileName(t)} tiles.`); return; }
    }
    if (target === "hand") {
      if (state.concealed.length >= limit()) { say(`The hand is full: ${limit()} concealed tiles${state.melds.length ? " with these melds" : ""}. Tap a tile in the hand to remove it.`); return; }
      state.concealed.push(code);
      // the hand is complete: the tile just added is the winning tile, and stays so when another
      // tile is removed and added back (only removing the winning tile itself frees the mark)
      const pin = withWin && state.winIndex === null && state.concealed.length === limit();
      if (pin) state.winIndex = state.concealed.length - 1;
      added.push({ kind: "hand", index: state.concealed.length - 1, pin });
    } else if (target === "dora" || target === "ura") {
      const list = target === "dora" ? state.dora : state.ura;
      if (list.length >= 5) { say("At most five indicators (one plus one per kan)."); return; }
      list.push(code);
      added.push({ kind: target });
    } else if (target === "discards") {
      if (state.discards.length >= 30) { say("At most 30 discards."); return; }
      state.discards.push(code);
      added.push({ kind: "discards" });
    } else {
      if (state.concealed.length > limit() - 3) { say("Remove concealed tiles first: each meld takes the place of three of them."); return; }
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
    if (!last) { say("Nothing to undo: tap a tile in the hand to remove it."); render(); return; }
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
      inputmode: "text", placeholder: withWin ? "e.g. 234m067p345s11z555z" : "e.g. 123m456p789s1122z", "aria-label": "Tiles in mpsz notation" });
    const use = () => {
      let tiles;
      try { tiles = parseMpsz(input.value); } catch { say("Type digits followed by their suit: m, p, s or z (0 is a red five), like 123m55z."); render(); return; }
      const c = {};
      for (const t of [...tiles, ...state.melds.flatMap((m) => m.tiles)]) c[plain(t)] = (c[plain(t)] || 0) + 1;
      const over = Object.entries(c).find(([t, n]) => n > 4 || /^[089]z$/.test(t));
      if (over) { say(/z$/.test(over[0]) && !/^[1-7]z$/.test(over[0]) ? `There is no tile ${over[0]}: honours are 1z to 7z.` : `There are only four ${tileName(over[0])} tiles.`); render(); return; }
      if (tiles.length > limit()) { say(`That is ${tiles.length} tiles; the hand takes ${limit()}${state.melds.length ? " with these melds" : ""}.`); render(); return; }
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
      h("p", { class: "hint" }, withWin ? "The last tile is the winning tile. Melds and indicators: use the buttons." : "13 tiles; melds and indicators: use the buttons."));
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
    const melds = state.melds.map((m, k) => h("span", { class: "meld", role: "group", "aria-label": `${MELD_LABEL[m.type]} ${m.tiles.map(tileName).join(", ")}` },
      h("span", { class: "kind", "aria-hidden": "true" }, MELD_LABEL[m.type]),
      m.tiles.map((t, j) => h("button", {
        type: "button", class: "hand-tile", "aria-label": plain(t) === "5" + t[1] && t[1] !== "z" ? `${tileName(t)}: tap to switch red five` : tileName(t),
        onclick: () => toggleRed(k, j) }, tileImg(t, { alt: "" }))),
      h("button", { type: "button", class: "remove", "aria-label": `Remove the ${MELD_LABEL[m.type]}`, onclick: () => { state.melds.splice(k, 1); changed(); } }, "✕")));
    clear(handRow, buttons.length || melds.length ? [h("span", { class: "concealed" }, buttons), melds.length ? h("span", { class: "melds" }, melds) : null] : h("span", { class: "empty" }, withWin ? t("hand.empty_win") : t("hand.empty")));
    const total = state.concealed.length + state.melds.length * 3;
    counter.textContent = `${total}/${withWin ? 14 : 13}`;
    clear(doraRow, state.dora.length ? state.dora.map((t, i) => indicatorButton(state.dora, t, i, "dora")) : h("span", { class: "muted small" }, t("hand.none")));
    clear(uraRow, state.ura.length ? state.ura.map((t, i) => indicatorButton(state.ura, t, i, "ura")) : h("span", { class: "muted small" }, t("hand.none")));
    if (withDiscards) clear(discardRow, state.discards.length ? state.discards.map((t, i) => indicatorButton(state.discards, t, i, "discard")) : h("span", { class: "muted small" }, t("hand.none")));
    const c = counts();
    for (const btn of picker.querySelectorAll("button[data-tile]")) btn.dataset.used = String(c[plain(btn.dataset.tile)] || 0);
    targetHint.textContent = {
      hand: withWin ? "Tap a tile in your hand to remove it." : "Tap a tile in your hand to remove it.",
      chi: "Chi: tap the lowest tile of the run (a red five: tap a 5 in the meld to switch).",
      pon: "Pon: tap the tile (three are added).", daiminkan: "Open kan: tap the tile (four are added).",
      ankan: "Closed kan: tap the tile (four are added).", dora: "Tap the dora indicator tiles (not the dora themselves).",
      ura: "Tap the ura dora indicator tiles (riichi only).", win: "Now tap the winning tile in your hand above.",
      discards: "Tap the tiles you have discarded (a wait among them is furiten).",
    }[target];
    for (const [key, el2] of Object.entries(slots)) {
      el2.textContent = errors[key] || (key === "picker" ? el2.textContent : "");
    }
    handRow.classList.toggle("has-error", Boolean(errors.hand || errors.melds));
    handRow.setAttribute("aria-invalid", errors.hand || errors.melds ? "true" : "false");
  }

  function handTileButton(t, i, isWin) {
    const label = target === "win" ? `Make ${tileName(t)} the winning tile` : `Remove ${tileName(t)}${isWin ? " (winning tile)" : ""}`;
    return h("button", { type: "button", class: "hand-tile" + (isWin ? " win" : ""), "aria-label": label, dataset: { handTile: t }, onclick: () => tapHandTile(i) }, tileImg(t, { alt: "" }));
  }

  function indicatorButton(list, t, i, kind) {
    return h("button", { type: "button", class: "hand-tile", "aria-label": `Remove ${kind} indicator ${tileName(t)}`, dataset: { indicator: t }, onclick: () => { list.splice(i, 1); changed(); } }, tileImg(t, { alt: "" }));
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
    const req = {
      hand: toMpsz(win === null ? rest : [...rest, state.concealed[win]]),
      melds: state.melds.map((m) => ({ type: m.type, tiles: toMpsz(m.tiles) })),
      dora_indicators: toMpsz(state.dora),
      ura_indicators: toMpsz(state.ura),
    };
    if (withDiscards && state.discards.length) req.discards = toMpsz(state.discards);
    if (withWin && win !== null) req.win_tile = state.concealed[win];
    return req;
  }

  render();
  return { el, state, request, showError, reset, clearErrors: () => { clearErrors(); render(); }, render, winTile: () => { const w = winIndex(); return w === null ? null : state.concealed[w]; } };
}
