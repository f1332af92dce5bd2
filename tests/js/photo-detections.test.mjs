import "./browser-globals.mjs";
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { loadLanguage } from "../../static/js/core/i18n.js";
import { completingTiles, handFromDetections, initialDets, leaveOutChoices, misreadChoices, oneOver, oneShort, readingOrder, shapeProblem } from "../../static/js/photo/detections.js";

before(() => loadLanguage("en"));

const TILES = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "back", "7z", "7z", "7z"];
const answer = () => ({
  tiles: TILES.map((tile, i) => ({ tile, box: [i * 10, 0, i * 10 + 9, 12], face_down: tile === "back" })),
  rows: [[...Array(12).keys()], [12, 13, 14]],
  proposal: { hand: "123m456p789s11z", melds: [{ type: "pon", tiles: "777z" }], win_tile: "1z", extra: [] },
});

test("the corrected detections make the hand, the proposal's meld kept where its row holds it", () => {
  const res = answer();
  const dets = initialDets(res);
  dets[0].tile = "4m";                       // the player corrected the first tile
  const hand = handFromDetections(res, dets, 5);   // and marked 6p as the winning tile
  assert.deepEqual(hand.concealed, ["4m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z"]);
  assert.deepEqual(hand.melds, [{ type: "pon", tiles: ["7z", "7z", "7z"] }]);
  assert.equal(hand.concealed[hand.winIndex], "6p");
  assert.equal(hand.winInMeld, false);
  assert.equal(shapeProblem(hand), null);
});

test("with no tile marked the proposal's winning tile is the last copy of it", () => {
  const res = answer();
  const hand = handFromDetections(res, initialDets(res), null);
  assert.equal(hand.winIndex, 10);
});

test("a winning tile marked inside a called meld is refused before the engine sees it", () => {
  const res = answer();
  const hand = handFromDetections(res, initialDets(res), 13);
  assert.equal(hand.winInMeld, true);
  assert.match(shapeProblem(hand), /meld/i);
});

test("a tile the player added goes after the detection it was added after", () => {
  const res = answer();
  const dets = initialDets(res);
  dets[10].ignored = true;                    // one 1z left out...
  const hand = handFromDetections(res, dets, null, [{ tile: "2z", after: 2 }]);   // ...and a 2z added after 3m
  assert.deepEqual(hand.concealed.slice(0, 5), ["1m", "2m", "3m", "2z", "4p"]);
});

test("a hand of the wrong size says how many tiles it has and needs", () => {
  const res = answer();
  const dets = initialDets(res);
  dets[0].ignored = true;
  const problem = shapeProblem(handFromDetections(res, dets, null));
  assert.match(problem, /13/);
  assert.match(problem, /14/);
});

test("at first a face-down tile and the proposal's extra tiles are left out", () => {
  const res = answer();
  res.proposal.extra = [3];
  const dets = initialDets(res);
  assert.deepEqual(dets.map((d, i) => [i, d.ignored]).filter(([, ignored]) => ignored).map(([i]) => i), [3, 11]);
  assert.equal(dets[3].extra, true);
});

test("without rows the detections read top to bottom, then left to right", () => {
  const res = { tiles: [{ tile: "1m", box: [50, 40, 60, 50] }, { tile: "2m", box: [0, 40, 10, 50] }, { tile: "3m", box: [90, 0, 99, 10] }] };
  assert.deepEqual(readingOrder(res), [2, 1, 0]);
});

test("a hand one tile short is offered the tiles its others wait on, but never a fifth copy", () => {
  const res = answer();
  const dets = initialDets(res);
  assert.equal(oneShort(handFromDetections(res, dets, null)), false);
  dets[0].ignored = true;
  assert.equal(oneShort(handFromDetections(res, dets, null)), true);
  dets[1].ignored = true;   // two short: which two is not the engine's to say
  assert.equal(oneShort(handFromDetections(res, dets, null)), false);
  // POST /api/waits for 1111m234p567s999p: 1m is held four times (all_held), so only 5m can have been missed
  const waits = { tenpai: true, furiten: false, waits: [
    { tile: "1m", ron: null, tsumo: null, reason: "all four are in the hand", reason_id: "all_held" },
    { tile: "5m", ron: { total: 1000 }, tsumo: null }, { tile: "5m", ron: null, tsumo: null }] };
  assert.deepEqual(completingTiles(waits), ["5m"]);
  assert.deepEqual(completingTiles({ tenpai: false, furiten: false, waits: [] }), []);
});

test("a tile added where the photo missed it keeps the proposal's winning tile, unless added as the winning one", () => {
  const res = answer();
  const dets = initialDets(res);
  dets[4].ignored = true;                     // the 5p left out, then added back in its gap
  const plus = handFromDetections(res, dets, null, [{ tile: "5p", after: 3 }]);
  assert.equal(plus.concealed[plus.winIndex], "1z");   // the proposal's, not the tile added
  const offered = handFromDetections(res, dets, null, [{ tile: "5p", after: 10, win: true }]);
  assert.equal(offered.winIndex, offered.concealed.length - 1);
  assert.equal(offered.concealed[offered.winIndex], "5p");
  const marked = handFromDetections(res, dets, 5, [{ tile: "5p", after: 10, win: true }]);   // the player marked 6p
  assert.equal(marked.concealed[marked.winIndex], "6p");
});

test("a hand one tile over offers each tile read once, the least sure copy, never one added or marked winning", () => {
  const res = answer();
  res.tiles.splice(9, 0, { tile: "1z", box: [95, 0, 99, 12], face_down: false });   // a third 1z read beside the row
  res.rows = [[...Array(13).keys()], [13, 14, 15]];
  res.tiles.forEach((d, i) => { d.confidence = i === 10 ? 0.6 : 0.95; });    // the second 1z read least surely
  const dets = initialDets(res);
  const hand = handFromDetections(res, dets, null);
  assert.equal(oneShort(hand), false);
  assert.equal(oneOver(hand), true);
  const choices = leaveOutChoices(hand, res, null);
  // the least sure first, then in the row's order
  assert.deepEqual(choices.map((c) => c.tile), ["1z", "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s"]);
  const z = choices.find((c) => c.tile === "1z");
  assert.equal(z.det, 10);
  assert.equal(hand.concealed[z.index], "1z");
  // the player marked the unsure 1z as the winning tile: another copy is offered; a tile the player added is never
  const marked = leaveOutChoices(handFromDetections(res, dets, 10), res, 10).find((c) => c.tile === "1z");
  assert.notEqual(marked.det, 10);
  dets[0].ignored = true;
  const added = handFromDetections(res, dets, null, [{ tile: "4m", after: -1 }]);
  assert.equal(oneOver(added), true);
  assert.equal(leaveOutChoices(added, res, null).some((c) => c.tile === "4m"), false);
  assert.equal(oneOver(handFromDetections(res, dets, null)), false);   // the 1m left out: fourteen, nothing to offer
  // a fourth 1z instead of the 9s: four of a tile in the row are a kan to declare, never a tile to leave out
  dets[0].ignored = false;
  dets[8].tile = "1z";
  const kan = handFromDetections(res, dets, null);
  assert.equal(oneOver(kan), true);
  assert.equal(leaveOutChoices(kan, res, null).some((c) => c.tile === "1z"), false);
});

test("a hand of fourteen that does not win asks about each tile the classifier also took for another, the least sure first", () => {
  const res = answer();
  res.tiles.forEach((d) => { d.confidence = 0.97; d.alternatives = [{ tile: "back", confidence: 0.01 }]; });
  res.tiles[3] = { ...res.tiles[3], tile: "3z", confidence: 0.55, alternatives: [{ tile: "4m", confidence: 0.4 }, { tile: "3z", confidence: 0.02 }] };
  res.tiles[4] = { ...res.tiles[4], tile: "0p", confidence: 0.8, alternatives: [{ tile: "5p", confidence: 0.1 }, { tile: "6p", confidence: 0.05 }, { tile: "6p", confidence: 0.01 }] };
  res.tiles[6].alternatives = [{ tile: "1s", confidence: 0.02 }];
  const dets = initialDets(res);
  const hand = handFromDetections(res, dets, null);
  const choices = misreadChoices(hand, res, dets);
  // no tile with no other reading, nor a face-down one; a red five and a five are one tile; each other tile once
  assert.deepEqual(choices.map((c) => [c.tile, c.others.map((o) => o.tile)]), [["3z", ["4m"]], ["0p", ["6p"]], ["7s", ["1s"]]]);
  assert.equal(hand.concealed[choices[0].index], "3z");
  assert.equal(choices[0].det, 3);
  assert.equal(choices[0].others[0].confidence, 0.4);
  // a tile the player chose in its sheet is the player's: not asked about
  dets[3].tile = "4p";
  dets[3].checked = true;
  assert.deepEqual(misreadChoices(handFromDetections(res, dets, null), res, dets).map((c) => c.det), [4, 6]);
});
