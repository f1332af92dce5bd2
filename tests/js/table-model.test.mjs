import "./browser-globals.mjs";
import { before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import * as store from "../../static/js/core/store.js";
import { loadLanguage } from "../../static/js/core/i18n.js";
import { boardSeats, describeHand, describeRequest, duePenalties, limitOfHan, nextSteps, payFor, queuedFor, sticksText } from "../../static/js/tables/model.js";

before(() => loadLanguage("en"));
beforeEach(() => localStorage.clear());

const PLAYERS = ["Ann", "Bo", "Cy", "Di"];
const state = (extra = {}) => ({ scores: [25000, 31000, 19000, 25000], dealer: 1, finished: false, riichi_sticks: 0, honba: 0, ...extra });

test("the board is seen from this phone's seat: it sits at the bottom, the next seat on the right", () => {
  assert.deepEqual(boardSeats(state(), { viewSeat: 0 }).map((s) => s.pos), ["bottom", "right", "top", "left"]);
  assert.deepEqual(boardSeats(state(), { viewSeat: 2 }).map((s) => s.pos), ["top", "left", "bottom", "right"]);
  assert.deepEqual(boardSeats(state(), {}).map((s) => s.dealer), [false, true, false, false]);
});

test("a tapped seat shows every other seat's difference to it", () => {
  const seats = boardSeats(state(), { viewSeat: 0, selected: 1 });
  assert.deepEqual(seats.map((s) => s.diff), [-6000, null, -12000, -6000]);
  assert.deepEqual(seats.map((s) => s.selected), [false, true, false, false]);
  assert.deepEqual(boardSeats(state(), { viewSeat: 0, selected: null }).map((s) => s.diff), [null, null, null, null]);
});

test("at the end the board shows the final standings' points (a leftover stick first place took)", () => {
  const over = state({ finished: true, standings: [{ seat: 1, points: 32000 }, { seat: 0, points: 25000 }, { seat: 3, points: 25000 }, { seat: 2, points: 18000 }] });
  assert.deepEqual(boardSeats(over, {}).map((s) => s.score), [25000, 32000, 18000, 25000]);
  assert.deepEqual(boardSeats(state({ finished: true }), {}).map((s) => s.score), [25000, 31000, 19000, 25000], "no standings: the scores");
});

test("the sticks in words, and at the end where the leftover ones went", () => {
  assert.equal(sticksText(state({ riichi_sticks: 1 }), PLAYERS), "1 riichi stick");
  assert.equal(sticksText(state({ riichi_sticks: 2 }), PLAYERS), "2 riichi sticks");
  const first = sticksText(state({ riichi_sticks: 2, finished: true, leftover_sticks: { rule: "first", to: [1] } }), PLAYERS);
  assert.match(first, /Bo/);
  assert.notEqual(sticksText(state({ riichi_sticks: 2, finished: true, leftover_sticks: { rule: "lost" } }), PLAYERS), "2 riichi sticks");
});

test("penalties owed are listed while the game runs, none once it is over", () => {
  assert.deepEqual(duePenalties(state({ penalties: [0, 20000, 0, 8000] })), [[1, 20000], [3, 8000]]);
  assert.deepEqual(duePenalties(state({ penalties: [0, 20000, 0, 0], finished: true })), []);
  assert.deepEqual(duePenalties(state()), []);
});

test("recorded hands in words, a malformed old record without failing", () => {
  assert.equal(describeHand({ result: "ron", winners: [{ seat: 0, han: 3, fu: 30 }], from_seat: 2 }, PLAYERS), "Ron: Ann (3 han 30 fu) from Cy");
  assert.equal(describeHand({ result: "tsumo", winners: [{ seat: 1, yakuman: 2 }], riichi: [1] }, PLAYERS), "Tsumo: Bo (2× yakuman) · riichi: Bo");
  assert.match(describeHand({ result: "draw", tenpai: [0, 3] }, PLAYERS), /Ann.*Di/);
  assert.equal(describeHand({ result: "abort", kind: "four_winds" }, PLAYERS), "Abortive draw: Four winds (suufon renda)");
  assert.equal(describeHand({ result: "abort", kind: "new_kind" }, PLAYERS), "Abortive draw: new_kind", "a kind the catalogue lacks: its id");
  assert.match(describeHand({ result: "chombo", seat: 3 }, PLAYERS), /Di/);
  assert.equal(typeof describeHand({ result: "ron", winners: "junk", from_seat: 9 }, PLAYERS), "string");
});

test("a queued hand request in words: a limit entered as a limit, a hand scored from tiles", () => {
  assert.equal(describeRequest({ result: "ron", winners: [{ seat: 0, value: { limit: "mangan" } }], from_seat: 1 }, PLAYERS), "Ron: Ann (Mangan) from Bo");
  assert.equal(describeRequest({ result: "tsumo", winner: { seat: 2, value: { hand: "123m" } } }, PLAYERS), "Tsumo: Cy (scored hand)");
});

test("old records' han counts reach the limits the rules give them", () => {
  assert.deepEqual([5, 6, 7, 8, 10, 11, 13].map(limitOfHan), ["mangan", "haneman", "haneman", "baiman", "baiman", "sanbaiman", "sanbaiman"]);
});

test("a payment's reason is worded from the ledger's stable string; an unknown one is kept", () => {
  assert.equal(payFor("hand (liability)"), "for the hand (liability)");
  assert.equal(payFor("something new"), "something new");
});

test("a table's queued hands: the ones to send apart from the ones the player must look at", () => {
  store.enqueue({ table: "t1", method: "POST", path: "/a", body: { n: 1 } });
  store.enqueue({ table: "t1", method: "POST", path: "/a", body: { n: 2 }, conflict: { message: "x" } });
  store.enqueue({ table: "t1", method: "POST", path: "/a", body: { n: 3 }, error: "refused" });
  store.enqueue({ table: "t2", method: "POST", path: "/a", body: { n: 4 } });
  const { pending, conflicts } = queuedFor("t1");
  assert.deepEqual(pending.map((q) => q.body.n), [1]);
  assert.deepEqual(conflicts.map((q) => q.body.n), [2, 3]);
});

test("what comes next: record while the game runs; at the end open the next game, or start it (an event's organiser only)", () => {
  const running = { state: { finished: false } };
  assert.deepEqual(nextSteps(running, { edit: true, organiser: false }), { record: true, openNext: false, nextGame: false, nextByOrganiser: false });
  assert.equal(nextSteps(running, { edit: false, organiser: false }).record, false, "a watcher records nothing");
  const over = { state: { finished: true } };
  assert.deepEqual(nextSteps(over, { edit: true, organiser: false }), { record: false, openNext: false, nextGame: true, nextByOrganiser: false });
  assert.equal(nextSteps({ ...over, next_table: "n1" }, { edit: false, organiser: false }).openNext, true);
  const atEvent = { ...over, event: { id: 3 } };
  assert.deepEqual(nextSteps(atEvent, { edit: true, organiser: false }), { record: false, openNext: false, nextGame: false, nextByOrganiser: true });
  assert.equal(nextSteps(atEvent, { edit: true, organiser: true }).nextGame, true);
});
