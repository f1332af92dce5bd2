// Tables: create, join, the scoreboard, recording hands (online or queued offline), history,
// corrections, standings, sharing and export. Talks to /api/tables.
import { h, clear, segmented, chip, sheet, toast, points, fmtTime } from "./util.js";
import { api, ApiError, OfflineError, rulesets, ruleValues, yakuNames } from "./api.js";
import { createHandEditor, emptyHand } from "./hand.js";
import { createConditions, defaultConditions, placeError } from "./quick.js";
import { downscale, handFromDetections } from "./photo.js";
import { summary } from "./results.js";
import { qrSvg } from "./qr.js";
import { lineChart } from "./charts.js";
import { WIND_LETTER, WIND_NAME } from "./tiles.js";
import * as store from "./store.js";

const POLL_MS = 3000;
const ABORT_NAMES = { nine_terminals: "Nine terminals (kyuushu kyuuhai)", four_winds: "Four winds (suufon renda)", four_kans: "Four kans (suukaikan)", four_riichi: "Four riichi (suucha riichi)", triple_ron: "Triple ron (sanchahou)" };
const LIMITS = [["5", "Mangan", { han: 5, fu: 30 }], ["6", "Haneman", { han: 6, fu: 30 }], ["8", "Baiman", { han: 8, fu: 30 }],
  ["11", "Sanbaiman", { han: 11, fu: 30 }], ["y1", "Yakuman", { yakuman: 1 }], ["y2", "Double yakuman", { yakuman: 2 }]];
const FU = [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110];
const CHOICE_LABELS = { east_south: "East and South rounds", east: "East round only (tonpuusen)", shared: "share the rank",
  placements: "more first places ranks higher", split: "split", seat_order: "by seat order" };

const roundName = (s) => `${WIND_NAME[s.round_wind] || s.round_wind} ${s.hand_number}`;
const authHeaders = (entry, version) => ({ Authorization: `Bearer ${entry.edit_token}`, "If-Match": `"${version}"` });

/** A recorded hand in words. */
export function describeHand(hand, players) {
  const n = (s) => players[s] || `seat ${s}`;
  // a record stored before the server checked every field may hold anything: read it defensively
  const seats = (v) => (Array.isArray(v) ? v : []);
  const val = (w) => (w.yakuman ? `${w.yakuman > 1 ? w.yakuman + "× " : ""}yakuman` : w.limit ? `${w.limit} (${w.han} han)` : `${w.han} han ${w.fu} fu`) + (w.points ? `, ${w.points}` : "");
  const riichi = seats(hand.riichi).length ? ` · riichi: ${seats(hand.riichi).map(n).join(", ")}` : "";
  const winners = seats(hand.winners).filter((w) => w && typeof w === "object");
  switch (hand.result) {
    case "ron": return `Ron: ${winners.map((w) => `${n(w.seat)} (${val(w)})`).join(" and ")} from ${n(hand.from_seat)}${riichi}`;
    case "tsumo": { const w = winners[0] || (hand.winner && typeof hand.winner === "object" ? hand.winner : {}); return `Tsumo: ${n(w.seat)} (${val(w)})${riichi}`; }
    case "draw": return `Draw: ${seats(hand.tenpai).length ? "tenpai " + seats(hand.tenpai).map(n).join(", ") : "all noten"}${seats(hand.nagashi).length ? " · nagashi " + seats(hand.nagashi).map(n).join(", ") : ""}${riichi}`;
    case "abort": return `Abortive draw: ${ABORT_NAMES[hand.kind] || hand.kind}${riichi}`;
    case "chombo": return `Chombo: ${n(hand.seat)}`;
    case "end": return "End of the session";
    default: return String(hand.result);
  }
}

/** A hand request (not yet recorded) in words. */
function describeRequest(body, players) {
  const v = (value) => (value.hand ? "scored hand" : value.yakuman ? `${value.yakuman}× yakuman` : `${value.han} han${value.han < 5 ? " " + value.fu + " fu" : ""}`);
  if (body.result === "ron") return `Ron: ${body.winners.map((w) => `${players[w.seat]} (${v(w.value)})`).join(" and ")} from ${players[body.from_seat]}`;
  if (body.result === "tsumo") return `Tsumo: ${players[body.winner.seat]} (${v(body.winner.value)})`;
  return describeHand(body, players);
}

const PAY_FOR = { hand: "for the hand", honba: "honba", riichi: "riichi stick", "riichi sticks": "riichi sticks on the table",
  "own riichi stick back": "own riichi stick back", "hand (liability)": "for the hand (liability)", "honba (liability)": "honba (liability)",
  "nagashi mangan": "nagashi mangan", "noten payment": "noten payment", chombo: "chombo" };

/** A preview (POST .../preview) in words: each payment, each player's change, and what comes next. */
export function previewLines(res, players) {
  const who = (x) => (x === "table" ? "the table" : players[x]);
  const items = (res.hand.payments || []).map((p) => h("li", {},
    p.from === "table" ? `${who(p.to)} takes ${p.amount} from the table (${PAY_FOR[p.for] || p.for})`
      : p.to === "table" ? `${who(p.from)} puts ${p.amount} on the table (${PAY_FOR[p.for] || p.for})`
        : `${who(p.from)} pays ${who(p.to)} ${p.amount} (${PAY_FOR[p.for] || p.for})`));
  const st = res.state;
  const next = st.finished ? "Then the game is over." : `Then: ${roundName(st)}, ${st.honba} honba, ${st.riichi_sticks} riichi stick${st.riichi_sticks === 1 ? "" : "s"} on the table.`;
  return [h("h3", {}, "Who pays what"),
    items.length ? h("ul", { class: "pay-list" }, items) : h("p", {}, "Nobody pays."),
    h("div", { class: "deltas", "aria-label": "Points won and lost" }, res.hand.deltas.map((d, i) => h("span", { class: d > 0 ? "pos" : d < 0 ? "neg" : "", "data-delta": String(i) }, `${players[i]} ${points(d, true)}`))),
    res.hand.penalty ? h("p", { class: "small" }, `${players[res.hand.penalty.seat]}: a ${res.hand.penalty.points} point penalty, settled at the end.`) : null,
    h("p", { class: "small muted" }, next)];
}

// --- offline queue -------------------------------------------------------------------------------

let flushing = false;
const listeners = new Set();
const notify = () => listeners.forEach((fn) => fn());

/** Send the hands recorded offline, oldest first; a 409 marks the item as a conflict for the player.
 * A hand queued on top of another queued hand (`after`) is sent against the version that hand made,
 * so several hands recorded offline go in, in order, without a false conflict. */
export async function flushQueue() {
  if (flushing || !navigator.onLine) return;
  flushing = true;
  try {
    for (const item of store.queue()) {
      if (item.conflict || item.error) continue;
      const entry = store.table(item.table);
      if (!entry || !entry.edit_token) continue;
      const current = store.queue().find((q) => q.key === item.key);
      if (!current || current.after) continue;   // still waiting for the hand it was recorded on top of
      try {
        const table = await api(current.method, current.path, current.body, { headers: authHeaders(entry, current.version) });
        store.saveTable({ id: table.id, table, seen_at: Date.now() });
        store.setQueue(store.queue().filter((q) => q.key !== item.key)
          .map((q) => (q.after === item.key ? { ...q, after: null, version: table.version } : q)));
        toast("A hand recorded offline was sent.");
      } catch (err) {
        if (err instanceof OfflineError) break;
        const items = store.queue();
        const mine = items.find((q) => q.key === item.key);
        if (!mine) continue;
        // the hands queued on top of this one were based on it: they wait for the player too
        for (const q of items) if (q.after === item.key) { q.after = null; q.conflict = { message: "recorded after a hand that was not sent" }; }
        if (err instanceof ApiError && err.status === 409) {
          mine.conflict = { message: err.message, version: err.body && err.body.table ? err.body.table.version : null };
          if (err.body && err.body.table) store.saveTable({ id: err.body.table.id, table: err.body.table, seen_at: Date.now() });
        } else {
          mine.error = err.message;
        }
        store.setQueue(items);
      }
    }
  } finally {
    flushing = false;
    notify();
  }
}

// --- list, create, join --------------------------------------------------------------------------

export async function tablesScreen(view) {
  const known = Object.values(store.tables()).sort((a, b) => (b.seen_at || 0) - (a.seen_at || 0));
  let list = [];
  try { list = (await rulesets()).rulesets; } catch { list = [{ id: "wrr", title: "World Riichi Rules" }]; }
  const err = h("div", { "aria-live": "polite" });
  // names this phone has seen at its tables, offered as the player types
  const seenNames = [...new Set(Object.values(store.tables()).flatMap((t) => (t.table ? t.table.players : [])))].sort();
  const datalist = h("datalist", { id: "seen-names" }, seenNames.map((n) => h("option", { value: n })));
  const names = ["East (first dealer)", "South", "West", "North"].map((label, i) => h("label", { class: "field" }, h("span", {}, label),
    h("input", { type: "text", name: `player-${i}`, required: true, maxlength: 40, autocomplete: "off", list: "seen-names", "data-testid": `player-${i}`, "aria-describedby": `player-${i}-error` }),
    h("p", { class: "field-error", id: `player-${i}-error`, role: "alert" })));
  const rulesetSelect = h("select", { name: "ruleset", "data-testid": "table-ruleset" }, list.map((r) => h("option", { value: r.id }, r.title)));
  const overrides = {};
  const rulesBox = h("div");
  let gameLength = "east_south";
  const drawRules = () => {
    for (const k of Object.keys(overrides)) delete overrides[k];
    const rs = list.find((r) => r.id === rulesetSelect.value);
    clear(rulesBox, rs && rs.parameters ? ruleEditor(rs.parameters, overrides) : null);
    setLength(gameLength);
  };
  const setLength = (v) => {
    gameLength = v;
    if (v === "east") overrides.game_length = "east"; else delete overrides.game_length;
    const sel = rulesBox.querySelector('select[name="rule-game_length"]');
    if (sel) sel.value = v;
  };
  rulesetSelect.addEventListener("change", drawRules);
  drawRules();
  const lengthPick = segmented("table-length", [["east_south", "East and South"], ["east", "East only"]], "east_south", setLength, { legend: "Game length" });
  const form = h("form", { class: "card", "aria-label": "New table" },
    h("h2", {}, "New table"), h("label", { class: "field" }, h("span", {}, "Rule set"), rulesetSelect),
    h("fieldset", {}, h("legend", {}, "Game length"), lengthPick),
    h("details", {}, h("summary", {}, "Adjust the rules (house rules)"), rulesBox),
    h("p", { class: "hint" }, "Names in seating order, counter-clockwise: South sits to East's right."), names, datalist,
    h("button", { type: "button", class: "btn-block", "data-testid": "draw-seats", onclick: drawSeats }, "Draw seats and winds at random"), err,
    h("button", { type: "submit", class: "btn-primary btn-block", "data-testid": "create-table" }, "Create table"));
  /** Shuffle the four names over the seats (the wind draw), fairly: Fisher-Yates with crypto randomness. */
  function drawSeats() {
    const inputs = names.map((l) => l.querySelector("input"));
    const values = inputs.map((i) => i.value);
    for (let i = values.length - 1; i > 0; i -= 1) {
      const j = crypto.getRandomValues(new Uint32Array(1))[0] % (i + 1);
      [values[i], values[j]] = [values[j], values[i]];
    }
    inputs.forEach((input, i) => { input.value = values[i]; });
    toast(`Seats drawn: ${values.map((v, i) => `${["East", "South", "West", "North"][i]} ${v || "?"}`).join(", ")}.`);
  }
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    clear(err);
    for (const p of form.querySelectorAll(".field-error")) p.textContent = "";
    const players = names.map((l) => l.querySelector("input").value.trim());
    const dup = players.findIndex((p, i) => p && players.findIndex((q) => q.toLowerCase() === p.toLowerCase()) < i);
    if (dup >= 0) { form.querySelector(`#player-${dup}-error`).textContent = "Another player already has this name: give each player a different name."; return; }
    try {
      const table = await api("POST", "/api/tables", { ruleset: rulesetSelect.value, players, rules: { ...overrides } });
      store.saveTable({ id: table.id, share_code: table.share_code, edit_token: table.edit_token, table, seen_at: Date.now(), view_seat: 0 });
      location.hash = `#/table/${table.id}`;
    } catch (ex) {
      const m = ex instanceof ApiError && ex.field && ex.field.match(/^players\[(\d)\]$/);
      const rule = ex instanceof ApiError && ex.field && ex.field.match(/^rules\.(\w+)/);
      if (m) form.querySelector(`#player-${m[1]}-error`).textContent = ex.message;
      else if (rule && form.querySelector(`[data-rule-error="${rule[1]}"]`)) {
        form.querySelector("details").open = true;
        form.querySelector(`[data-rule-error="${rule[1]}"]`).textContent = ex.message;
      }
      else clear(err, h("div", { class: "banner error", role: "alert" }, ex instanceof OfflineError ? "You are offline: creating a table needs the server." : ex.message));
    }
  });
  const joinInput = h("input", { type: "text", name: "join", placeholder: "Share code or link", autocomplete: "off", "aria-label": "Share code or link" });
  const join = h("form", { class: "card", "aria-label": "Join a table" }, h("h2", {}, "Join a table"),
    h("div", { class: "row" }, h("div", { class: "grow" }, joinInput), h("button", { type: "submit" }, "Open")));
  join.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = joinInput.value.trim();
    const m = text.match(/\/t\/([^/#?\s]+)(?:#token=([^&\s]+))?/) || text.match(/#\/table\/([^/?\s]+)(?:\?token=([^&\s]+))?/);
    if (m) location.hash = `#/table/${m[1]}${m[2] ? "?token=" + m[2] : ""}`;
    else if (text) location.hash = `#/table/${encodeURIComponent(text)}`;
  });
  clear(view, h("h1", { class: "visually-hidden" }, "Tables"),
    h("section", { class: "card", "aria-label": "Your tables" }, h("h2", {}, "Your tables"),
      known.length ? h("ul", { class: "table-list" }, known.map((t) => h("li", {},
        h("a", { href: `#/table/${t.id}` }, h("b", {}, t.table ? t.table.players.join(" · ") : t.id), h("br"),
          h("span", { class: "small muted" }, t.table ? `${t.table.ruleset_title || t.table.ruleset} · ${t.table.state.finished ? "finished" : roundName(t.table.state)} · ${t.edit_token ? "you can record" : "watching"}` : "")),
        h("button", { type: "button", class: "btn-danger", "aria-label": `Forget the table of ${t.table ? t.table.players.join(", ") : t.id}`, onclick: () => { if (confirm("Forget this table on this phone? It stays on the server.")) { store.forgetTable(t.id); tablesScreen(view); } } }, "Forget"))))
        : h("p", { class: "muted" }, "Tables you create or open appear here, and stay available offline.")),
    form, join,
    h("section", { class: "card", "aria-label": "Club nights and leagues" }, h("h2", {}, "Club nights and leagues"),
      h("p", { class: "hint" }, "Many games on many tables: seating, standings, statistics and charts for the whole night or season."),
      h("a", { class: "btn btn-block", href: "#/events", "data-testid": "open-events" }, "Events")));
}

/** House rules, grouped, in plain words: the common ones first, the rest behind "More rules".
 * The rule texts' clause notes stay out of it (they are in GET /api/rulesets for who wants them). */
const RULE_GROUPS = [
  ["Points and the end of the game", ["game_length", "start_points", "return_points", "uma", "bust_ends_game", "agari_yame", "tenpai_yame", "leftover_sticks", "extension_target"]],
  ["Dora", ["red_fives", "ura_dora", "kan_dora", "kan_ura_dora"]],
  ["Yaku and limits", ["open_tanyao", "kiriage", "kazoe_yakuman", "yakuman_stacking", "double_yakuman", "renhou"]],
  ["Wins, draws and penalties", ["max_ron_winners", "abortive_draws", "nagashi_mangan", "pao_yaku", "chombo", "chombo_penalty", "riichi_needs_points"]],
];
const ITEM_NAMES = {
  ...ABORT_NAMES, kokushi_13: "thirteen orphans on a 13-sided wait", chuuren_9: "nine gates on a 9-sided wait",
  suuankou_tanki: "four concealed triplets on a pair wait", daisuushii: "big four winds", daisangen: "big three dragons", suukantsu: "four kans",
};
const CHOICE_NAMES = {
  chombo: { penalty: "a point penalty at the end", mangan: "pays a mangan to the others" },
  final_rounding: { none: "not rounded", nearest_1000: "to the nearest 1000" },
  leftover_sticks: { table: "stay on the table", first: "go to first place", lost: "are lost" },
  multi_ron_honba: { each: "each winner gets them", closest: "the winner closest to the discarder" },
  multi_ron_sticks: { closest: "the winner closest to the discarder", closest_own_back: "closest winner; each winner's own stick back" },
  pao_ron_honba: { discarder: "the discarder pays", liable: "the liable player pays", split: "split between them" },
  renhou: { none: "not a yaku", han: "a yaku worth some han", mangan: "a mangan", yakuman: "a yakuman" },
  tie_break: { split: "split the places", seat_order: "by seat order" },
};

export function ruleEditor(parameters, overrides) {
  const row = (name, p) => {
    const id = `rule-${name}`;
    const err = h("p", { class: "field-error", role: "alert", "data-rule-error": name });
    const setValue = (v) => { if (JSON.stringify(v) === JSON.stringify(p.value)) delete overrides[name]; else overrides[name] = v; };
    const label = (p.label || name.replace(/_/g, " ")).replace(/^./, (c) => c.toUpperCase());
    if (typeof p.value === "boolean") return h("div", {}, chip(label, p.value, setValue, { name: id }), err);
    if (Array.isArray(p.choices)) {
      return h("label", { class: "field" }, h("span", {}, label),
        h("select", { name: id, onchange: (e) => setValue(p.choices.find((c) => String(c) === e.target.value)) },
          p.choices.map((c) => h("option", { value: String(c), selected: c === p.value }, (CHOICE_NAMES[name] || {})[c] || CHOICE_LABELS[c] || String(c).replace(/_/g, " ")))), err);
    }
    if (Number.isInteger(p.value)) {
      return h("label", { class: "field" }, h("span", {}, label),
        h("input", { type: "number", name: id, value: String(p.value), inputmode: "numeric",
          ...(p.range ? { min: String(p.range.min), max: String(p.range.max), step: String(p.range.step) } : {}),
          onchange: (e) => setValue(Number(e.target.value)) }), err);
    }
    if (Array.isArray(p.value) && Array.isArray(p.items)) {
      const chosen = new Set(p.value);
      return h("fieldset", {}, h("legend", {}, label),
        h("div", { class: "toggles" }, p.items.map((item) => chip(ITEM_NAMES[item] || item.replace(/_/g, " "), chosen.has(item), (on) => {
          if (on) chosen.add(item); else chosen.delete(item);
          setValue(p.items.filter((x) => chosen.has(x)));
        }, { name: `${id}-${item}` }))), err);
    }
    return null;   // a value no simple input fits (e.g. the uma list): kept as the rule set has it
  };
  const placed = new Set(RULE_GROUPS.flatMap(([, names]) => names));
  const groups = RULE_GROUPS.map(([title, names]) => {
    const rows = names.filter((n) => n in parameters).map((n) => row(n, parameters[n])).filter(Boolean);
    return rows.length ? [h("h3", {}, title), rows] : null;
  });
  const rest = Object.entries(parameters).filter(([n]) => !placed.has(n)).map(([n, p]) => row(n, p)).filter(Boolean);
  return h("div", { class: "rules" }, h("p", { class: "hint" }, "Leave these as they are to play the rule set as written."),
    groups, rest.length ? h("details", {}, h("summary", {}, "More rules"), rest) : null);
}

// --- one table -----------------------------------------------------------------------------------

export async function tableScreen(view, key, params) {
  let entry = store.table(key);
  let table = entry && entry.table;
  let offline = false;
  let selected = null;        // seat tapped for point differences
  let timer = null;
  let etag = table ? `"${table.version}"` : null;
  let rules = null;
  let stopped = false;
  const token = params.get("token");
  let tokenChoice = null;     // another edit token from a link, waiting for the player's choice

  const body = h("div");
  const rerender = () => render();
  listeners.add(rerender);

  async function load() {
    try {
      const resp = await api("GET", `/api/tables/${encodeURIComponent(entry ? entry.id : key)}`, undefined, { raw: true, headers: etag && table ? { "If-None-Match": etag } : {} });
      if (resp.status === 304) { offline = false; return false; }
      if (!resp.ok) {
        const data = await resp.json().catch(() => null);
        throw new ApiError(resp.status, data && data.error, data);
      }
      const fresh = await resp.json();
      offline = false;
      const changed = !table || fresh.version !== table.version;
      table = fresh;
      etag = resp.headers.get("ETag") || `"${fresh.version}"`;
      entry = store.saveTable({ id: fresh.id, share_code: fresh.share_code, table: fresh, seen_at: Date.now(), ...(token && !(entry && entry.edit_token) ? { edit_token: token } : {}) });
      return changed;
    } catch (err) {
      if (err instanceof OfflineError || (err instanceof TypeError)) { offline = true; return true; }
      throw err;
    }
  }

  let busy = false;
  async function tick() {
    if (stopped || busy) return;
    busy = true;
    try {
      if (document.visibilityState === "visible" && (await load())) render();
    } catch { /* keep the last state on a passing error */ } finally {
      busy = false;
      clearTimeout(timer);
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    }
  }

  function canEdit() { return Boolean(entry && entry.edit_token); }

  function render() {
    if (stopped) return;
    if (!table) {
      clear(body, h("div", { class: "banner error", role: "alert" }, offline ? "You are offline and this phone has never seen this table." : "Table not found."));
      return;
    }
    const s = table.state;
    const viewSeat = entry.view_seat || 0;
    const queue = store.queue().filter((q) => q.table === table.id);
    const pending = queue.filter((q) => !q.conflict && !q.error);
    const conflicts = queue.filter((q) => q.conflict || q.error);
    const posName = ["bottom", "right", "top", "left"];
    const seats = [0, 1, 2, 3].map((seat) => {
      const pos = (seat - viewSeat + 4) % 4;
      const diff = selected !== null && selected !== seat ? s.scores[seat] - s.scores[selected] : null;
      return h("button", {
        type: "button", class: `seat pos-${posName[pos]}${s.dealer === seat ? " dealer" : ""}${selected === seat ? " selected" : ""}`,
        "aria-pressed": selected === seat ? "true" : "false", "data-seat": String(seat),
        "aria-label": `${table.players[seat]}, ${WIND_NAME[s.seat_winds[seat]]}${s.dealer === seat ? ", dealer" : ""}, ${s.scores[seat]} points${diff !== null ? `, ${points(diff, true)} against ${table.players[selected]}` : ""}. Tap to compare.`,
        onclick: () => { selected = selected === seat ? null : seat; render(); },
      },
      h("span", { class: "wind" }, `${WIND_LETTER[s.seat_winds[seat]]} · ${WIND_NAME[s.seat_winds[seat]]}`, s.dealer === seat ? [" ", h("span", { class: "badge" }, "dealer")] : null),
      h("span", { class: "name" }, table.players[seat]),
      h("span", { class: "score", "data-testid": `seat-score-${seat}` }, String(s.scores[seat])),
      diff !== null ? h("span", { class: "diff" }, points(diff, true)) : selected === seat ? h("span", { class: "diff" }, "compared with this seat") : null);
    });
    const board = h("div", { class: `board${entry.facing ? " facing" : ""}`, role: "group", "aria-label": "Scoreboard" },
      seats,
      h("div", { class: "centre" },
        h("span", { class: "round", "data-testid": "round" }, s.finished ? "Game over" : roundName(s)),
        h("span", { class: "sticks", "data-testid": "honba" }, `${s.honba} honba`),
        h("span", { class: "sticks", "data-testid": "riichi-sticks" }, `${s.riichi_sticks} riichi stick${s.riichi_sticks === 1 ? "" : "s"}`)));

    const edit = canEdit();
    clear(body,
      h("h1", { class: "visually-hidden" }, "Table"),
      h("div", { class: "row" }, h("h2", { class: "grow" }, table.players.join(" · ")),
        h("span", { class: "small muted" }, `${table.ruleset_title || table.ruleset}${edit ? "" : " · watching"}`)),
      offline ? h("div", { class: "banner warn", role: "status", "data-testid": "offline-banner" }, `Offline: the last known state${entry.seen_at ? ` (as of ${fmtTime(entry.seen_at)})` : ""}.${edit ? " Hands you record are kept on this phone and sent when you are back online." : ""}`) : null,
      pending.length ? h("div", { class: "banner info", role: "status", "data-testid": "pending" }, `${pending.length} hand${pending.length === 1 ? "" : "s"} waiting to be sent: `, pending.map((q) => describeRequest(q.body, table.players)).join("; ")) : null,
      conflicts.map((q) => conflictBanner(q)),
      entry.view_seat === undefined || entry.view_seat === null ? seatQuestion() : null,
      tokenChoice ? tokenBanner() : null,
      board,
      penaltiesLine(s),
      selected !== null ? h("p", { class: "hint" }, `Differences against ${table.players[selected]}. Tap again to hide.`) : h("p", { class: "hint" }, "Tap a player to see the point differences."),
      table.event ? h("p", { class: "small" }, "A game of ", h("a", { href: `#/event/${table.event.id}`, "data-testid": "event-link" }, table.event.name || "the event"),
        table.previous_table ? [" · ", h("a", { href: `#/table/${table.previous_table}` }, "previous game")] : null) :
        table.previous_table ? h("p", { class: "small" }, h("a", { href: `#/table/${table.previous_table}` }, "Previous game")) : null,
      edit && !s.finished ? h("div", { class: "actions-grid" },
        h("button", { type: "button", class: "btn-primary", "data-testid": "record-hand", onclick: () => recordSheet() }, "Record hand"),
        h("button", { type: "button", "data-testid": "end-now", onclick: endNow }, "End the game now")) : null,
      s.finished && table.next_table ? h("a", { class: "btn btn-primary btn-block", href: `#/table/${table.next_table}`, "data-testid": "open-next",
        onclick: () => carryToken(table.next_table) }, "Go to the next game") : null,
      s.finished && !table.next_table && edit ? h("button", { type: "button", class: "btn-primary btn-block", "data-testid": "next-game", onclick: nextGame }, "Next game, same players") : null,
      s.finished ? standingsCard() : null,
      (table.hands || []).length ? scoreChart() : null,
      historyCard(edit),
      h("section", { class: "card", "aria-label": "Table tools" }, h("h2", {}, "Table"),
        h("div", { class: "actions-grid" },
          h("button", { type: "button", "data-testid": "share", onclick: shareSheet }, "Share"),
          h("a", { class: "btn", href: `/api/tables/${table.id}/export?format=csv`, download: `tenbou-${table.id}.csv` }, "Export CSV"),
          h("a", { class: "btn", href: `/api/tables/${table.id}/export?format=json`, download: `tenbou-${table.id}.json` }, "Export JSON")),
        h("div", { class: "row" }, h("span", { class: "small grow" }, "You sit at"),
          segmented("view-seat", table.players.map((p, i) => [String(i), p]), String(viewSeat), (v) => { entry = store.saveTable({ id: table.id, view_seat: Number(v) }); render(); }, { legend: "Your seat (it is drawn at the bottom)" })),
        chip("Turn names to face each player", Boolean(entry.facing), (v) => { entry = store.saveTable({ id: table.id, facing: v }); render(); })));
  }

  /** A table opened from a link for the first time: which seat is this phone's player? */
  function seatQuestion() {
    const pickSeat = (seat) => { entry = store.saveTable({ id: table.id, view_seat: seat }); render(); };
    return h("section", { class: "card", "aria-label": "Your seat", "data-testid": "seat-question" },
      h("h2", {}, "Which seat are you?"),
      h("p", { class: "hint" }, "Your seat is drawn at the bottom of the board."),
      h("div", { class: "toggles" }, table.players.map((p, i) => h("button", { type: "button", "data-pick-seat": String(i), onclick: () => pickSeat(i) },
        `${p} (${WIND_NAME[table.state.seat_winds[i]]})`)),
        h("button", { type: "button", "data-pick-seat": "watch", onclick: () => pickSeat(0) }, "I am not playing")));
  }

  /** Point penalties kept off the table until the end (a WRR chombo, a referee's penalty). */
  function penaltiesLine(s) {
    const due = (s.penalties || []).map((p, seat) => [seat, p]).filter(([, p]) => p > 0);
    if (!due.length || s.finished) return null;
    return h("p", { class: "banner warn", "data-testid": "penalties" }, "Penalties settled at the end: ",
      due.map(([seat, p]) => `${table.players[seat]} −${p}`).join(", "), ".");
  }

  function tokenBanner() {
    const choose = (useLink) => {
      if (useLink) entry = store.saveTable({ id: table.id, edit_token: tokenChoice });
      tokenChoice = "";  // decided: not asked again on this screen
      render();
    };
    return h("div", { class: "banner warn", role: "alert", "data-testid": "token-choice" },
      h("p", {}, "This link carries a different recording key from the one this phone already uses for this table. ",
        "Keep yours unless you know it no longer works."),
      h("div", { class: "row" },
        h("button", { type: "button", class: "btn-primary", "data-testid": "keep-token", onclick: () => choose(false) }, "Keep mine"),
        h("button", { type: "button", "data-testid": "use-link-token", onclick: () => choose(true) }, "Use the link's key")));
  }

  function conflictBanner(q) {
    return h("div", { class: "banner error", role: "alert", "data-testid": "conflict" },
      h("p", {}, h("b", {}, "Not recorded: "), describeRequest(q.body, table.players), ". ",
        q.conflict ? "The table changed before this was recorded. Check the scoreboard: if the hand is still missing, record it now." : q.error),
      h("div", { class: "row" },
        h("button", { type: "button", class: "btn-primary", onclick: async () => {
          store.setQueue(store.queue().filter((x) => x.key !== q.key));
          await send(q.method, q.path, q.body, table.version, null);
        } }, "Record it now"),
        h("button", { type: "button", class: "btn-danger", onclick: () => { store.setQueue(store.queue().filter((x) => x.key !== q.key)); render(); } }, "Discard it")));
  }

  function carryToken(id) {
    if (entry.edit_token && !(store.table(id) || {}).edit_token) store.saveTable({ id, edit_token: entry.edit_token, seen_at: Date.now() });
  }

  async function endNow() {
    if (!confirm("End the game now (time is up)? The standings are taken from the scores as they are.")) return;
    try { await send("POST", `/api/tables/${table.id}/hands`, { result: "end" }, table.version, null); } catch (err) { toast(err.message); }
  }

  async function nextGame() {
    try {
      const next = await api("POST", `/api/tables/${table.id}/next`, undefined, { headers: { Authorization: `Bearer ${entry.edit_token}` } });
      store.saveTable({ id: next.id, share_code: next.share_code, edit_token: entry.edit_token, table: next, seen_at: Date.now(), view_seat: 0 });
      toast("Seats and winds drawn afresh for the next game.");
      location.hash = `#/table/${next.id}`;
    } catch (err) {
      toast(err instanceof OfflineError ? "You are offline: the next game needs the server." : err.message);
    }
  }

  function scoreChart() {
    const hands = table.hands.filter((hd) => hd.result !== "end");
    if (!hands.length) return null;
    const start = hands[0].scores_after.map((v, i) => v - hands[0].deltas[i]);
    const series = table.players.map((name, seat) => ({ name, values: [start[seat], ...hands.map((hd) => hd.scores_after[seat])] }));
    const labels = ["", ...hands.map((hd) => `${WIND_LETTER[hd.round_wind] || ""}${hd.hand_number}`)];
    return h("section", { class: "card", "aria-label": "Scores over the game" }, h("h2", {}, "Scores over the game"),
      lineChart({ title: "Each player's score after each hand", series, xLabels: labels, testid: "chart-game" }));
  }

  function historyCard(edit) {
    const hands = table.hands || [];
    return h("section", { class: "card", "aria-label": "History" },
      h("div", { class: "row" }, h("h2", { class: "grow" }, `History (${hands.length})`),
        edit && hands.length ? h("button", { type: "button", class: "btn-danger", "data-testid": "undo", onclick: undo }, "Undo last hand") : null),
      hands.length ? h("ol", { class: "history", reversed: true }, hands.map((hand, index) => historyItem(hand, index, edit)).reverse())
        : h("p", { class: "muted" }, "No hands yet."));
  }

  /** One line of the history. The hand's place in the list is its number: a record's own fields are
   *  only shown, and a record that cannot be read shows as such instead of breaking the screen. */
  function historyItem(raw, index, edit) {
    const hand = raw && typeof raw === "object" ? { ...raw, index } : { index };
    let what;
    try {
      what = [h("b", {}, `${WIND_LETTER[hand.round_wind] || ""}${hand.hand_number ?? ""}${hand.honba ? "-" + hand.honba : ""} `), describeHand(hand, table.players)];
    } catch {
      what = `Hand ${index + 1} (this record cannot be read; correct or undo it)`;
    }
    const deltas = Array.isArray(hand.deltas) ? hand.deltas : [];
    return h("li", { "data-hand": String(index) },
      h("span", { class: "what" }, what),
      edit ? h("button", { type: "button", "aria-label": `Correct hand ${index + 1}`, onclick: () => recordSheet(hand) }, "Correct") : null,
      h("div", { class: "deltas", "aria-label": "Points won and lost, and the running totals" }, deltas.map((d, i) => {
        const after = Array.isArray(hand.scores_after) ? hand.scores_after[i] : undefined;
        return h("span", { class: d > 0 ? "pos" : d < 0 ? "neg" : "", "data-total": String(after ?? "") },
          `${table.players[i]} ${points(d, true)}`, h("br"), h("span", { class: "running" }, after === undefined ? "" : `= ${after}`));
      })));
  }

  function standingsCard() {
    const st = table.state.standings || [];
    const penalties = st.some((r) => r.penalty);
    const oka = st.some((r) => r.oka);
    // one unit throughout: thousands of points, one decimal (35.2, +15.0, +19.3)
    const k = (n, signed = true) => { const v = Math.abs(n / 1000).toFixed(1); return n > 0 ? (signed ? "+" : "") + v : n < 0 ? "−" + v : signed ? "±0.0" : v; };
    const cols = ["#", "Player", "Score", "Uma", ...(oka ? ["Oka"] : []), ...(penalties ? ["Pen."] : []), "Final"];
    return h("section", { class: "card", "aria-label": "Final standings", "data-testid": "standings" },
      h("h2", {}, "Final standings"),
      h("table", { class: "standings" },
        h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, st.map((r) => h("tr", {}, h("td", { "data-label": "#" }, String(r.place)), h("td", { class: "who" }, table.players[r.seat]), h("td", { "data-label": "Score" }, k(r.points, false)),
          h("td", { "data-label": "Uma" }, k(r.uma)), oka ? h("td", { "data-label": "Oka" }, k(r.oka)) : null, penalties ? h("td", { "data-label": "Pen." }, r.penalty ? k(-r.penalty) : "±0.0") : null,
          h("td", { "data-label": "Final" }, h("b", {}, k(r.final * 1000))))))),
      h("p", { class: "small muted" }, `In thousands of points. Final = score − return points + uma${oka ? " + oka" : ""}${penalties ? " − penalty" : ""}.`));
  }

  /** Send a change; a stale version becomes a conflict the player decides on, offline it is queued. */
  async function send(method, path, payload, version, dialog) {
    try {
      const fresh = await api(method, path, payload, { headers: authHeaders(entry, version) });
      table = fresh;
      etag = `"${fresh.version}"`;
      entry = store.saveTable({ id: fresh.id, table: fresh, seen_at: Date.now() });
      if (dialog) dialog.close();
      render();
      toast(method === "DELETE" ? "Last hand undone." : method === "PUT" ? "Correction saved." : "Hand recorded.");
      return true;
    } catch (err) {
      if (err instanceof OfflineError) {
        if (method === "DELETE") { toast("You are offline: undo needs the server."); return false; }
        const before = store.queue().filter((q) => q.table === table.id && !q.conflict && !q.error);
        store.enqueue({ table: table.id, method, path, body: payload, version, after: before.length ? before[before.length - 1].key : null });
        if (dialog) dialog.close();
        toast("Saved on this phone: it will be sent when you are back online.");
        render();
        return true;
      }
      if (err instanceof ApiError && err.status === 409) {
        if (err.body && err.body.table) { table = err.body.table; entry = store.saveTable({ id: table.id, table, seen_at: Date.now() }); etag = `"${table.version}"`; }
        if (dialog) dialog.close();
        render();
        conflictSheet(method, path, payload);
        return false;
      }
      throw err;
    }
  }

  function conflictSheet(method, path, payload) {
    // closed without a choice, the entry is kept on this phone as a conflict (never silently lost)
    let decided = false;
    const s = sheet("Someone else changed this table", { onclose: () => {
      if (decided || !payload) return;
      store.enqueue({ table: table.id, method, path, body: payload, version: table.version, conflict: { message: "closed without a choice" } });
      render();
    } });
    const latest = table.hands && table.hands.length ? table.hands[table.hands.length - 1] : null;
    s.body.append(h("div", { class: "banner error", role: "alert", "data-testid": "conflict" },
      h("p", {}, "Another phone changed the table while you were entering this. ", h("b", {}, "Your change was not saved yet.")),
      latest ? h("p", {}, "Now the last hand is: ", describeHand(latest, table.players), ".") : null,
      payload ? h("p", {}, "Yours: ", describeRequest(payload, table.players), ".") : h("p", {}, "Yours: undo the last hand.")),
      h("p", { class: "hint" }, "If both phones recorded the same hand, discard yours. If yours is a different hand, record it on top."));
    s.foot.append(
      h("button", { type: "button", class: "btn-danger", "data-testid": "conflict-discard", onclick: () => { decided = true; s.close(); } }, "Discard mine"),
      h("button", { type: "button", class: "btn-primary", "data-testid": "conflict-apply", onclick: async () => {
        decided = true;
        try { await send(method, path, payload, table.version, s); } catch (err) { decided = false; s.body.append(h("p", { class: "field-error", role: "alert" }, err.message)); }
      } }, method === "DELETE" ? "Undo anyway" : "Record mine too"));
  }

  async function undo() {
    const last = table.hands[table.hands.length - 1];
    if (!confirm(`Undo the last hand?\n${describeHand(last, table.players)}`)) return;
    try { await send("DELETE", `/api/tables/${table.id}/hands/last`, undefined, table.version, null); } catch (err) { toast(err.message); }
  }

  // --- the record sheet ---
  async function recordSheet(correcting = null) {
    const version = table.version;   // the state the player is looking at; a later change is a conflict
    const base = correcting || null;
    if (!rules) rules = await ruleValues(table.ruleset, table.rules).catch(() => ({}));
    const names = await yakuNames().catch(() => ({}));
    const title = correcting ? `Correct hand ${correcting.index + 1}` : `Record hand · ${roundName(table.state)}`;
    const s = sheet(title);
    const players = table.players;
    const kinds = [["ron", "Ron"], ["tsumo", "Tsumo"], ["draw", "Draw"]];
    if ((rules.abortive_draws || []).length) kinds.push(["abort", "Abortive draw"]);
    kinds.push(["chombo", "Chombo"]);
    const f = {
      result: base ? base.result : "ron",
      from: base && base.from_seat !== undefined ? base.from_seat : null,
      winners: base && Array.isArray(base.winners) ? base.winners.filter((w) => w && typeof w === "object").map((w) => w.seat) : [],
      riichi: base && Array.isArray(base.riichi) ? [...base.riichi] : [],
      tenpai: base && Array.isArray(base.tenpai) ? [...base.tenpai] : [],
      nagashi: base && Array.isArray(base.nagashi) ? [...base.nagashi] : [],
      kind: base && base.kind ? base.kind : (rules.abortive_draws || [])[0],
      chombo: base && base.result === "chombo" ? base.seat : null,
      values: {}, pao: {},
    };
    if (base && Array.isArray(base.winners)) for (const w of base.winners.filter((x) => x && typeof x === "object")) {
      f.values[w.seat] = w.yakuman ? { yakuman: w.yakuman } : { han: w.han, fu: w.fu || 30 };
      if (w.pao_seat !== undefined && w.pao_seat !== null) f.pao[w.seat] = w.pao_seat;
    }
    const multi = (rules.max_ron_winners || 1) > 1;
    const errBox = h("div", { "aria-live": "assertive" });
    const content = h("div");
    const editors = {};

    const seatPicker = (name, value, onchange, exclude = null) => segmented(name, players.map((p, i) => [String(i), p, { disabled: i === exclude }]), value === null ? null : String(value), (v) => onchange(Number(v)), { legend: name });
    // under rule sets where riichi needs points, a player without a stick's worth cannot declare
    const seatChips = (list, label) => h("div", { class: "toggles", role: "group", "aria-label": label }, players.map((p, i) => chip(p, list.includes(i), (v) => {
      const k = list.indexOf(i);
      if (v && k < 0) list.push(i); else if (!v && k >= 0) list.splice(k, 1);
      list.sort();
    }, { "data-seat": String(i), name: label, disabled: label === "riichi" && rules.riichi_needs_points && table.state.scores[i] < (rules.riichi_stick || 1000) && !list.includes(i) })));

    function draw() {
      s.body.dispatchEvent(new Event("preview"));
      clear(content,
        segmented("result", kinds, f.result, (v) => { f.result = v; f.winners = f.result === "tsumo" ? f.winners.slice(0, 1) : f.winners; draw(); }, { legend: "What happened" }),
        ["ron", "tsumo", "draw", "abort"].includes(f.result) ? h("fieldset", {}, h("legend", {}, "Riichi declared this hand"), seatChips(f.riichi, "riichi")) : null,
        f.result === "ron" ? [
          h("fieldset", {}, h("legend", {}, "Discarder (deal-in)"), seatPicker("from", f.from, (v) => { f.from = v; f.winners = f.winners.filter((w) => w !== v); draw(); })),
          h("fieldset", {}, h("legend", {}, multi ? `Winner${rules.max_ron_winners > 1 ? "s (up to " + rules.max_ron_winners + ")" : ""}` : "Winner (head bump: one winner only)"),
            multi ? h("div", { class: "toggles" }, players.map((p, i) => chip(p, f.winners.includes(i), (v) => { f.winners = v ? [...f.winners, i].sort() : f.winners.filter((w) => w !== i); draw(); }, { disabled: i === f.from, name: "winner", "data-seat": String(i) })))
              : seatPicker("winner", f.winners[0] ?? null, (v) => { f.winners = [v]; draw(); }, f.from)),
          f.winners.map((seat) => valueBlock(seat, "ron"))] : null,
        f.result === "tsumo" ? [
          h("fieldset", {}, h("legend", {}, "Winner"), seatPicker("winner", f.winners[0] ?? null, (v) => { f.winners = [v]; draw(); })),
          f.winners.slice(0, 1).map((seat) => valueBlock(seat, "tsumo"))] : null,
        f.result === "draw" ? [
          h("fieldset", {}, h("legend", {}, "Tenpai players"), seatChips(f.tenpai, "tenpai")),
          rules.nagashi_mangan ? h("fieldset", {}, h("legend", {}, "Nagashi mangan"), seatChips(f.nagashi, "nagashi")) : null] : null,
        f.result === "abort" ? h("fieldset", {}, h("legend", {}, "Kind"), segmented("abort-kind", (rules.abortive_draws || []).map((k) => [k, ABORT_NAMES[k] || k]), f.kind, (v) => { f.kind = v; })) : null,
        f.result === "chombo" ? [h("fieldset", {}, h("legend", {}, "Who made the chombo"), seatPicker("chombo", f.chombo, (v) => { f.chombo = v; })),
          h("p", { class: "hint" }, rules.chombo === "mangan" ? "They pay a mangan to the others; the hand is replayed." : `They get a ${rules.chombo_penalty || ""} point penalty at the end; the hand is replayed.`)] : null,
        errBox);
    }

    function valueBlock(seat, win) {
      const v = f.values[seat] || (f.values[seat] = { han: 1, fu: 30 });
      const mode = v.hand ? "hand" : v.yakuman || v.han >= 5 ? "limit" : "hanfu";
      const box = h("fieldset", { "data-value-for": String(seat) }, h("legend", {}, `Value of ${players[seat]}'s hand`));
      const inner = h("div");
      const modes = segmented(`value-mode-${seat}`, [["hanfu", "Han / fu"], ["limit", "Limit"], ["hand", "Enter hand"]], mode, (m) => {
        if (m === "hanfu") f.values[seat] = { han: 1, fu: 30 };
        if (m === "limit") f.values[seat] = { han: 5, fu: 30 };
        if (m === "hand") f.values[seat] = { hand: null };
        fill(m);
      }, { legend: "How to give the value" });
      function fill(m) {
        const val = f.values[seat];
        if (m === "hanfu") {
          clear(inner, h("div", { class: "grid2" },
            h("label", { class: "field" }, h("span", {}, "Han"), h("select", { name: `han-${seat}`, "data-testid": `han-${seat}`, onchange: (e) => { val.han = Number(e.target.value); } },
              [1, 2, 3, 4].map((n) => h("option", { value: n, selected: n === val.han }, String(n))))),
            h("label", { class: "field" }, h("span", {}, "Fu"), h("select", { name: `fu-${seat}`, "data-testid": `fu-${seat}`, onchange: (e) => { val.fu = Number(e.target.value); } },
              FU.map((n) => h("option", { value: n, selected: n === val.fu }, String(n)))))),
          h("p", { class: "hint" }, "5 han or more: choose Limit."));
        } else if (m === "limit") {
          const cur = val.yakuman ? `y${val.yakuman}` : String(val.han >= 11 ? 11 : val.han >= 8 ? 8 : val.han >= 6 ? 6 : 5);
          clear(inner, segmented(`limit-${seat}`, LIMITS.map(([k, label]) => [k, label]), cur, (k) => { f.values[seat] = { ...LIMITS.find((l) => l[0] === k)[2] }; }, { legend: "Limit" }));
        } else {
          clear(inner, handBlock(seat, win));
        }
      }
      fill(mode);
      box.append(modes, inner);
      if ((rules.pao_yaku || []).length) {
        box.append(h("label", { class: "field" }, h("span", { class: "small" }, `Pao (liability for ${rules.pao_yaku.map((y) => ITEM_NAMES[y] || y.replace(/_/g, " ")).join(", ")})`),
          h("select", { name: `pao-${seat}`, onchange: (e) => { f.pao[seat] = e.target.value === "" ? null : Number(e.target.value); } },
            h("option", { value: "" }, "nobody"), players.map((p, i) => i === seat ? null : h("option", { value: i, selected: f.pao[seat] === i }, p)))));
      }
      return box;
    }

    function handBlock(seat, win) {
      const hs = editors[seat] || (editors[seat] = { state: emptyHand(), cond: { ...defaultConditions(), ruleset: table.ruleset } });
      const s2 = table.state;
      Object.assign(hs.cond, { win, seat_wind: s2.seat_winds[seat], round_wind: s2.round_wind, honba: s2.honba, riichi_sticks: s2.riichi_sticks, riichi: f.riichi.includes(seat) || hs.cond.riichi });
      const out = h("div", { "aria-live": "polite" });
      const editor = createHandEditor({ state: hs.state, withWin: true, onchange: () => { f.values[seat] = { hand: null }; clear(out); } });
      const cond = createConditions(hs.cond, { fixed: { ruleset: 1, win: 1, seat_wind: 1, round_wind: 1, honba: 1 }, onchange: () => { f.values[seat] = { hand: null }; clear(out); } });
      const photoInput = h("input", { type: "file", accept: "image/*", capture: "environment", class: "visually-hidden", id: `photo-${seat}` });
      photoInput.addEventListener("change", async () => {
        const file = photoInput.files[0];
        if (!file) return;
        clear(out, h("p", { class: "banner info" }, "Reading the photo…"));
        try {
          const { blob } = await downscale(file);
          const form = new FormData();
          form.append("image", blob, "photo.jpg");
          const res = await api("POST", "/api/recognize", form);
          Object.assign(hs.state, handFromDetections(res, res.tiles.map((t) => ({ tile: t.tile, ignored: t.face_down || t.tile === "back" })), null));
          editor.render();
          clear(out, h("p", { class: "banner info" }, "Tiles read from the photo: check them, then check the score."));
        } catch (err) {
          clear(out, h("p", { class: "banner error", role: "alert" }, err instanceof ApiError && [404, 501, 503].includes(err.status) ? "Photo recognition is not available on this server yet." : err.message));
        }
      });
      const check = async () => {
        const req = { ...cond.request(), ...editor.request(), rules: table.rules || {} };
        try {
          const r = await api("POST", "/api/score", req);
          const { seat_wind, round_wind, honba, riichi_sticks, compare, ...handReq } = req;  // the table fills these in
          f.values[seat] = { hand: handReq };
          out.dispatchEvent(new Event("preview", { bubbles: true }));
          clear(out, h("p", { class: "banner info", "data-testid": `hand-value-${seat}` }, `${summary(r)} — `, (r.yaku || []).map((y) => y.name || names[y.id] || y.id).join(", ")));
        } catch (err) {
          f.values[seat] = { hand: null };
          placeError(err, [editor, cond], out);
        }
      };
      return h("div", {}, editor.el, cond.el,
        h("div", { class: "row" },
          h("label", { for: `photo-${seat}`, class: "btn", role: "button", tabindex: "0" }, "From a photo"), photoInput,
          h("button", { type: "button", class: "btn-primary", "data-testid": `check-hand-${seat}`, onclick: check }, "Check score")),
        out);
    }

    function payload() {
      const val = (seat) => {
        const v = f.values[seat] || {};
        if ("hand" in v) { if (!v.hand) throw new Error(`Check the score of ${players[seat]}'s hand first.`); return { hand: v.hand }; }
        return v.yakuman ? { yakuman: v.yakuman } : { han: v.han, fu: v.fu };
      };
      switch (f.result) {
        case "ron":
          if (f.from === null) throw new Error("Choose who discarded the winning tile.");
          if (!f.winners.length) throw new Error("Choose the winner.");
          return { result: "ron", from_seat: f.from, winners: f.winners.map((seat) => ({ seat, value: val(seat), pao_seat: f.pao[seat] ?? null })), riichi: f.riichi };
        case "tsumo":
          if (!f.winners.length) throw new Error("Choose the winner.");
          return { result: "tsumo", winner: { seat: f.winners[0], value: val(f.winners[0]), pao_seat: f.pao[f.winners[0]] ?? null }, riichi: f.riichi };
        case "draw": return { result: "draw", tenpai: f.tenpai, riichi: f.riichi, nagashi: f.nagashi };
        case "abort": return { result: "abort", kind: f.kind, riichi: f.riichi };
        case "chombo":
          if (f.chombo === null) throw new Error("Choose who made the chombo.");
          return { result: "chombo", seat: f.chombo };
        default: throw new Error("Choose what happened.");
      }
    }

    /** "winners[1].value.hand" -> "Bob's hand". */
    function fieldLabel(field) {
      const m = field.match(/^winners\[(\d+)\]/);
      if (m && f.winners[Number(m[1])] !== undefined) return `${players[f.winners[Number(m[1])]]}'s hand`;
      if (field.startsWith("winner")) return f.winners.length ? `${players[f.winners[0]]}'s hand` : "winner";
      return field.replace(/_/g, " ");
    }

    const save = h("button", { type: "button", class: "btn-primary", "data-testid": "save-hand", onclick: async () => {
      clearTimeout(previewTimer);   // the hand is being recorded: a preview now would describe the hand after it
      clear(errBox);
      let body;
      try { body = payload(); } catch (err) { clear(errBox, h("p", { class: "field-error", role: "alert" }, err.message)); return; }
      save.disabled = true;
      try {
        const path = correcting ? `/api/tables/${table.id}/hands/${correcting.index}` : `/api/tables/${table.id}/hands`;
        await send(correcting ? "PUT" : "POST", path, body, version, s);
      } catch (err) {
        clear(errBox, h("p", { class: "field-error", role: "alert", "data-field": err.field || "" }, err.field ? `${fieldLabel(err.field)}: ${err.message}` : err.message));
      } finally {
        save.disabled = false;
      }
    } }, correcting ? "Save correction" : "Record");
    s.foot.append(h("button", { type: "button", onclick: () => s.close() }, "Cancel"), save);
    // who pays what, worked out by the server's ledger from the sheet as it is now (nothing stored)
    const previewBox = h("section", { class: "preview", "aria-label": "Who pays what", "aria-live": "polite", "data-testid": "preview" });
    const footSummary = h("div", { class: "deltas foot-summary", "aria-label": "Points won and lost", "data-testid": "preview-summary" });
    s.foot.prepend(footSummary);
    let previewSeq = 0, previewTimer = null;
    let sheetOpen = true;
    const schedulePreview = () => { if (sheetOpen) { clearTimeout(previewTimer); previewTimer = setTimeout(refreshPreview, 120); } };
    // once the sheet is closed (recorded, or cancelled), no preview is asked for any more
    s.dialog.addEventListener("close", () => { sheetOpen = false; clearTimeout(previewTimer); previewSeq += 1; });
    async function refreshPreview() {
      if (!sheetOpen) return;
      const seq = ++previewSeq;
      let body;
      try { body = payload(); } catch (err) { clear(footSummary); clear(previewBox, h("p", { class: "hint" }, `Who pays what appears here. ${err.message}`)); return; }
      const path = `/api/tables/${table.id}/preview${correcting ? `?index=${correcting.index}` : ""}`;
      try {
        const res = await api("POST", path, body, { headers: { Authorization: `Bearer ${entry.edit_token}` } });
        if (seq !== previewSeq) return;
        clear(previewBox, previewLines(res, players));
        // the points each player gains or loses stay in view beside Record
        clear(footSummary, res.hand.deltas.map((d, i) => h("span", { class: d > 0 ? "pos" : d < 0 ? "neg" : "" }, `${players[i]} ${points(d, true)}`)));
      } catch (err) {
        if (seq !== previewSeq) return;
        clear(footSummary);
        clear(previewBox, err instanceof OfflineError ? h("p", { class: "hint" }, "Offline: the payments are worked out when the hand is sent.")
          : h("p", { class: "field-error", role: "alert", "data-state": "refused" }, err.field ? `${fieldLabel(err.field)}: ${err.message}` : err.message));
      }
    }
    s.body.addEventListener("change", schedulePreview);
    s.body.addEventListener("preview", schedulePreview);
    draw();
    s.body.append(content, previewBox);
    refreshPreview();
  }


  function shareSheet() {
    const s = sheet("Share this table");
    const origin = location.origin;
    const watch = `${origin}/t/${table.share_code}`;
    const editLink = entry.edit_token ? `${origin}/t/${table.id}#token=${entry.edit_token}` : null;
    const show = h("div");
    const pick = (which) => {
      const link = which === "edit" ? editLink : watch;
      clear(show,
        h("div", { class: "qr", "data-testid": "qr", "data-link": link }, qrSvg(link)),
        h("p", { class: "share-link", "data-testid": "share-link" }, link),
        h("div", { class: "row" },
          h("button", { type: "button", onclick: async () => { try { await navigator.clipboard.writeText(link); toast("Link copied."); } catch { toast("Copy the link by hand."); } } }, "Copy link"),
          navigator.share ? h("button", { type: "button", onclick: () => navigator.share({ title: "Tenbou table", url: link }).catch(() => {}) }, "Share…") : null),
        h("p", { class: "hint" }, which === "edit" ? "Anyone with this link can record hands. Give it to the players." : "This link only shows the scores (for spectators)."));
    };
    s.body.append(h("p", {}, "Share code: ", h("b", { "data-testid": "share-code" }, table.share_code)),
      editLink ? segmented("share-kind", [["edit", "Players (can record)"], ["watch", "Spectators (read-only)"]], "edit", pick, { legend: "Link for" }) : null,
      show);
    pick(editLink ? "edit" : "watch");
  }

  clear(view, body);
  if (table) render(); else clear(body, h("p", { class: "card" }, "Loading the table…"));
  try {
    await load();
  } catch (err) {
    if (!table) { clear(body, h("div", { class: "banner error", role: "alert" }, err.message)); }
  }
  // a link with another edit token never replaces the one this phone has: the player chooses
  if (token && entry && entry.edit_token && entry.edit_token !== token) tokenChoice = token;
  if (token && location.hash.includes("token=")) history.replaceState(null, "", `#/table/${table ? table.id : key}`);
  render();
  flushQueue();
  timer = setTimeout(tick, POLL_MS);
  // back to the app after the phone slept: fetch at once rather than at the next tick
  const wake = () => { if (document.visibilityState === "visible") { clearTimeout(timer); tick(); } };
  document.addEventListener("visibilitychange", wake);
  return () => { stopped = true; clearTimeout(timer); listeners.delete(rerender); document.removeEventListener("visibilitychange", wake); };
}
