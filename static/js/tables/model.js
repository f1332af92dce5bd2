// @ts-check
// The table screen's model, DOM-free: a table's JSON and this phone's view of it (its seat, the
// seat tapped, the hands queued) in, what the board shows out: each seat's place, score and
// difference, the sticks, the hands in words, what a player may do next. tables.js draws it.
import { t, ABORT_NAMES } from "../core/i18n.js";
import { WIND_NAME } from "../core/tiles.js";
import * as store from "../core/store.js";

/** @typedef {Record<string, any>} Json  a table's JSON (GET /api/tables/<id>), or a part of it */

// a limit entered as a limit is sent as one ({limit: "mangan"}): the table records no han or fu nobody entered
/** @type {Array<[string, string, {limit: string}|{yakuman: number}]>} */
export const LIMITS = [["mangan", "limit.mangan", { limit: "mangan" }], ["haneman", "limit.haneman", { limit: "haneman" }], ["baiman", "limit.baiman", { limit: "baiman" }],
  ["sanbaiman", "limit.sanbaiman", { limit: "sanbaiman" }], ["y1", "limit.yakuman", { yakuman: 1 }], ["y2", "limit.2", { yakuman: 2 }]];
/** The limit a han count entered before limits were sent as limits reaches (5 -> mangan ...). */
export const limitOfHan = (/** @type {number} */ han) => (han >= 11 ? "sanbaiman" : han >= 8 ? "baiman" : han >= 6 ? "haneman" : "mangan");
export const FU = [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110];


export const roundName = (/** @type {Json} */ s) => t("table.round", { wind: WIND_NAME[s.round_wind] || s.round_wind, n: s.hand_number });
/** The headers of a change to a table: its edit token, the version it was made on, and the change's
 * own key (queue.js), the same each time the change is sent.
 * @param {{edit_token?: string|null}} entry @param {number} version @param {string} [key] @returns {Record<string, string>} */
export const authHeaders = (entry, version, key) => ({ Authorization: `Bearer ${entry.edit_token}`, "If-Match": `"${version}"`, ...(key ? { "Idempotency-Key": key } : {}) });

/** A recorded hand in words. */
/** @param {Json} hand @param {string[]} players @returns {string} */
export function describeHand(hand, players) {
  const n = (/** @type {number} */ s) => players[s] || t("table.seat_n", { n: s });
  // a record stored before the server checked every field may hold anything: read it defensively
  /** @type {(v: unknown) => any[]} */
  const seats = (v) => (Array.isArray(v) ? v : []);
  const val = (/** @type {Json} */ w) => (w.yakuman ? (w.yakuman > 1 ? t("limit.multi", { n: w.yakuman }) : t("limit.yakuman"))
    : w.limit && (w.han === undefined || w.han === null) ? t(`limit.${w.limit}`, {}, w.limit)   // entered as a limit: no han to show
      : w.limit ? `${t(`limit.${w.limit}`, {}, w.limit)} (${t("card.han", { n: w.han })})` : t("card.hanfu", { han: w.han, fu: w.fu })) + (w.points ? `${t("list.sep")}${w.points}` : "");
  const names = (/** @type {unknown} */ list) => seats(list).map(n).join(t("list.sep"));
  const riichi = seats(hand.riichi).length ? t("desc.riichi", { names: names(hand.riichi) }) : "";
  const winners = seats(hand.winners).filter((w) => w && typeof w === "object");
  switch (hand.result) {
    case "ron": return t("desc.ron", { winners: winners.map((w) => t("desc.winner", { name: n(w.seat), value: val(w) })).join(t("desc.and")), from: n(hand.from_seat) }) + riichi;
    case "tsumo": { const w = winners[0] || (hand.winner && typeof hand.winner === "object" ? hand.winner : {}); return t("desc.tsumo", { winner: t("desc.winner", { name: n(w.seat), value: val(w) }) }) + riichi; }
    case "draw": return t("desc.draw", { tenpai: seats(hand.tenpai).length ? t("desc.tenpai", { names: names(hand.tenpai) }) : t("desc.all_noten") })
      + (seats(hand.nagashi).length ? t("desc.nagashi", { names: names(hand.nagashi) }) : "") + riichi;
    case "abort": return t("desc.abort", { kind: ABORT_NAMES[hand.kind] || hand.kind }) + riichi;
    case "chombo": return t("desc.chombo", { name: n(hand.seat) });
    case "end": return t("desc.end");
    default: return String(hand.result);
  }
}

/** A hand request (not yet recorded) in words. */
/** @param {Json} body @param {string[]} players @returns {string} */
export function describeRequest(body, players) {
  const v = (/** @type {Json} */ value) => (value.hand ? t("desc.scored_hand") : value.yakuman ? t("limit.multi", { n: value.yakuman }) : value.limit ? t(`limit.${value.limit}`, {}, value.limit) : value.han < 5 ? t("card.hanfu", { han: value.han, fu: value.fu }) : t("card.han", { n: value.han }));
  if (body.result === "ron") return t("desc.ron", { winners: body.winners.map((/** @type {Json} */ w) => t("desc.winner", { name: players[w.seat], value: v(w.value) })).join(t("desc.and")), from: players[body.from_seat] });
  if (body.result === "tsumo") return t("desc.tsumo", { winner: t("desc.winner", { name: players[body.winner.seat], value: v(body.winner.value) }) });
  return describeHand(body, players);
}

/** What a payment is for, in words: the ledger's reasons are stable strings. */
/** @type {Record<string, string>} */
const PAY_KEYS = { hand: "hand", honba: "honba", riichi: "riichi", "riichi sticks": "sticks", "own riichi stick back": "own_stick",
  "hand (liability)": "hand_pao", "honba (liability)": "honba_pao", "nagashi mangan": "nagashi", "noten payment": "noten", chombo: "chombo" };
export const payFor = (/** @type {string} */ reason) => (PAY_KEYS[reason] ? t(`pay.${PAY_KEYS[reason]}`) : reason);

/** Where each seat sits on the board seen from `viewSeat`, counter-clockwise from the bottom. */
export const POSITIONS = ["bottom", "right", "top", "left"];

/**
 * The four seats as the board shows them: each one's place seen from this phone's seat, its score
 * (at the end, the final standings', which hold a leftover stick first place took), whether it
 * deals, and with a seat tapped, its difference to that seat.
 * @param {Json} state the table's state
 * @param {{viewSeat?: number, selected?: number|null}} view
 * @returns {Array<{seat: number, pos: string, score: number, dealer: boolean, selected: boolean, diff: number|null}>}
 */
export function boardSeats(state, { viewSeat = 0, selected = null }) {
  const final = state.finished && Array.isArray(state.standings) && state.standings.length === 4
    ? Object.fromEntries(state.standings.map((/** @type {Json} */ r) => [r.seat, r.points])) : null;
  /** @param {number} seat @returns {number} */
  const scoreOf = (seat) => (final ? final[seat] : state.scores[seat]);
  return [0, 1, 2, 3].map((seat) => ({
    seat,
    pos: POSITIONS[(seat - viewSeat + 4) % 4],
    score: scoreOf(seat),
    dealer: state.dealer === seat,
    selected: selected === seat,
    diff: selected !== null && selected !== seat ? scoreOf(seat) - scoreOf(selected) : null,
  }));
}

/**
 * The riichi sticks on the table in words; at the end, where the ones left over went (the rule
 * set's leftover_sticks: to first place, lost, or left on the table).
 * @param {Json} state @param {string[]} players @returns {string}
 */
export function sticksText(state, players) {
  const n = state.riichi_sticks;
  const plain = t(n === 1 ? "board.stick" : "board.sticks", { n });
  const left = state.leftover_sticks;
  if (!state.finished || !n || !left) return plain;
  if (left.rule === "first" && (left.to || []).length) {
    return t(n === 1 ? "board.stick_to" : "board.sticks_to", { n, names: left.to.map((/** @type {number} */ seat) => players[seat]).join(t("list.sep")) });
  }
  return t(left.rule === "lost" ? (n === 1 ? "board.stick_lost" : "board.sticks_lost") : (n === 1 ? "board.stick_left" : "board.sticks_left"), { n });
}

/** Point penalties kept off the table until the end (a WRR chombo, a referee's penalty), as
 * [seat, points] for each seat that owes some; none once the game is over.
 * @param {Json} state @returns {Array<[number, number]>} */
export function duePenalties(state) {
  if (state.finished) return [];
  return (state.penalties || []).map((/** @type {number} */ p, /** @type {number} */ seat) => /** @type {[number, number]} */ ([seat, p])).filter((/** @type {[number, number]} */ [, p]) => p > 0);
}

/** This phone's queued hands for a table: those still to send, and those the player must look at
 * (a conflict with a hand recorded meanwhile, or a refusal).
 * @param {string} tableId @returns {{pending: store.QueueItem[], conflicts: store.QueueItem[]}} */
export function queuedFor(tableId) {
  const queue = store.queue().filter((q) => q.table === tableId);
  return { pending: queue.filter((q) => !q.conflict && !q.error), conflicts: queue.filter((q) => q.conflict || q.error) };
}

/**
 * What a player may do at this table now: record a hand or end the game while it runs (with the
 * edit token); once it is over, open the next game when there is one, else start it, which at an
 * event only its organiser may do.
 * @param {Json} table
 * @param {{edit: boolean, organiser: boolean}} who
 * @returns {{record: boolean, openNext: boolean, nextGame: boolean, nextByOrganiser: boolean}}
 */
export function nextSteps(table, { edit, organiser }) {
  const over = Boolean(table.state.finished);
  return {
    record: edit && !over,
    openNext: over && Boolean(table.next_table),
    nextGame: over && !table.next_table && edit && (!table.event || organiser),
    nextByOrganiser: over && !table.next_table && edit && Boolean(table.event) && !organiser,
  };
}
