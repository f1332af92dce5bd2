// @ts-check
// Photo: take or choose a photo, downscale it on the phone, send it to POST /api/recognize,
// show the recognised tiles outlined on the photo, let the player correct them, then score.
import { h, clear, sheet, segmented } from "../core/util.js";
import { api, ApiError, OfflineError } from "../core/api.js";
import { PICKER, WIND_OF, WIND_NAME, plain, sortTiles, toMpsz, tileImg, tileName } from "../core/tiles.js";
import { contributeCard } from "./contribute.js";
import { handOver, newHandConditions } from "../core/conditions.js";
import { downscale } from "../core/images.js";
import { completingTiles, handFromDetections, initialDets, leaveOutChoices, misreadChoices, oneOver, oneShort, readingOrder, shapeProblem } from "./detections.js";
import { phoneReader } from "./live-recognizer.js";
import { t, reasonText, detailText } from "../core/i18n.js";
import { findWaits } from "../core/waits.js";

let last = null;  // {url, blob, res, dets, win, added}: the last photo, kept while the app is open
// a hand of the right size that is not complete: how many of its least surely read tiles are asked
// about (a request each), and how many tiles that would complete it are offered at most
const MISREAD_ASKED = 6;
const MISREAD_SHOWN = 3;

/** Keep a recognised frame (the live camera's capture) as the photo to check and correct. */
export function usePhoto(blob, res, size) {
  if (last && last.url) URL.revokeObjectURL(last.url);
  last = { url: URL.createObjectURL(blob), blob, res, dets: initialDets(res), win: null, size, added: [], fromCamera: true };
}

export async function photoScreen(view) {
  const status = h("div", { "aria-live": "polite" });
  const stageBox = h("div");
  const input = h("input", { type: "file", accept: "image/*", capture: "environment", id: "photo-input", class: "visually-hidden", "data-testid": "photo-input" });
  input.addEventListener("change", () => input.files[0] && recognise(input.files[0]));
  // the gallery: no capture attribute, so phones offer their photos rather than the camera
  const choose = h("input", { type: "file", accept: "image/*", id: "photo-choose", class: "visually-hidden", "data-testid": "photo-choose" });
  choose.addEventListener("change", () => choose.files[0] && recognise(choose.files[0]));

  async function recognise(file) {
    clear(stageBox);
    clear(status, h("p", { class: "banner info" }, t("photo.reading")));
    try {
      const { blob, width, height } = await downscale(file);
      const form = new FormData();
      form.append("image", blob, "photo.jpg");
      let res, onPhone = false;
      try {
        res = await api("POST", "/api/recognize", form);
      } catch (err) {
        if (!(err instanceof OfflineError)) throw err;
        res = await readOnPhone(blob);  // offline: the camera's on-phone reader, same answer
        onPhone = true;
      }
      if (last && last.url) URL.revokeObjectURL(last.url);
      // a new photo is a new hand: ron or tsumo and the seat are asked again, never carried over
      last = { url: URL.createObjectURL(blob), blob, res, dets: initialDets(res),
        win: null, size: [width, height], winBy: null, seat: null, check: null, added: [] };
      clear(status, onPhone ? h("p", { class: "banner info", "data-testid": "read-on-phone" }, t("photo.read_on_phone")) : null);
      show();
    } catch (err) {
      let message = err.message;
      if (err instanceof ApiError && [404, 501, 503].includes(err.status)) message = t("photo.unavailable");
      if (err instanceof OfflineError) message = t("photo.offline");
      clear(status, h("div", { class: "banner error", role: "alert", "data-testid": "photo-error" }, message));
    }
  }

  /** Read the photo with the on-phone models (ONNX Runtime Web), when they were downloaded (the
   * live camera fetches them and the service worker keeps them). */
  async function readOnPhone(blob) {
    const reader = phoneReader();
    clear(status, h("p", { class: "banner info" }, t("photo.reading_on_phone")));
    if (!(await reader.ready)) {
      clear(status);
      throw new Error(t("photo.offline_no_models"));  // said as it is, not as "needs the server"
    }
    return reader.read(await createImageBitmap(blob));
  }

  function show() {
    contribute.refresh();
    if (!last) return;
    const { res, dets } = last;
    // uncertain: what the reader flags (read unsurely, or changed by the hand proposal), until checked
    const isUncertain = (i) => !dets[i].checked && Boolean(res.tiles[i].unsure);
    const notes = [reasonText(res)].filter(Boolean);
    // nothing read, nothing added: what to do next (take it again, or enter the tiles here), not a count to correct
    const empty = !res.tiles.length && !(last.added || []).length;
    // taken again the way it was taken: the live camera's capture with the live camera
    const retake = () => (last.fromCamera ? h("a", { href: "#/camera", class: "btn", "data-testid": "retake" }, t("photo.retake"))
      : h("label", { for: "photo-input", class: "btn", role: "button", tabindex: "0", "data-testid": "retake" }, t("photo.retake")));
    // what the reader says of the photo itself (out of focus: worth taking again), server or phone
    const photoNotes = (res.notes || []).map((d) => detailText(d)).filter(Boolean);
    const [w, hgt] = res.image_size || last.size;
    // show the part of the photo with the tiles (plus a margin), unless the player asks for all of it
    let view = [0, 0, w, hgt];
    if (res.tiles.length && !last.whole) {
      const xs = res.tiles.flatMap((d) => [d.box[0], d.box[2]]), ys = res.tiles.flatMap((d) => [d.box[1], d.box[3]]);
      let [x0, y0, x1, y1] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
      const m = 0.12 * Math.max(x1 - x0, y1 - y0);
      [x0, y0, x1, y1] = [x0 - m, y0 - m, x1 + m, y1 + m];
      if ((y1 - y0) < (x1 - x0) * 0.45) { const c = (y0 + y1) / 2, half = (x1 - x0) * 0.225; y0 = c - half; y1 = c + half; }
      x0 = Math.max(0, x0); y0 = Math.max(0, y0); x1 = Math.min(w, x1); y1 = Math.min(hgt, y1);
      view = [x0, y0, x1 - x0, y1 - y0];
    }
    const svg = h("svg:svg", { viewBox: view.map(Math.round).join(" "), role: "group", "aria-label": t("photo.svg_label") },
      h("svg:image", { href: last.url, x: 0, y: 0, width: w, height: hgt }));
    const font = Math.max(12, Math.round(view[2] / 28));
    res.tiles.forEach((det, i) => {
      const [x1, y1, x2, y2] = det.box;
      const d = dets[i];
      const cls = ["box", isUncertain(i) ? "uncertain" : "", last.win === i ? "win" : "", d.ignored ? "ignored" : ""].join(" ");
      // a tile read from the photo turned level is drawn as it lies (its outline), the label over its top corner
      const shape = det.outline
        ? h("svg:polygon", { points: det.outline.map((p) => p.join(",")).join(" "), class: cls })
        : h("svg:rect", { x: x1, y: y1, width: x2 - x1, height: y2 - y1, rx: 4, class: cls });
      const [lx, ly] = det.outline ? det.outline.reduce((a, p) => (p[1] < a[1] ? p : a)) : [x1, y1];
      const g = h("svg:g", { role: "button", tabindex: "0", "aria-label": t("photo.tile_label", { n: i + 1, tile: tileName(d.tile) }), "data-det": String(i) },
        shape,
        h("svg:text", { x: lx + 2, y: Math.max(view[1] + font, ly - 4), class: d.tile[0] === "0" ? "label red" : "label", "font-size": font, "stroke-width": Math.max(2, font / 7) }, d.tile === "back" ? t("photo.back") : d.tile[0] === "0" ? `5${d.tile[1]}` : d.tile));
      g.addEventListener("click", () => correct(i));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); correct(i); } });
      svg.append(g);
    });
    const uncertain = res.tiles.filter((_, i) => isUncertain(i)).length;
    const tileButton = (i) => h("button", {
      type: "button", class: [isUncertain(i) ? "uncertain" : "", last.win === i ? "win" : "", dets[i].ignored ? "ignored" : ""].join(" "),
      "aria-label": t("photo.tile_label", { n: i + 1, tile: tileName(dets[i].tile) + (dets[i].ignored ? t("photo.left_out") : "") + (last.win === i ? t("photo.winning") : "") }),
      "data-det": String(i), "data-tile-now": dets[i].tile, onclick: () => correct(i),
    }, tileImg(dets[i].tile, { alt: "" }), `${Math.round(res.tiles[i].confidence * 100)}%`);
    // the hand, in the row's order, with a "+" in every gap to add a tile the photo missed there;
    // everything else the photo shows is listed apart, one tap adds it
    const apart = readingOrder(res).filter((i) => dets[i].extra && dets[i].ignored);
    const inHand = readingOrder(res).filter((i) => !apart.includes(i));
    // (a span with the button role: the row's buttons stay the detections, one per tile)
    const gap = (after) => h("span", { role: "button", tabindex: "0", class: "add-gap", "data-testid": "add-gap", "data-after": String(after),
      "aria-label": t("photo.add_here"), onclick: () => addMissed(after),
      onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); addMissed(after); } } }, "+");
    const addedAfter = (after) => (last.added || []).map((a, k) => [a, k]).filter(([a]) => a.after === after).map(([a, k]) => h("span", {
      role: "button", tabindex: "0", class: "added", "data-added": a.tile, "aria-label": `${tileName(a.tile)}: ${t("photo.leave_out")}`,
      onclick: () => { last.added.splice(k, 1); show(); },
      onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); last.added.splice(k, 1); show(); } } }, tileImg(a.tile, { alt: "" })));
    const list = [gap(-1), ...addedAfter(-1), ...inHand.flatMap((i) => [tileButton(i), ...addedAfter(i), gap(i)])];
    const alsoList = apart.map((i) => h("button", {
      type: "button", class: "also", "data-det": String(i), "data-tile-now": dets[i].tile,
      "aria-label": `${tileName(dets[i].tile)}: ${t("photo.include")}`,
      onclick: () => { dets[i].ignored = false; dets[i].extra = false; dets[i].checked = true; show(); } }, tileImg(dets[i].tile, { alt: "" })));
    clear(stageBox,
      h("div", { class: "photo-stage" }, svg),
      h("button", { type: "button", class: "btn-block", onclick: () => { last.whole = !last.whole; show(); } }, last.whole ? t("photo.zoom") : t("photo.whole")),
      // how the hand was won and the seat come first, beside the photo: never asked after Score
      h("section", { class: "card", "aria-label": t("photo.this_hand") },
        h("h2", {}, t("photo.this_hand")),
        h("p", { class: "small muted" }, t("photo.asked")),
        segmented("photo-win", [["ron", t("result.ron")], ["tsumo", t("result.tsumo")]], last.winBy, (v) => { last.winBy = v; choiceErr.textContent = ""; }, { legend: t("score.won_by") }),
        h("div", { class: "wind-row" }, h("span", { class: "small" }, t("score.seat_wind")),
          segmented("photo-seat", WIND_OF.map((w) => [w, WIND_NAME[w]]), last.seat, (v) => { last.seat = v; choiceErr.textContent = ""; }, { legend: t("score.seat_wind") })),
        choiceErr),
      h("section", { class: "card" },
        h("h2", {}, t(res.tiles.length === 1 ? "photo.found_one" : "photo.found", { n: res.tiles.length })),
        notes.map((n) => (empty ? h("div", { class: "banner warn", "data-testid": "photo-empty" }, h("p", {}, n), retake())
          : h("p", { class: "banner info" }, n))),
        photoNotes.map((n) => h("div", { class: "banner warn", "data-testid": "photo-note" }, h("p", {}, n), retake())),
        empty ? null : checkBox,
        uncertain ? h("p", { class: "banner warn", "data-testid": "uncertain" }, t(uncertain === 1 ? "photo.uncertain_one" : "photo.uncertain", { n: uncertain })) : null,
        h("p", { class: "hint" }, t(empty ? "photo.empty_hint" : "photo.tap_hint")),
        h("h3", {}, t("photo.hand_row")),
        h("div", { class: "det-list", "data-testid": "detections" }, list),
        apart.length ? h("div", { class: "also-in-photo", "data-testid": "also-in-photo" },
          h("h3", {}, t("photo.also")), h("p", { class: "small muted" }, t("photo.also_hint")),
          h("div", { class: "det-list" }, alsoList)) : null),
      h("div", { class: "sticky-actions" },
        h("button", { type: "button", class: "btn-primary", "data-testid": "photo-score", onclick: toScore }, t("photo.score"))));
    recheck();
  }

  const checkBox = h("div", { "aria-live": "polite", "data-testid": "hand-check" });
  const choiceErr = h("p", { class: "field-error", role: "alert", "data-testid": "photo-choice-error" });
  let checking = 0;

  /** What `tiles` (thirteen, or fewer with `hand`'s called sets) wait on, with `hand`'s called sets,
   * under the rule set of a new hand: the engine's answer (POST /api/waits, or this phone's). */
  const waitsOf = (tiles, hand) => findWaits({ ruleset: newHandConditions().ruleset, hand: toMpsz(sortTiles(tiles)),
    melds: hand.melds.map((m) => ({ type: m.type, tiles: toMpsz(m.tiles) })) });

  /** The banner about the hand as corrected so far: recomputed after every correction, with the
   * engine (POST /api/waits) deciding whether the tiles form a complete hand. */
  async function recheck() {
    const seq = ++checking;
    const hand = handFromDetections(last.res, last.dets, last.win, last.added || []);
    const say = (kind, state, text) => { if (seq === checking) clear(checkBox, h("p", { class: `banner ${kind}`, "data-state": state }, text)); };
    const problem = shapeProblem(hand);
    if (problem) {
      say(hand.winInMeld ? "error" : "warn", hand.winInMeld ? "win-in-meld" : "count", problem);
      if (oneShort(hand)) offerMissed(hand, seq);
      else if (oneOver(hand)) offerLeaveOut(hand, seq);
      return;
    }
    const win = hand.winIndex !== null ? hand.winIndex : hand.concealed.length - 1;
    const winTile = hand.concealed[win];
    const rest = hand.concealed.filter((_, i) => i !== win);
    say("info", "checking", t("photo.checking"));
    try {
      const { res } = await waitsOf(rest, hand);
      if (res.waits.some((w) => plain(w.tile) === plain(winTile))) say("info", "complete", t("photo.complete", { tile: tileName(winTile) }));
      else {
        say("warn", "incomplete", t("photo.incomplete", { tile: tileName(winTile) }));
        offerMisread(hand, seq);
      }
    } catch (err) {
      if (err instanceof OfflineError) say("warn", "offline", t("photo.check_offline"));
      else say("warn", "invalid", err.message);
    }
  }

  /** A hand one tile short (a tile set apart, a blank haku, that the photo missed): the tiles the
   * others wait on, as the engine finds them, offered under the count. One tap adds the tile at the
   * end of the row. With no tile read as set apart, it is where the winning tile would be, and it
   * is the winning tile; with one, that one stays the winning tile and the tile goes before it.
   * The player may mark another; the check says which ("won on"). */
  async function offerMissed(hand, seq) {
    let tiles;
    try {
      const { res } = await waitsOf(hand.concealed, hand);
      tiles = completingTiles(res);
    } catch {
      return;  // offline without the engine, or not a hand the engine takes: the count and the "+" stay
    }
    if (seq !== checking || !tiles.length) return;
    const apart = last.res.proposal ? last.res.proposal.set_apart : null;
    const apartIn = apart !== null && apart !== undefined && !last.dets[apart].ignored;
    const row = readingOrder(last.res).filter((i) => !last.dets[i].ignored && last.dets[i].tile !== "back" && !(apartIn && i === apart));
    const after = row.length ? row[row.length - 1] : -1;
    const add = (tile) => {
      if (!last.added) last.added = [];
      last.added.push({ after, tile, win: !apartIn && last.win === null });
      show();
    };
    checkBox.firstChild.append(h("span", { class: "complete-with", "data-testid": "complete-with" },
      h("span", {}, t("photo.complete_with")),
      tiles.map((tile) => h("button", { type: "button", "data-tile": tile, "aria-label": t("photo.add_tile", { tile: tileName(tile) }),
        onclick: () => add(tile) }, tileImg(tile, { alt: "" })))));
  }

  /** A hand one tile over (a stray tile in line with the row, or something read as a tile): the
   * tiles whose leaving out completes it, as the engine finds them (for each, do the other thirteen
   * wait on the fourteenth?), offered under the count. One tap leaves that tile out: it is listed
   * with what else the photo shows, where one tap puts it back. */
  async function offerLeaveOut(hand, seq) {
    const found = await Promise.all(leaveOutChoices(hand, last.res, last.win).map(async (choice) => {
      const rest = hand.concealed.filter((_, j) => j !== choice.index);
      const win = rest[rest.length - 1];
      try {
        const { res } = await waitsOf(rest.slice(0, -1), hand);
        return res.waits.some((w) => plain(w.tile) === plain(win)) ? choice : null;
      } catch {
        return null;  // offline without the engine, or not a hand the engine takes
      }
    }));
    const choices = found.filter((c) => c !== null);
    if (seq !== checking || !choices.length) return;
    const leaveOut = (det) => {
      const d = last.dets[det];
      d.ignored = true;
      d.extra = true;
      d.checked = true;
      show();
    };
    checkBox.firstChild.append(h("span", { class: "complete-with", "data-testid": "complete-without" },
      h("span", {}, t("photo.complete_without")),
      choices.map((c) => h("button", { type: "button", "data-tile": c.tile, "data-det": String(c.det),
        "aria-label": t("photo.leave_out_tile", { tile: tileName(c.tile) }), onclick: () => leaveOut(c.det) }, tileImg(c.tile, { alt: "" })))));
  }

  /** A hand of the right size that is not complete, usually one tile misread (四 read as 西, 7p
   * as 8p): the tiles the classifier also took a tile for that would complete it in its place (for
   * each, do the other thirteen wait on it? the engine's waits), the likeliest first, offered
   * under the check. The reader takes such a tile by itself when it is likely enough
   * (recognition/hand.py, MAX_TILE_COST); these are the ones it would not take, for the player to
   * say. One tap reads the tile as that one. The least surely read tiles are asked about
   * (MISREAD_ASKED), so that a hand costs a few requests, not fourteen. */
  async function offerMisread(hand, seq) {
    const found = await Promise.all(misreadChoices(hand, last.res, last.dets).slice(0, MISREAD_ASKED).map(async (choice) => {
      try {
        const { res } = await waitsOf(hand.concealed.filter((_, j) => j !== choice.index), hand);
        const tiles = completingTiles(res).map(plain);
        return choice.others.filter((o) => tiles.includes(plain(o.tile))).map((o) => ({ ...choice, to: o.tile, p: o.confidence }));
      } catch {
        return [];  // offline without the engine, or not a hand the engine takes
      }
    }));
    const offers = found.flat().sort((a, b) => b.p - a.p).slice(0, MISREAD_SHOWN);
    if (seq !== checking || !offers.length) return;
    const readAs = (det, tile) => {
      const d = last.dets[det];
      d.tile = tile;
      d.checked = true;
      show();
    };
    checkBox.firstChild.append(h("span", { class: "complete-with complete-if", "data-testid": "complete-if" },
      h("span", {}, t("photo.complete_if")),
      offers.map((o) => h("button", { type: "button", "data-det": String(o.det), "data-from": o.tile, "data-tile": o.to,
        "aria-label": t("photo.read_as", { from: tileName(o.tile), to: tileName(o.to) }), onclick: () => readAs(o.det, o.to) },
      tileImg(o.tile, { alt: "" }), h("span", { "aria-hidden": "true" }, "→"), tileImg(o.to, { alt: "" })))));
  }

  function correct(i) {
    const det = last.res.tiles[i];
    const d = last.dets[i];
    const s = sheet(t("photo.tile_title", { n: i + 1, tile: tileName(d.tile) }));
    const choose = (code) => { d.tile = code; d.ignored = false; d.checked = true; s.close(); show(); };
    const alts = [{ tile: det.tile, confidence: det.confidence }, ...(det.alternatives || [])].filter((a) => a.tile !== "back");
    const completes = h("div", { "data-testid": "completes-here" });
    s.body.append(
      h("p", { class: "small muted" }, t("photo.recognised_as", { tile: tileName(det.tile), p: Math.round(det.confidence * 100) })),
      alts.length ? h("div", { class: "row likely", role: "group", "aria-label": t("photo.likely") }, alts.map((a) => h("button", {
        type: "button", "aria-label": `${tileName(a.tile)} (${Math.round(a.confidence * 100)}%)`, onclick: () => choose(a.tile) },
      tileImg(a.tile, { alt: "" }), `${Math.round(a.confidence * 100)}%`))) : null,
      completes,
      h("h3", {}, t("photo.or_pick")),
      h("div", { class: "picker" }, Object.values(PICKER).map((codes) => h("div", { class: "suit" }, codes.map((code) =>
        h("button", { type: "button", "data-fix": code, "aria-label": tileName(code), onclick: () => choose(code) }, tileImg(code, { alt: "" })))))));
    offerInPlace(i, completes, choose);
    s.foot.append(
      h("button", { type: "button", onclick: () => { d.ignored = !d.ignored; d.checked = true; s.close(); show(); } }, d.ignored ? t("photo.include") : t("photo.leave_out")),
      h("button", { type: "button", class: "btn-primary", "data-testid": "mark-win", onclick: () => { last.win = i; d.ignored = false; d.checked = true; s.close(); show(); } }, t("photo.mark_win")));
  }

  /** In the sheet of tile `i` of a hand of the right size that is not complete: the tiles that
   * would complete it in that tile's place (the engine's waits for the other thirteen), a short row
   * above the picker, for a tile misread as one its alternatives do not name. */
  async function offerInPlace(i, into, choose) {
    const hand = handFromDetections(last.res, last.dets, last.win, last.added || []);
    const at = hand.concealedDets.indexOf(i);
    if (at < 0 || last.dets[i].ignored || shapeProblem(hand)) return;
    const rest = hand.concealed.filter((_, j) => j !== at);
    let tiles;
    try {
      const { res } = await waitsOf(rest, hand);
      tiles = completingTiles(res);
    } catch {
      return;  // offline without the engine: the picker is there
    }
    // the hand is complete as it is when this tile is one of them: nothing to offer
    if (!tiles.length || tiles.some((tile) => plain(tile) === plain(last.dets[i].tile)) || !into.isConnected) return;
    clear(into, h("h3", {}, t("photo.completes_here")),
      h("div", { class: "picker", role: "group", "aria-label": t("photo.completes_here") }, h("div", { class: "suit" }, tiles.map((tile) => h("button", {
        type: "button", "data-complete": tile, "aria-label": tileName(tile), onclick: () => choose(tile) }, tileImg(tile, { alt: "" }))))));
  }

  /** "+" in the hand's row: pick the missed tile, it goes in at that place (two taps). */
  function addMissed(after) {
    const s = sheet(t("photo.add_title"));
    s.body.append(h("div", { class: "picker" }, Object.values(PICKER).map((codes) => h("div", { class: "suit" }, codes.map((code) =>
      h("button", { type: "button", "data-add": code, "aria-label": tileName(code), onclick: () => {
        if (!last.added) last.added = [];
        last.added.push({ after, tile: code });
        s.close();
        show();
      } }, tileImg(code, { alt: "" })))))));
  }

  function toScore() {
    const hand = handFromDetections(last.res, last.dets, last.win, last.added || []);
    if (hand.winInMeld) { clear(choiceErr, shapeProblem(hand)); choiceErr.scrollIntoView({ block: "center" }); return; }
    const missing = !last.winBy && !last.seat ? "both" : !last.winBy ? "win" : !last.seat ? "seat" : null;
    if (missing) { clear(choiceErr, t(`photo.choose_${missing}`)); choiceErr.scrollIntoView({ block: "center" }); return; }
    contribute.shareIfOn();  // the player has checked the tiles: share them if they chose to
    handOver(hand, { win: last.winBy, seat_wind: last.seat });
    location.hash = "#/score";
  }

  const contribute = contributeCard(() => last);
  clear(view, h("h1", { class: "visually-hidden" }, t("nav.photo")),
    h("section", { class: "card" },
      h("h2", {}, t("photo.title")),
      h("p", { class: "hint" }, t("photo.lay_hint")),
      h("a", { href: "#/camera", class: "btn btn-primary btn-block", "data-testid": "open-camera" }, t("camera.title")),
      input, choose,
      h("div", { class: "row" },
        h("label", { for: "photo-input", class: "btn", role: "button", tabindex: "0" }, t("photo.take")),
        h("label", { for: "photo-choose", class: "btn", role: "button", tabindex: "0" }, t("photo.choose")))),
    status, stageBox, contribute.el);
  if (last) show();
}
