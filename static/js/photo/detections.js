// @ts-check
// The photo feature's model, which the table screen imports too (a hand read from a photo in its
// record sheet): the hand that a recognition answer's detections, as the player corrected them,
// make. DOM-free; no rule is decided here (the server's reading proposed the hand and its melds).
import { emptyHand } from "../core/hand-editor.js";
import { parseMpsz, plain } from "../core/tiles.js";
import { t } from "../core/i18n.js";

/** Detections in reading order: the API's rows when it gives them, else top-to-bottom, left-to-right. */
export function readingOrder(res) {
  const seen = new Set();
  const order = [];
  for (const row of res.rows || []) for (const i of row) if (!seen.has(i) && res.tiles[i]) { seen.add(i); order.push(i); }
  const rest = res.tiles.map((_, i) => i).filter((i) => !seen.has(i));
  rest.sort((a, b) => res.tiles[a].box[1] - res.tiles[b].box[1] || res.tiles[a].box[0] - res.tiles[b].box[0]);
  return [...order, ...rest];
}


/**
 * The hand the corrected detections make, with the proposal's melds kept where their tiles still
 * are. A meld's tiles are taken from the detections of its own row when one row holds exactly
 * them (a called group is laid apart), else from the end of the reading order.
 * `winInMeld` is true when the tile marked as winning is one of a called meld's tiles: a winning
 * tile is never part of a called meld, so the caller refuses to score it.
 */
export function handFromDetections(res, dets, winDet, added = []) {
  const order = readingOrder(res).filter((i) => !dets[i].ignored && dets[i].tile !== "back");
  /** @type {Array<{tile: string, det: number|null, added?: boolean, after?: number, win?: boolean}>} */
  const pool = order.map((i) => ({ tile: dets[i].tile, det: i }));
  // tiles the player added where the photo missed them: each after the detection it was added after
  // (-1: at the start of the row), in the order added
  for (const a of added) {
    let at = a.after < 0 ? 0 : pool.findIndex((p) => p.det === a.after) + 1;
    if (a.after >= 0 && at === 0) at = pool.length;  // its neighbour was left out since: at the end
    while (at < pool.length && pool[at].added && pool[at].after === a.after) at += 1;
    pool.splice(at, 0, { tile: a.tile, det: null, added: true, after: a.after, win: Boolean(a.win) });
  }
  const state = emptyHand();
  let winInMeld = false;
  const sameTiles = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();
  for (const meld of (res.proposal && res.proposal.melds) || []) {
    const tiles = parseMpsz(meld.tiles);
    let taken = null;
    for (const row of res.rows || []) {
      const ks = row.map((i) => pool.findIndex((p) => p.det === i)).filter((k) => k >= 0);
      if (ks.length === tiles.length && sameTiles(ks.map((k) => pool[k].tile), tiles)) { taken = ks; break; }
    }
    if (!taken) {
      taken = [];
      for (const code of tiles) {
        let k = -1;
        for (let j = pool.length - 1; j >= 0; j -= 1) if (pool[j].tile === code && !taken.includes(j)) { k = j; break; }
        if (k < 0) break;
        taken.push(k);
      }
      if (taken.length !== tiles.length) continue;
    }
    if (taken.some((k) => pool[k].det === winDet)) winInMeld = true;
    state.melds.push({ type: meld.type, tiles });
    for (const k of [...taken].sort((x, y) => y - x)) pool.splice(k, 1);
  }
  state.concealed = pool.map((p) => p.tile);
  // the tile the player marked winning; else a tile added as the winning one (photo.js: the tile a
  // hand one short was missing, added at the end of the row); else the proposal's winning tile
  let win = winDet === null ? -1 : pool.findIndex((p) => p.det === winDet);
  if (win < 0) win = pool.findIndex((p) => p.win);
  if (win < 0 && !winInMeld && res.proposal && res.proposal.win_tile) win = state.concealed.lastIndexOf(res.proposal.win_tile);
  state.winIndex = win >= 0 ? win : null;
  // which detection each concealed tile is (null: a tile the player added), for leaveOutChoices
  Object.defineProperty(state, "concealedDets", { value: pool.map((p) => p.det), enumerable: false });
  return Object.defineProperty(state, "winInMeld", { value: winInMeld, enumerable: false });
}

/** What is wrong with the hand the (corrected) photo makes, before the engine sees it: null when
 * its shape is right. */
export function shapeProblem(state) {
  if (state.winInMeld) return t("photo.win_in_meld");
  const need = 14 - 3 * state.melds.length;
  const kans = state.melds.filter((m) => m.tiles.length === 4).length;
  if (state.concealed.length !== need) {
    const found = state.concealed.length + 3 * state.melds.length;
    return t(kans ? "photo.count_kans" : "photo.count", { n: found + kans, need: 14 + kans });
  }
  return null;
}

/** Whether the hand is exactly one tile short (its called sets counted): the tile the photo missed
 * is then one of the tiles the others wait on. */
export function oneShort(state) {
  return !state.winInMeld && state.concealed.length === 13 - 3 * state.melds.length;
}

/** Whether the hand has exactly one tile too many (its called sets counted): a tile that is not in
 * it (a stray tile in line with the row, or something read as a tile) may be the one to leave out. */
export function oneOver(state) {
  return !state.winInMeld && state.concealed.length === 15 - 3 * state.melds.length;
}

/** For a hand one tile over: each kind of tile it holds, with the concealed tile that leaving it
 * out would take away (`index` in state.concealed, `det` the detection), the least surely read
 * first (a tile read from clutter is more likely among them). Only tiles read from the photo (not
 * one the player added, not the one the player marked as winning); of several copies, the least
 * surely read, the later in the row on a tie. Never a tile the hand holds four of: those are
 * a kan laid in the row, to be declared, not a tile too many. Whether leaving a tile out completes
 * the hand is the engine's to say (photo.js). */
export function leaveOutChoices(state, res, markedWin = null) {
  const dets = state.concealedDets || [];
  const held = (tile) => state.concealed.filter((c) => plain(c) === plain(tile)).length;
  /** @type {Map<string, {tile: string, index: number, det: number}>} */
  const best = new Map();
  dets.forEach((det, index) => {
    if (det === null || det === undefined || det === markedWin) return;
    const tile = state.concealed[index];
    if (held(tile) >= 4) return;
    const sure = res.tiles[det].confidence;
    const now = best.get(tile);
    if (!now || sure <= res.tiles[now.det].confidence) best.set(tile, { tile, index, det });
  });
  const sure = (c) => res.tiles[c.det].confidence;
  return [...best.values()].sort((a, b) => sure(a) - sure(b) || a.index - b.index);
}

/** For a hand of the right size that is not complete: each concealed tile read from the photo
 * (not one the player added or chose in its sheet) with the other tiles the classifier took it
 * for (its alternatives; a red five and a five are one), the least surely read first: `index` in
 * state.concealed, `det` the detection, `tile` as it stands, `others` [{tile, confidence}].
 * Whether one of them in its place completes the hand is the engine's to say (photo.js). */
export function misreadChoices(state, res, dets) {
  const out = [];
  (state.concealedDets || []).forEach((det, index) => {
    if (det === null || det === undefined || dets[det].checked) return;
    const tile = state.concealed[index];
    const others = [];
    for (const a of res.tiles[det].alternatives || []) {
      if (a.tile === "back" || plain(a.tile) === plain(tile) || others.some((o) => plain(o.tile) === plain(a.tile))) continue;
      others.push(a);
    }
    if (others.length) out.push({ index, det, tile, others });
  });
  const sure = (c) => res.tiles[c.det].confidence;
  return out.sort((a, b) => sure(a) - sure(b) || a.index - b.index);
}

/** The tiles that would complete a hand one tile short, from the engine's answer for its tiles
 * (POST /api/waits): each wait once, but not a tile the hand already holds all four of (the photo
 * cannot have missed a fifth). */
export function completingTiles(waits) {
  const out = [];
  for (const w of (waits && waits.waits) || []) {
    if (w.reason_id === "all_held" || out.includes(w.tile)) continue;
    out.push(w.tile);
  }
  return out;
}

/** The player's view of each detection at first: the hand is the proposal's (the row and the melds
 * set apart); what else the photo shows is left out until the player adds it. */
export function initialDets(res) {
  const extra = new Set((res.proposal && res.proposal.extra) || []);
  return res.tiles.map((d, i) => ({ tile: d.tile, ignored: d.face_down || d.tile === "back" || extra.has(i), checked: false, extra: extra.has(i) }));
}
