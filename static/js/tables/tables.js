// @ts-check
// Tables: create, join, the scoreboard, recording hands (online or queued offline), history,
// corrections, standings, sharing and export. Talks to /api/tables.
import { h, clear, segmented, chip, sheet, toast, points, fmtTime, whenReleased } from "../core/util.js";
import { api, ApiError, OfflineError, rulesets, ruleValues, yakuNames } from "../core/api.js";
import { createHandEditor, emptyHand } from "../core/hand-editor.js";
import { createConditions, defaultConditions, placeError } from "../core/conditions.js";
import { downscale } from "../core/images.js";
import { handFromDetections } from "../photo/detections.js";   // the photo feature's model
import { summary, yakuName } from "../core/results.js";
import { ITEM_NAMES, ruleEditor } from "../core/rule-editor.js";
import { qrSvg } from "../core/qr.js";
import { lineChart } from "../core/charts.js";
import { WIND_LETTER, WIND_NAME } from "../core/tiles.js";
import * as store from "../core/store.js";
import { errorText, t, lang, reasonText, rulesetName } from "../core/i18n.js";
import { ABORT_NAMES } from "../core/i18n.js";
import { authHeaders, boardSeats, describeHand, describeRequest, duePenalties, FU, LIMITS, limitOfHan, nextSteps, payFor, queuedFor, roundName, sticksText } from "./model.js";
import { boardOf, decorate, offlineOffer, pendingOf, previewNote, previewOf } from "./projection.js";
import * as queue from "./queue.js";
import { scoreOffline } from "../core/offline.js";

const POLL_MS = 3000;
// a table's write or check with no answer by then is given up as unreachable: a write waits in the
// queue (it says so) and goes in by itself, once, rather than holding Record greyed out for minutes
const ANSWER_MS = 15000;
/** A preview (POST .../preview) in words: each payment, each player's change, and what comes next. */
export function previewLines(res, players) {
  const items = (res.hand.payments || []).map((p) => h("li", {},
    p.from === "table" ? t("pay.takes", { who: players[p.to], n: p.amount, why: payFor(p.for) })
      : p.to === "table" ? t("pay.puts", { who: players[p.from], n: p.amount, why: payFor(p.for) })
        : t("pay.pays", { who: players[p.from], to: players[p.to], n: p.amount, why: payFor(p.for) })));
  const st = res.state;
  const next = st.finished ? t("pay.then_over") : t("pay.then", { round: roundName(st), honba: st.honba, sticks: st.riichi_sticks });
  return [h("h3", {}, t("pay.title")),
    items.length ? h("ul", { class: "pay-list" }, items) : h("p", {}, t("pay.nobody")),
    h("div", { class: "deltas", "aria-label": t("pay.deltas") }, res.hand.deltas.map((d, i) => h("span", { class: d > 0 ? "pos" : d < 0 ? "neg" : "", "data-delta": String(i) }, `${players[i]} ${points(d, true)}`))),
    res.hand.penalty && res.hand.penalty.points > 0 ? h("p", { class: "small", "data-testid": "preview-penalty" }, t("pay.penalty", { name: players[res.hand.penalty.seat], n: res.hand.penalty.points })) : null,
    res.hand.chombo && res.hand.chombo.kind === "payment" ? h("p", { class: "small", "data-testid": "preview-chombo" }, t("pay.chombo_payment", { name: players[res.hand.chombo.seat] })) : null,
    h("p", { class: "small muted" }, next)];
}

// --- offline queue -------------------------------------------------------------------------------

let flushing = false;
const listeners = new Set();
const notify = () => listeners.forEach((fn) => fn());

/** Send the hands recorded offline, oldest first; a 409 marks the item as a conflict for the player.
 * A hand queued on top of another queued hand (`after`) is sent against the version that hand made,
 * so several hands recorded offline go in, in order, without a false conflict (queue.js). */
export async function flushQueue() {
  if (flushing || !navigator.onLine) return;
  flushing = true;
  let sent = false;   // or refused: the screens showing the queue draw again only then
  try {
    const stored = store.queue();
    const settled = queue.stranded(stored);   // a hand stuck behind one that will not go in is the player's
    if (settled.some((q, i) => q !== stored[i])) { store.setQueue(settled); sent = true; }
    for (const item of settled) {
      if (item.conflict || item.error) continue;
      const entry = store.table(item.table);
      if (!entry || !entry.edit_token) continue;
      const current = store.queue().find((q) => q.key === item.key);
      if (!current || current.after || current.conflict || current.error) continue;   // still waiting for the hand it was recorded on top of
      sent = true;
      try {
        const table = await api(current.method, current.path, current.body, { headers: authHeaders(entry, current.version, current.key), timeout: ANSWER_MS });
        store.saveTable({ id: table.id, table, seen_at: Date.now() });
        store.setQueue(queue.sent(store.queue(), item.key, table.version));
        toast(t("queue.sent"));
      } catch (err) {
        if (err instanceof OfflineError) break;
        if (!store.queue().some((q) => q.key === item.key)) continue;
        if (err instanceof ApiError && err.status === 409) {
          store.setQueue(queue.refused(store.queue(), item.key, { conflict: { version: err.body && err.body.table ? err.body.table.version : null } }));
          if (err.body && err.body.table) store.saveTable({ id: err.body.table.id, table: err.body.table, seen_at: Date.now() });
        } else {
          store.setQueue(queue.refused(store.queue(), item.key, { error: errorText(err) }));   // worded in the language shown when it was refused
        }
      }
    }
  } finally {
    flushing = false;
    if (sent) notify();
  }
}

// --- list, create, join --------------------------------------------------------------------------

export async function tablesScreen(view) {
  const known = Object.values(store.tables()).sort((a, b) => (b.seen_at || 0) - (a.seen_at || 0));
  let list = [];
  try { list = (await rulesets()).rulesets; } catch { list = [{ id: "wrr", title: "World Riichi Rules" }]; }
  const err = h("div", { "aria-live": "polite" });
  // names this phone has seen at its tables, offered as the player types
  const seenNames = [...new Set(Object.values(store.tables()).flatMap((k) => (k.table ? k.table.players : [])))].sort();
  const datalist = h("datalist", { id: "seen-names" }, seenNames.map((n) => h("option", { value: n })));
  const names = [t("new.east"), WIND_NAME.south, WIND_NAME.west, WIND_NAME.north].map((label, i) => h("label", { class: "field" }, h("span", {}, label),
    h("input", { type: "text", name: `player-${i}`, required: true, maxlength: 40, autocomplete: "off", list: "seen-names", "data-testid": `player-${i}`, "aria-describedby": `player-${i}-error` }),
    h("p", { class: "field-error", id: `player-${i}-error`, role: "alert" })));
  const rulesetSelect = h("select", { name: "ruleset", "data-testid": "table-ruleset" }, list.map((r) => h("option", { value: r.id }, rulesetName(r.id, r.title))));
  const overrides = {};
  const rulesBox = h("div");
  let gameLength = "east_south";
  const drawRules = () => {
    for (const k of Object.keys(overrides)) delete overrides[k];
    const rs = list.find((r) => r.id === rulesetSelect.value);
    clear(rulesBox, rs && rs.parameters ? ruleEditor(rs.parameters, overrides, rs.groups) : null);
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
  const lengthPick = segmented("table-length", [["east_south", t("length.east_south")], ["east", t("length.east")]], "east_south", setLength, { legend: t("length.legend") });
  const form = h("form", { class: "card", "aria-label": t("new.title") },
    h("h2", {}, t("new.title")), h("label", { class: "field" }, h("span", {}, t("score.ruleset")), rulesetSelect),
    h("fieldset", {}, h("legend", {}, t("length.legend")), lengthPick),
    h("details", {}, h("summary", {}, t("rules.adjust")), rulesBox),
    h("p", { class: "hint" }, t("new.order_hint")), names, datalist,
    h("button", { type: "button", class: "btn-block", "data-testid": "draw-seats", onclick: drawSeats }, t("new.draw")), err,
    h("button", { type: "submit", class: "btn-primary btn-block", "data-testid": "create-table" }, t("new.create")));
  /** Shuffle the four names over the seats (the wind draw), fairly: Fisher-Yates with crypto randomness. */
  function drawSeats() {
    const inputs = names.map((l) => l.querySelector("input"));
    const values = inputs.map((i) => i.value);
    for (let i = values.length - 1; i > 0; i -= 1) {
      const j = crypto.getRandomValues(new Uint32Array(1))[0] % (i + 1);
      [values[i], values[j]] = [values[j], values[i]];
    }
    inputs.forEach((input, i) => { input.value = values[i]; });
    toast(t("new.drawn", { seats: values.map((v, i) => `${WIND_NAME[["east", "south", "west", "north"][i]]} ${v || "?"}`).join(t("list.sep")) }));
  }
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    clear(err);
    for (const p of form.querySelectorAll(".field-error")) p.textContent = "";
    const players = names.map((l) => l.querySelector("input").value.trim());
    const dup = players.findIndex((p, i) => p && players.findIndex((q) => q.toLowerCase() === p.toLowerCase()) < i);
    if (dup >= 0) { form.querySelector(`#player-${dup}-error`).textContent = t("new.duplicate"); return; }
    try {
      const table = await api("POST", "/api/tables", { ruleset: rulesetSelect.value, players, rules: { ...overrides } });
      store.saveTable({ id: table.id, share_code: table.share_code, edit_token: table.edit_token, table, seen_at: Date.now(), view_seat: 0 });
      location.hash = `#/table/${table.id}`;
    } catch (ex) {
      const m = ex instanceof ApiError && ex.field && ex.field.match(/^players\[(\d)\]$/);
      const rule = ex instanceof ApiError && ex.field && ex.field.match(/^rules\.(\w+)/);
      if (m) form.querySelector(`#player-${m[1]}-error`).textContent = errorText(ex);
      else if (rule && form.querySelector(`[data-rule-error="${rule[1]}"]`)) {
        form.querySelector("details").open = true;
        form.querySelector(`[data-rule-error="${rule[1]}"]`).textContent = errorText(ex);
      }
      else clear(err, h("div", { class: "banner error", role: "alert" }, ex instanceof OfflineError ? t("new.offline") : errorText(ex)));
    }
  });
  const joinInput = h("input", { type: "text", name: "join", placeholder: t("join.placeholder"), autocomplete: "off", "aria-label": t("join.placeholder") });
  const join = h("form", { class: "card", "aria-label": t("join.title") }, h("h2", {}, t("join.title")),
    h("div", { class: "row" }, h("div", { class: "grow" }, joinInput), h("button", { type: "submit" }, t("join.open"))));
  join.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = joinInput.value.trim();
    const m = text.match(/\/t\/([^/#?\s]+)(?:#token=([^&\s]+))?/) || text.match(/#\/table\/([^/?\s]+)(?:\?token=([^&\s]+))?/);
    if (m) location.hash = `#/table/${m[1]}${m[2] ? "?token=" + m[2] : ""}`;
    else if (text) location.hash = `#/table/${encodeURIComponent(text)}`;
  });
  clear(view, h("h1", { class: "visually-hidden" }, t("nav.tables")),
    h("section", { class: "card", "aria-label": t("tables.title") }, h("h2", {}, t("tables.title")),
      known.length ? h("ul", { class: "table-list" }, known.map((k) => h("li", {},
        h("a", { href: `#/table/${k.id}` }, h("b", {}, k.table ? k.table.players.join(" · ") : k.id), h("br"),
          h("span", { class: "small muted" }, k.table ? `${rulesetName(k.table.ruleset, k.table.ruleset_title)} · ${k.table.state.finished ? t("tables.finished") : roundName(k.table.state)} · ${k.edit_token ? t("tables.can_record") : t("tables.watching")}` : "")),
        h("button", { type: "button", class: "btn-danger", "aria-label": t("tables.forget_label", { names: k.table ? k.table.players.join(t("list.sep")) : k.id }), onclick: () => { if (confirm(t("tables.forget_confirm"))) { store.forgetTable(k.id); tablesScreen(view); } } }, t("tables.forget")))))
        : h("p", { class: "muted" }, t("tables.none"))),
    form, join,
    h("section", { class: "card", "aria-label": t("event.clubs") }, h("h2", {}, t("event.clubs")),
      h("p", { class: "hint" }, t("tables.events_hint")),
      h("a", { class: "btn btn-block", href: "#/events", "data-testid": "open-events" }, t("event.events"))));
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
  // what the screen draws again by itself (the server's news, the queue sent, the board replayed
  // offline) waits for a finger lifted: the button it holds is not replaced under it
  const pressed = whenReleased(body);
  const rerender = () => pressed.soon(render);
  listeners.add(rerender);

  async function load() {
    try {
      const resp = await api("GET", `/api/tables/${encodeURIComponent(entry ? entry.id : key)}`, undefined, { raw: true, headers: etag && table ? { "If-None-Match": etag } : {}, timeout: ANSWER_MS });
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
      if (document.visibilityState === "visible" && (await load())) pressed.soon(render);
      // hands queued while the server could not take them (offline, or a 502/503/504) go in by themselves
      if (store.queue().some((q) => q.table === (table && table.id) && !q.conflict && !q.error)) flushQueue();
    } catch { /* keep the last state on a passing error */ } finally {
      busy = false;
      clearTimeout(timer);
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    }
  }

  function canEdit() { return Boolean(entry && entry.edit_token); }

  // the board moves forward offline: the hands not yet sent, replayed by the server's own ledger (projection.js)
  function shownTable() { return table ? boardOf(table, rerender).table : table; }
  function render() {
    const shown = table && !stopped ? boardOf(table, rerender) : null;
    renderBoard(shown ? shown.table : table);
    if (shown && !stopped) decorate(body, shown.info, offline ? { since: entry && entry.seen_at } : null);
  }

  /** Draw `shown`: the table as the server sent it, or moved forward by the hands queued on this
   * phone (projection.js). What a tap does later acts on the server's table (`table`). */
  function renderBoard(shown) {
    if (stopped) return;
    if (!shown) {
      clear(body, h("div", { class: "banner error", role: "alert" }, offline ? t("table.offline_unknown") : t("table.not_found")));
      return;
    }
    const s = shown.state;
    const viewSeat = entry.view_seat || 0;
    const { pending, conflicts } = queuedFor(shown.id);
    const seats = boardSeats(s, { viewSeat, selected }).map(({ seat, pos, score, dealer, diff }) => h("button", {
      type: "button", class: `seat pos-${pos}${dealer ? " dealer" : ""}${selected === seat ? " selected" : ""}`,
      "aria-pressed": selected === seat ? "true" : "false", "data-seat": String(seat),
      "aria-label": t("board.seat_label", { name: shown.players[seat], wind: WIND_NAME[s.seat_winds[seat]] + (dealer ? t("board.dealer_suffix") : ""), n: score,
        diff: diff !== null ? t("board.against", { diff: points(diff, true), name: shown.players[selected] }) : "" }),
      onclick: () => { selected = selected === seat ? null : seat; render(); },
    },
    h("span", { class: "wind" }, lang === "en" ? `${WIND_LETTER[s.seat_winds[seat]]} · ${WIND_NAME[s.seat_winds[seat]]}` : WIND_NAME[s.seat_winds[seat]], dealer ? [" ", h("span", { class: "badge" }, t("board.dealer"))] : null),
    h("span", { class: "name" }, shown.players[seat]),
    h("span", { class: "score", "data-testid": `seat-score-${seat}` }, String(score)),
    diff !== null ? h("span", { class: "diff" }, points(diff, true)) : selected === seat ? h("span", { class: "diff" }, t("board.compared")) : null));
    const board = h("div", { class: `board${entry.facing ? " facing" : ""}`, role: "group", "aria-label": t("board.label") },
      seats,
      h("div", { class: "centre" },
        h("span", { class: "round", "data-testid": "round" }, s.finished ? t("board.over") : roundName(s)),
        h("span", { class: "sticks", "data-testid": "honba" }, t("card.honba", { n: s.honba })),
        h("span", { class: "sticks", "data-testid": "riichi-sticks" }, sticksText(s, shown.players))));

    const edit = canEdit();
    const next = nextSteps(shown, { edit, organiser: Boolean(organiserToken(shown)) });
    clear(body,
      h("h1", { class: "visually-hidden" }, t("table.title")),
      h("div", { class: "row" }, h("h2", { class: "grow" }, shown.players.join(" · ")),
        h("span", { class: "small muted" }, `${rulesetName(shown.ruleset, shown.ruleset_title)}${edit ? "" : ` · ${t("tables.watching")}`}`)),
      offline ? h("div", { class: "banner warn", role: "status", "data-testid": "offline-banner" }, (entry.seen_at ? t("table.offline_as_of", { time: fmtTime(entry.seen_at) }) : t("table.offline_state")) + (edit ? t("table.offline_kept") : "")) : null,
      pending.length ? h("div", { class: "banner info", role: "status", "data-testid": "pending" }, h("span", { class: "pending-count" }, t(pending.length === 1 ? "table.pending_one" : "table.pending", { n: pending.length })), pending.map((q) => describeRequest(q.body, shown.players)).join(t("table.pending_sep"))) : null,
      conflicts.map((q) => conflictBanner(q, shown)),
      entry.view_seat === undefined || entry.view_seat === null ? seatQuestion(shown) : null,
      tokenChoice ? tokenBanner() : null,
      board,
      penaltiesLine(s, shown.players),
      selected !== null ? h("p", { class: "hint" }, t("board.diff_hint", { name: shown.players[selected] })) : h("p", { class: "hint" }, t("board.tap_hint")),
      shown.event ? h("p", { class: "small" }, t("table.game_of"), h("a", { href: `#/event/${shown.event.id}`, "data-testid": "event-link" }, shown.event.name || t("event.event")),
        shown.previous_table ? [" · ", h("a", { href: `#/table/${shown.previous_table}` }, t("table.previous"))] : null) :
        shown.previous_table ? h("p", { class: "small" }, h("a", { href: `#/table/${shown.previous_table}` }, t("table.previous"))) : null,
      next.record ? h("div", { class: "actions-grid" },
        h("button", { type: "button", class: "btn-primary", "data-testid": "record-hand", onclick: () => recordSheet() }, t("table.record")),
        h("button", { type: "button", "data-testid": "end-now", onclick: endNow }, t("table.end_now"))) : null,
      edit && !offline ? offlineOffer() : null,
      next.openNext ? h("a", { class: "btn btn-primary btn-block", href: `#/table/${shown.next_table}`, "data-testid": "open-next",
        onclick: () => carryToken(table.next_table) }, t("table.go_next")) : null,
      next.nextGame
        ? h("button", { type: "button", class: "btn-primary btn-block", "data-testid": "next-game", onclick: nextGame }, t("table.next_game")) : null,
      next.nextByOrganiser
        ? h("p", { class: "small muted", "data-testid": "next-by-organiser" }, t("table.next_by_organiser")) : null,
      s.finished ? standingsCard(shown) : null,
      (shown.hands || []).length ? scoreChart(shown) : null,
      historyCard(shown, edit),
      h("section", { class: "card", "aria-label": t("table.tools") }, h("h2", {}, t("table.title")),
        h("div", { class: "actions-grid" },
          h("button", { type: "button", "data-testid": "share", onclick: shareSheet }, t("table.share")),
          h("a", { class: "btn", href: `/api/tables/${shown.id}/export?format=csv`, download: `tenbou-${shown.id}.csv` }, t("table.export_csv")),
          h("a", { class: "btn", href: `/api/tables/${shown.id}/export?format=json`, download: `tenbou-${shown.id}.json` }, t("table.export_json"))),
        h("div", { class: "row" }, h("span", { class: "small grow" }, t("table.you_sit")),
          segmented("view-seat", shown.players.map((p, i) => [String(i), p]), String(viewSeat), (v) => { entry = store.saveTable({ id: table.id, view_seat: Number(v) }); render(); }, { legend: t("table.your_seat_legend") })),
        chip(t("table.facing"), Boolean(entry.facing), (v) => { entry = store.saveTable({ id: table.id, facing: v }); render(); })));
  }

  /** A table opened from a link for the first time: which seat is this phone's player? */
  function seatQuestion(shown) {
    const pickSeat = (seat) => { entry = store.saveTable({ id: table.id, view_seat: seat }); render(); };
    return h("section", { class: "card", "aria-label": t("seatq.label"), "data-testid": "seat-question" },
      h("h2", {}, t("seatq.title")),
      h("p", { class: "hint" }, t("seatq.hint")),
      h("div", { class: "toggles" }, shown.players.map((p, i) => h("button", { type: "button", "data-pick-seat": String(i), onclick: () => pickSeat(i) },
        `${p} (${WIND_NAME[shown.state.seat_winds[i]]})`)),
        h("button", { type: "button", "data-pick-seat": "watch", onclick: () => pickSeat(0) }, t("seatq.watch"))));
  }

  /** Point penalties kept off the table until the end (a WRR chombo, a referee's penalty). */
  function penaltiesLine(s, players) {
    const due = duePenalties(s);
    if (!due.length) return null;
    return h("p", { class: "banner warn", "data-testid": "penalties" }, t("table.penalties", { list: due.map(([seat, p]) => `${players[seat]} −${p}`).join(t("list.sep")) }));
  }

  function tokenBanner() {
    const choose = (useLink) => {
      if (useLink) entry = store.saveTable({ id: table.id, edit_token: tokenChoice });
      tokenChoice = "";  // decided: not asked again on this screen
      render();
    };
    return h("div", { class: "banner warn", role: "alert", "data-testid": "token-choice" },
      h("p", {}, t("token.text")),
      h("div", { class: "row" },
        h("button", { type: "button", class: "btn-primary", "data-testid": "keep-token", onclick: () => choose(false) }, t("token.keep")),
        h("button", { type: "button", "data-testid": "use-link-token", onclick: () => choose(true) }, t("token.use"))));
  }

  function conflictBanner(q, shown) {
    return h("div", { class: "banner error", role: "alert", "data-testid": "conflict" },
      h("p", {}, h("b", {}, t("conflict.not_recorded")), describeRequest(q.body, shown.players), t("conflict.stop"),
        q.conflict ? t(q.conflict.reason === "after_unsent" ? "conflict.after_unsent" : "conflict.changed") : q.error),
      h("div", { class: "row" },
        h("button", { type: "button", class: "btn-primary", onclick: async () => {
          store.setQueue(queue.dropped(store.queue(), q.key));
          await send(q.method, q.path, q.body, table.version, null);
        } }, t("conflict.record_now")),
        h("button", { type: "button", class: "btn-danger", onclick: () => { store.setQueue(queue.dropped(store.queue(), q.key)); render(); } }, t("conflict.discard"))));
  }

  function carryToken(id) {
    if (entry.edit_token && !(store.table(id) || {}).edit_token) store.saveTable({ id, edit_token: entry.edit_token, seen_at: Date.now() });
  }

  async function endNow() {
    if (!confirm(t("table.end_confirm"))) return;
    try { await send("POST", `/api/tables/${table.id}/hands`, { result: "end" }, table.version, null); } catch (err) { toast(errorText(err)); }
  }

  /** The organiser token of this game's event, when this phone organises it: only it starts an event's next game. */
  function organiserToken(of = table) {
    const ev = of && of.event ? store.event(of.event.id) : null;
    return ev && ev.organiser_token ? ev.organiser_token : null;
  }

  async function nextGame() {
    try {
      const token = table.event ? organiserToken() : entry.edit_token;
      const next = await api("POST", `/api/tables/${table.id}/next`, undefined, { headers: { Authorization: `Bearer ${token}` } });
      store.saveTable({ id: next.id, share_code: next.share_code, edit_token: entry.edit_token, table: next, seen_at: Date.now(), view_seat: 0 });
      toast(t("table.next_drawn"));
      location.hash = `#/table/${next.id}`;
    } catch (err) {
      toast(err instanceof OfflineError ? t("table.next_offline") : errorText(err));
    }
  }

  function scoreChart(shown) {
    const hands = shown.hands.filter((hd) => hd.result !== "end");
    if (!hands.length) return null;
    const start = hands[0].scores_after.map((v, i) => v - hands[0].deltas[i]);
    const series = shown.players.map((name, seat) => ({ name, values: [start[seat], ...hands.map((hd) => hd.scores_after[seat])] }));
    // a hand and its repeats are told apart as the history does: E1, E1-1, E1-2
    // (a chombo's re-deal repeats round and honba: it takes a mark, E1', so no two labels are the same)
    const seen = new Map();
    const labels = ["", ...hands.map((hd) => {
      const base = `${WIND_LETTER[hd.round_wind] || ""}${hd.hand_number}${hd.honba ? `-${hd.honba}` : ""}`;
      const n = seen.get(base) || 0;
      seen.set(base, n + 1);
      return base + "'".repeat(n);
    })];
    return h("section", { class: "card", "aria-label": t("chart.title") }, h("h2", {}, t("chart.title")),
      lineChart({ title: t("chart.label"), series, xLabels: labels, testid: "chart-game" }));
  }

  function historyCard(shown, edit) {
    const hands = shown.hands || [];
    const waiting = queuedFor(shown.id).pending.length > 0;   // a change on this phone can be taken back, offline too
    return h("section", { class: "card", "aria-label": t("history.label") },
      h("div", { class: "row" }, h("h2", { class: "grow" }, t("history.title", { n: hands.length })),
        edit && (hands.length || waiting) ? h("button", { type: "button", class: "btn-danger", "data-testid": "undo", onclick: undo },
          t(waiting ? "history.unqueue" : "history.undo")) : null),
      hands.length ? h("ol", { class: "history", reversed: true }, hands.map((hand, index) => historyItem(shown, hand, index, edit)).reverse())
        : h("p", { class: "muted" }, t("history.none")));
  }

  /** One line of the history. The hand's place in the list is its number: a record's own fields are
   *  only shown, and a record that cannot be read shows as such instead of breaking the screen. */
  function historyItem(shown, raw, index, edit) {
    const hand = raw && typeof raw === "object" ? { ...raw, index } : { index };
    let what;
    try {
      what = [h("b", {}, `${WIND_LETTER[hand.round_wind] || ""}${hand.hand_number ?? ""}${hand.honba ? "-" + hand.honba : ""} `), describeHand(hand, shown.players)];
    } catch {
      what = t("history.unreadable", { n: index + 1 });
    }
    const deltas = Array.isArray(hand.deltas) ? hand.deltas : [];
    return h("li", { "data-hand": String(index) },
      h("span", { class: "what" }, what),
      edit ? h("button", { type: "button", "aria-label": t("history.correct_label", { n: index + 1 }), onclick: () => recordSheet(hand) }, t("history.correct")) : null,
      h("div", { class: "deltas", "aria-label": t("history.deltas") }, deltas.map((d, i) => {
        const after = Array.isArray(hand.scores_after) ? hand.scores_after[i] : undefined;
        return h("span", { class: d > 0 ? "pos" : d < 0 ? "neg" : "", "data-total": String(after ?? "") },
          `${shown.players[i]} ${points(d, true)}`, h("br"), h("span", { class: "running" }, after === undefined ? "" : `= ${after}`));
      })));
  }

  function standingsCard(shown) {
    const st = shown.state.standings || [];
    const penalties = st.some((r) => r.penalty);
    const oka = st.some((r) => r.oka);
    // one unit throughout: thousands of points, one decimal (35.2, +15.0, +19.3)
    const k = (n, signed = true) => { const v = Math.abs(n / 1000).toFixed(1); return n > 0 ? (signed ? "+" : "") + v : n < 0 ? "−" + v : signed ? "±0.0" : v; };
    const cols = ["#", t("col.player"), t("col.score"), t("col.uma"), ...(oka ? [t("col.oka")] : []), ...(penalties ? [t("col.penalty")] : []), t("col.final")];
    return h("section", { class: "card", "aria-label": t("standings.title"), "data-testid": "standings" },
      h("h2", {}, t("standings.title")),
      h("table", { class: "standings" },
        h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, st.map((r) => h("tr", {}, h("td", { "data-label": "#" }, String(r.place)), h("td", { class: "who" }, shown.players[r.seat]), h("td", { "data-label": t("col.score") }, k(r.points, false)),
          h("td", { "data-label": t("col.uma") }, k(r.uma)), oka ? h("td", { "data-label": t("col.oka") }, k(r.oka)) : null, penalties ? h("td", { "data-label": t("col.penalty") }, r.penalty ? k(-r.penalty) : "±0.0") : null,
          h("td", { "data-label": t("col.final") }, h("b", {}, k(r.final * 1000))))))),
      h("p", { class: "small muted" }, t("standings.note"), t(oka ? (penalties ? "standings.formula_oka_pen" : "standings.formula_oka") : penalties ? "standings.formula_pen" : "standings.formula")));
  }

  /** Send a change; a stale version becomes a conflict the player decides on, offline it is queued. */
  async function send(method, path, payload, version, dialog) {
    const key = queue.requestKey();   // kept with the change if it is queued: sent again, it is made once
    try {
      const fresh = await api(method, path, payload, { headers: authHeaders(entry, version, key), timeout: ANSWER_MS });
      table = fresh;
      etag = `"${fresh.version}"`;
      entry = store.saveTable({ id: fresh.id, table: fresh, seen_at: Date.now() });
      if (dialog) dialog.close();
      render();
      toast(method === "DELETE" ? t("toast.undone") : method === "PUT" ? t("toast.corrected") : t("toast.recorded"));
      return true;
    } catch (err) {
      if (err instanceof OfflineError) {
        if (method === "DELETE") { toast(t("toast.undo_offline")); return false; }
        const before = store.queue().filter((q) => q.table === table.id && !q.conflict && !q.error);
        store.enqueue({ key, table: table.id, method, path, body: payload, version, after: before.length ? before[before.length - 1].key : null });
        if (dialog) dialog.close();
        toast(t("toast.queued"));
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
    const s = sheet(t("conflict.title"), { onclose: () => {
      if (decided || !payload) return;
      store.enqueue({ table: table.id, method, path, body: payload, version: table.version, conflict: { message: t("conflict.closed") } });
      render();
    } });
    const latest = table.hands && table.hands.length ? table.hands[table.hands.length - 1] : null;
    s.body.append(h("div", { class: "banner error", role: "alert", "data-testid": "conflict" },
      h("p", {}, t("conflict.another"), h("b", {}, t("conflict.not_saved"))),
      latest ? h("p", {}, t("conflict.latest"), describeHand(latest, table.players), t("conflict.stop")) : null,
      payload ? h("p", {}, t("conflict.yours"), describeRequest(payload, table.players), t("conflict.stop")) : h("p", {}, t("conflict.yours_undo"))),
      h("p", { class: "hint" }, t("conflict.hint")));
    s.foot.append(
      h("button", { type: "button", class: "btn-danger", "data-testid": "conflict-discard", onclick: () => { decided = true; s.close(); } }, t("conflict.discard_mine")),
      h("button", { type: "button", class: "btn-primary", "data-testid": "conflict-apply", onclick: async () => {
        decided = true;
        try { await send(method, path, payload, table.version, s); } catch (err) { decided = false; s.body.append(h("p", { class: "field-error", role: "alert" }, errorText(err))); }
      } }, method === "DELETE" ? t("conflict.undo_anyway") : t("conflict.record_too")));
  }

  /** Undo the last change: while changes wait on this phone, the newest of them is taken back here (it
   *  was never sent, so offline too), else the server's last hand is undone. */
  async function undo() {
    const { pending } = queuedFor(table.id);
    if (pending.length) {
      if (flushing) { toast(t("toast.undo_sending")); return; }   // it may be on its way: undo it once it is in
      const mine = pending[pending.length - 1];
      if (!confirm(`${t("history.unqueue_confirm")}\n${describeRequest(mine.body, table.players)}`)) return;   // modal: no flush starts meanwhile
      store.setQueue(queue.dropped(store.queue(), mine.key));
      render();
      toast(t("toast.unqueued"));
      return;
    }
    const last = table.hands[table.hands.length - 1];
    if (!last) return;
    if (!confirm(`${t("history.undo_confirm")}\n${describeHand(last, table.players)}`)) return;
    try { await send("DELETE", `/api/tables/${table.id}/hands/last`, undefined, table.version, null); } catch (err) { toast(errorText(err)); }
  }

  // --- the record sheet ---
  async function recordSheet(correcting = null, table = shownTable()) {
    const version = table.version;   // the state the player is looking at; a later change is a conflict
    const base = correcting || null;
    if (!rules) rules = await ruleValues(table.ruleset, table.rules).catch(() => ({}));
    const names = await yakuNames().catch(() => ({}));
    // offline with hands queued that the board could not include (no offline engine), the round of this hand
    // cannot be known without the ledger: the sheet says "the next hand" rather than name a wrong round
    const unknownRound = !correcting && pendingOf(table.id).length > 0 && (boardOf(table).info || {}).state !== "ready";
    const title = correcting ? t("history.correct_label", { n: correcting.index + 1 })
      : unknownRound ? t("rec.title_next") : t("rec.title", { round: roundName(table.state) });
    const s = sheet(title, { steady: true });  // its preview comes and goes as the sheet is filled in
    const players = table.players;
    const kinds = [["ron", t("result.ron")], ["tsumo", t("result.tsumo")], ["draw", t("result.draw")]];
    if ((rules.abortive_draws || []).length) kinds.push(["abort", t("result.abort")]);
    kinds.push(["chombo", t("result.chombo")]);
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
      const sent = w.value && typeof w.value === "object" && !w.value.hand ? w.value : null;
      f.values[w.seat] = sent ? { ...sent } : w.yakuman ? { yakuman: w.yakuman } : w.limit && (w.han === undefined || w.han === null) ? { limit: w.limit } : { han: w.han, fu: w.fu || 30 };
      if (w.pao_seat !== undefined && w.pao_seat !== null) f.pao[w.seat] = w.pao_seat;
    }
    const multi = (rules.max_ron_winners || 1) > 1;
    const errBox = h("div", { "aria-live": "assertive" });
    const content = h("div");
    const editors = {};

    const seatPicker = (name, value, onchange, exclude = null) => segmented(name, players.map((p, i) => [String(i), p, { disabled: i === exclude }]), value === null ? null : String(value), (v) => onchange(Number(v)), { legend: t(`rec.pick.${name}`) });
    // under rule sets where riichi needs points, a player without a stick's worth cannot declare
    const seatChips = (list, label) => h("div", { class: "toggles", role: "group", "aria-label": t(`rec.chips.${label}`) }, players.map((p, i) => chip(p, list.includes(i), (v) => {
      const k = list.indexOf(i);
      if (v && k < 0) list.push(i); else if (!v && k >= 0) list.splice(k, 1);
      list.sort();
    }, { "data-seat": String(i), name: label, disabled: label === "riichi" && rules.riichi_needs_points && table.state.scores[i] < (rules.riichi_stick || 1000) && !list.includes(i) })));

    function draw() {
      s.body.dispatchEvent(new Event("preview"));
      clear(content,
        segmented("result", kinds, f.result, (v) => { f.result = v; f.winners = f.result === "tsumo" ? f.winners.slice(0, 1) : f.winners; draw(); }, { legend: t("rec.what") }),
        ["ron", "tsumo", "draw", "abort"].includes(f.result) ? h("fieldset", {}, h("legend", {}, t("rec.riichi")), seatChips(f.riichi, "riichi")) : null,
        f.result === "ron" ? [
          h("fieldset", {}, h("legend", {}, t("rec.discarder")), seatPicker("from", f.from, (v) => { f.from = v; f.winners = f.winners.filter((w) => w !== v); draw(); })),
          h("fieldset", {}, h("legend", {}, multi ? t("rec.winners_up_to", { n: rules.max_ron_winners }) : t("rec.head_bump")),
            multi ? h("div", { class: "toggles" }, players.map((p, i) => chip(p, f.winners.includes(i), (v) => { f.winners = v ? [...f.winners, i].sort() : f.winners.filter((w) => w !== i); draw(); }, { disabled: i === f.from, name: "winner", "data-seat": String(i) })))
              : seatPicker("winner", f.winners[0] ?? null, (v) => { f.winners = [v]; draw(); }, f.from)),
          f.winners.map((seat) => valueBlock(seat, "ron"))] : null,
        f.result === "tsumo" ? [
          h("fieldset", {}, h("legend", {}, t("rec.winner")), seatPicker("winner", f.winners[0] ?? null, (v) => { f.winners = [v]; draw(); })),
          f.winners.slice(0, 1).map((seat) => valueBlock(seat, "tsumo"))] : null,
        f.result === "draw" ? [
          h("fieldset", {}, h("legend", {}, t("rec.tenpai")), seatChips(f.tenpai, "tenpai")),
          rules.nagashi_mangan ? h("fieldset", {}, h("legend", {}, t("rule.nagashi_mangan")), seatChips(f.nagashi, "nagashi")) : null] : null,
        f.result === "abort" ? h("fieldset", {}, h("legend", {}, t("rec.kind")), segmented("abort-kind", (rules.abortive_draws || []).map((k) => [k, ABORT_NAMES[k] || k]), f.kind, (v) => { f.kind = v; })) : null,
        f.result === "chombo" ? [h("fieldset", {}, h("legend", {}, t("rec.chombo_who")), seatPicker("chombo", f.chombo, (v) => { f.chombo = v; })),
          h("p", { class: "hint" }, rules.chombo === "mangan" ? t("rec.chombo_mangan") : t("rec.chombo_penalty", { n: rules.chombo_penalty || "" }))] : null,
        errBox);
    }

    function valueBlock(seat, win) {
      const v = f.values[seat] || (f.values[seat] = { han: 1, fu: 30 });
      const mode = v.hand ? "hand" : v.yakuman || v.limit || v.han >= 5 ? "limit" : "hanfu";
      const box = h("fieldset", { "data-value-for": String(seat) }, h("legend", {}, t("rec.value_of", { name: players[seat] })));
      const inner = h("div");
      const modes = segmented(`value-mode-${seat}`, [["hanfu", t("rec.hanfu")], ["limit", t("rec.limit")], ["hand", t("rec.enter_hand")]], mode, (m) => {
        if (m === "hanfu") f.values[seat] = { han: 1, fu: 30 };
        if (m === "limit") f.values[seat] = { limit: "mangan" };
        if (m === "hand") f.values[seat] = { hand: null };
        fill(m);
        paoBox();
      }, { legend: t("rec.how_value") });
      function fill(m) {
        const val = f.values[seat];
        if (m === "hanfu") {
          clear(inner, h("div", { class: "grid2" },
            h("label", { class: "field" }, h("span", {}, t("rec.han")), h("select", { name: `han-${seat}`, "data-testid": `han-${seat}`, onchange: (e) => { val.han = Number(e.target.value); } },
              [1, 2, 3, 4].map((n) => h("option", { value: n, selected: n === val.han }, String(n))))),
            h("label", { class: "field" }, h("span", {}, t("card.fu_title")), h("select", { name: `fu-${seat}`, "data-testid": `fu-${seat}`, onchange: (e) => { val.fu = Number(e.target.value); } },
              FU.map((n) => h("option", { value: n, selected: n === val.fu }, String(n)))))),
          h("p", { class: "hint" }, t("rec.five_han")));
        } else if (m === "limit") {
          const cur = val.yakuman ? `y${Math.min(val.yakuman, 2)}` : val.limit || limitOfHan(val.han || 5);
          if (!val.yakuman && !val.limit) f.values[seat] = { limit: cur };
          clear(inner, segmented(`limit-${seat}`, LIMITS.map(([k, key]) => [k, t(key)]), cur, (k) => { f.values[seat] = { ...LIMITS.find((l) => l[0] === k)[2] }; paoBox(); }, { legend: t("rec.limit") }));
        } else {
          clear(inner, handBlock(seat, win));
        }
      }
      fill(mode);
      box.append(modes, inner);
      const paoWhich = h("div", { "data-testid": `pao-which-${seat}` });
      /** Where the liability covers only the yakuman it is for (rules.pao_scope "yakuman"), a hand of
       *  several yakuman must say how many of them that is: asked whenever it matters. */
      function paoBox() {
        const val = f.values[seat] || {};
        if (rules.pao_scope !== "yakuman" || f.pao[seat] === null || f.pao[seat] === undefined || !(val.yakuman > 1)) {
          if (val.pao_yakuman !== undefined) delete val.pao_yakuman;
          clear(paoWhich);
          return;
        }
        const options = Array.from({ length: val.yakuman }, (_, i) => [String(i + 1), t(i === 0 ? "rec.pao_units_one" : "rec.pao_units", { n: i + 1 })]);
        clear(paoWhich, segmented(`pao-yakuman-${seat}`, options, val.pao_yakuman ? String(val.pao_yakuman) : null,
          (v) => { f.values[seat].pao_yakuman = Number(v); }, { legend: t("rec.pao_which", { n: val.yakuman }) }));
      }
      if ((rules.pao_yaku || []).length) {
        box.append(h("label", { class: "field" }, h("span", { class: "small" }, t("rec.pao", { yaku: rules.pao_yaku.map((y) => ITEM_NAMES[y] || y.replace(/_/g, " ")).join(t("list.sep")) })),
          h("select", { name: `pao-${seat}`, onchange: (e) => { f.pao[seat] = e.target.value === "" ? null : Number(e.target.value); paoBox(); } },
            h("option", { value: "" }, t("rec.nobody")), players.map((p, i) => i === seat ? null : h("option", { value: i, selected: f.pao[seat] === i }, p)))),
          paoWhich);
        paoBox();
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
        clear(out, h("p", { class: "banner info" }, t("photo.reading")));
        try {
          const { blob } = await downscale(file);
          const form = new FormData();
          form.append("image", blob, "photo.jpg");
          const res = await api("POST", "/api/recognize", form);
          Object.assign(hs.state, handFromDetections(res, res.tiles.map((d, i) => ({ tile: d.tile, ignored: d.face_down || d.tile === "back" || ((res.proposal && res.proposal.extra) || []).includes(i) })), null));
          editor.render();
          clear(out, h("p", { class: "banner info" }, t("rec.photo_read")));
        } catch (err) {
          clear(out, h("p", { class: "banner error", role: "alert" }, err instanceof ApiError && [404, 501, 503].includes(err.status) ? t("photo.unavailable") : err.message));
        }
      });
      const check = async () => {
        /** @type {Record<string, any>} the score request, JSON */
        const req = { ...cond.request(), ...editor.request(), rules: table.rules || {} };
        try {
          // offline, the same engine on the phone (Pyodide), when the player made scoring work offline
          const r = await api("POST", "/api/score", req).catch((err) => (err instanceof OfflineError ? scoreOffline(req) : Promise.reject(err)));
          const { seat_wind, round_wind, honba, riichi_sticks, compare, ...handReq } = req;  // the table fills these in
          f.values[seat] = { hand: handReq };
          out.dispatchEvent(new Event("preview", { bubbles: true }));
          clear(out, h("p", { class: "banner info", "data-testid": `hand-value-${seat}` }, `${summary(r)} — `, (r.yaku || []).map((y) => yakuName(y, names)).join(t("list.sep"))));
        } catch (err) {
          f.values[seat] = { hand: null };
          placeError(err, [editor, cond], out);
        }
      };
      return h("div", {}, editor.el, cond.el,
        h("div", { class: "row" },
          h("label", { for: `photo-${seat}`, class: "btn", role: "button", tabindex: "0" }, t("rec.from_photo")), photoInput,
          h("button", { type: "button", class: "btn-primary", "data-testid": `check-hand-${seat}`, onclick: check }, t("rec.check"))),
        out);
    }

    function payload() {
      const val = (seat) => {
        const v = f.values[seat] || {};
        if ("hand" in v) { if (!v.hand) throw new Error(t("rec.check_first", { name: players[seat] })); return { hand: v.hand }; }
        if (v.yakuman) return v.pao_yakuman ? { yakuman: v.yakuman, pao_yakuman: v.pao_yakuman } : { yakuman: v.yakuman };
        return v.limit ? { limit: v.limit } : { han: v.han, fu: v.fu };
      };
      switch (f.result) {
        case "ron":
          if (f.from === null) throw new Error(t("rec.choose_from"));
          if (!f.winners.length) throw new Error(t("rec.choose_winner"));
          return { result: "ron", from_seat: f.from, winners: f.winners.map((seat) => ({ seat, value: val(seat), pao_seat: f.pao[seat] ?? null })), riichi: f.riichi };
        case "tsumo":
          if (!f.winners.length) throw new Error(t("rec.choose_winner"));
          return { result: "tsumo", winner: { seat: f.winners[0], value: val(f.winners[0]), pao_seat: f.pao[f.winners[0]] ?? null }, riichi: f.riichi };
        case "draw": return { result: "draw", tenpai: f.tenpai, riichi: f.riichi, nagashi: f.nagashi };
        case "abort": return { result: "abort", kind: f.kind, riichi: f.riichi };
        case "chombo":
          if (f.chombo === null) throw new Error(t("rec.choose_chombo"));
          return { result: "chombo", seat: f.chombo };
        default: throw new Error(t("rec.choose_what"));
      }
    }

    /** "winners[1].value.hand" -> "Bob's hand". */
    function fieldLabel(field) {
      const m = field.match(/^winners\[(\d+)\]/);
      if (m && f.winners[Number(m[1])] !== undefined) return t("rec.hand_of", { name: players[f.winners[Number(m[1])]] });
      if (field.startsWith("winner")) return f.winners.length ? t("rec.hand_of", { name: players[f.winners[0]] }) : t("rec.winner");
      return "";   // the sentence says what is wrong; a field's raw name is no words for a player
    }
    /** A refusal as the player reads it: the catalogue's sentence, after whose hand it is about. */
    const refusedText = (err, text) => { const label = err.field ? fieldLabel(err.field) : ""; return label ? `${label}: ${text}` : text; };

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
        // said once, beside Record: the preview's copy of the same refusal goes
        previewSeq += 1; busy(false); clear(footSummary); clear(previewBox);
        clear(errBox, h("p", { class: "field-error", role: "alert", "data-field": err.field || "" }, refusedText(err, errorText(err))));
      } finally {
        save.disabled = false;
      }
    } }, correcting ? t("rec.save_correction") : t("rec.record"));
    s.foot.append(h("button", { type: "button", onclick: () => s.close() }, t("rec.cancel")), save);
    // who pays what, worked out by the server's ledger from the sheet as it is now (nothing stored)
    const previewBox = h("section", { class: "preview", "aria-label": t("pay.title"), "aria-live": "polite", "data-testid": "preview" });
    const footSummary = h("div", { class: "deltas foot-summary", "aria-label": t("pay.deltas"), "data-testid": "preview-summary" });
    s.foot.prepend(footSummary);
    let previewSeq = 0, previewTimer = null;
    let sheetOpen = true;
    // aria-busy says a newer preview is on its way, so nobody (reader or test) takes the last one for it
    const busy = (on) => previewBox.setAttribute("aria-busy", on ? "true" : "false");
    const settled = (seq) => { if (seq === previewSeq) busy(false); };
    const schedulePreview = () => { if (sheetOpen) { busy(true); clearTimeout(previewTimer); previewTimer = setTimeout(refreshPreview, 120); } };
    // once the sheet is closed (recorded, or cancelled), no preview is asked for any more
    s.dialog.addEventListener("close", () => { sheetOpen = false; clearTimeout(previewTimer); previewSeq += 1; });
    async function refreshPreview() {
      if (!sheetOpen) return;
      const seq = ++previewSeq;
      busy(true);
      let body;
      try { body = payload(); } catch (err) { clear(footSummary); clear(previewBox, h("p", { class: "hint" }, `${t("rec.preview_here")} ${err.message}`)); settled(seq); return; }
      const path = `/api/tables/${table.id}/preview${correcting ? `?index=${correcting.index}` : ""}`;
      try {
        const res = await api("POST", path, body, { headers: { Authorization: `Bearer ${entry.edit_token}` } });
        if (seq !== previewSeq) return;
        clear(previewBox, previewLines(res, players));
        // the points each player gains or loses stay in view beside Record
        clear(footSummary, res.hand.deltas.map((d, i) => h("span", { class: d > 0 ? "pos" : d < 0 ? "neg" : "" }, `${players[i]} ${points(d, true)}`)));
        settled(seq);
      } catch (err) {
        if (seq !== previewSeq) return;
        clear(footSummary);
        clear(previewBox, err instanceof OfflineError ? h("p", { class: "hint" }, t("rec.preview_offline"))
          : h("p", { class: "field-error", role: "alert", "data-state": "refused" }, refusedText(err, errorText(err))));
        if (err instanceof OfflineError) offlinePreview(seq, body).finally(() => settled(seq));
        else settled(seq);
      }
    }
    // offline, who pays what comes from the same ledger run on the phone, after the hands not yet sent
    async function offlinePreview(seq, body) {
      const res = await previewOf(table.id, correcting ? { op: "replace", index: correcting.index, body } : { op: "add", body });
      if (!res || seq !== previewSeq || !sheetOpen) return;
      if (res.error) { clear(previewBox, h("p", { class: "field-error", role: "alert", "data-state": "refused" }, refusedText(res.error, reasonText(res.error, players)))); return; }
      clear(previewBox, previewLines(res, players), previewNote());
      clear(footSummary, res.hand.deltas.map((d, i) => h("span", { class: d > 0 ? "pos" : d < 0 ? "neg" : "" }, `${players[i]} ${points(d, true)}`)));
    }
    s.body.addEventListener("change", schedulePreview);
    s.body.addEventListener("preview", schedulePreview);
    draw();
    s.body.append(content, previewBox);
    refreshPreview();
  }


  function shareSheet() {
    const s = sheet(t("share_table.title"));
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
          h("button", { type: "button", onclick: async () => { try { await navigator.clipboard.writeText(link); toast(t("share_table.copied")); } catch { toast(t("share_table.copy_by_hand")); } } }, t("share_table.copy")),
          navigator.share ? h("button", { type: "button", onclick: () => navigator.share({ title: t("share_table.share_title"), url: link }).catch(() => {}) }, t("share_table.share")) : null),
        h("p", { class: "hint" }, which === "edit" ? t("share_table.edit_hint") : t("share_table.watch_hint")));
    };
    s.body.append(h("p", {}, t("share_table.code"), h("b", { "data-testid": "share-code" }, table.share_code)),
      editLink ? segmented("share-kind", [["edit", t("share_table.players")], ["watch", t("share_table.spectators")]], "edit", pick, { legend: t("share_table.link_for") }) : null,
      show);
    pick(editLink ? "edit" : "watch");
  }

  clear(view, body);
  const drawn = Boolean(table);
  if (table) render(); else clear(body, h("p", { class: "card" }, t("table.loading")));
  let changed = true;
  try {
    changed = await load();
  } catch (err) {
    if (!table) { clear(body, h("div", { class: "banner error", role: "alert" }, errorText(err))); }
    else changed = false;
  }
  // a link with another edit token never replaces the one this phone has: the player chooses
  if (token && entry && entry.edit_token && entry.edit_token !== token) tokenChoice = token;
  if (token && location.hash.includes("token=")) history.replaceState(null, "", `#/table/${table ? table.id : key}`);
  // the board drawn from this phone's copy is drawn again only if the server's differs, and not
  // under a finger: a button replaced between a finger's down and up never gets the tap
  if (changed || !drawn || token) pressed.soon(render);
  flushQueue();
  timer = setTimeout(tick, POLL_MS);
  // back to the app after the phone slept: fetch at once rather than at the next tick
  const wake = () => { if (document.visibilityState === "visible") { clearTimeout(timer); tick(); } };
  document.addEventListener("visibilitychange", wake);
  return () => { stopped = true; clearTimeout(timer); pressed.stop(); listeners.delete(rerender); document.removeEventListener("visibilitychange", wake); };
}
