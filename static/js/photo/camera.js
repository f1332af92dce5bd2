// @ts-check
// Live camera: the rear camera's view with the recognised tiles drawn over it and the proposed hand
// under it. When the same complete hand has been read in STABLE_FRAMES frames in a row, the app
// captures it by itself: a short vibration, the frame freezes, the hand is scored, and every tile
// stays correctable on the photo screen.
import { h, clear, segmented } from "../core/util.js";
import { api, OfflineError, rulesets } from "../core/api.js";
import { tileImg, tileName, sortTiles, toMpsz, WIND_NAME } from "../core/tiles.js";
import { LiveRecognizer } from "./live-recognizer.js";
import { usePhoto } from "./photo.js";
import { handFromDetections, initialDets, oneOver, oneShort, shapeProblem } from "./detections.js";
import { handOver, newHandConditions } from "../core/conditions.js";
import { summary, yakuName } from "../core/results.js";
import { prepareOffline, scoreOffline } from "../core/offline.js";
import { errorText, t, reasonText, rulesetName } from "../core/i18n.js";
import * as store from "../core/store.js";

export const STABLE_FRAMES = 3;
export const FRAME_LONG_SIDE = 640;  // frames are downscaled on the phone to this before reading
const MODES = () => [["auto", t("camera.mode_auto")], ["phone", t("camera.mode_phone")], ["server", t("camera.mode_server")]];

/** Why the camera cannot open, in words for the player. */
export function cameraProblem(err) {
  if (!window.isSecureContext) {
    return t("camera.insecure");
  }
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return t("camera.no_api");
  const name = err && err.name;
  if (name === "NotAllowedError" || name === "SecurityError") return t("camera.denied");
  if (name === "NotFoundError" || name === "OverconstrainedError") return t("camera.none");
  if (name === "NotReadableError") return t("camera.busy");
  return t("camera.failed");
}

/** The key of a hand, to tell "the same hand" across frames. */
const handKey = (p) => p && p.complete ? `${p.hand}|${p.win_tile}|${(p.melds || []).map((m) => m.type + m.tiles).join(",")}` : null;

/** The key of a reading whose hand is one tile short (a tile the camera never sees, such as a
 * blank haku set apart), one tile over (something read as a tile in line with the row), or of the
 * right size and not complete (a tile misread), as the photo screen judges it (detections.js
 * `oneShort`, `oneOver`, `shapeProblem`), to tell the same such hand across frames; null for any
 * other reading. It starts with which of the three it is. */
export const offKey = (res) => {
  const p = res && res.proposal;
  if (!p || p.complete) return null;
  const hand = handFromDetections(res, initialDets(res), null);
  const off = oneShort(hand) ? "short" : oneOver(hand) ? "over" : shapeProblem(hand) === null ? "misread" : null;
  return off && `${off}|${p.hand}|${(p.melds || []).map((m) => m.type + m.tiles).join(",")}`;
};

/** Why the camera waits, from a reading that is not a complete hand: the count of the hand's
 * tiles against a winning hand's ("13 tiles, one more"), or what stops the tiles making one. */
export function waitingFor(p) {
  const kans = (p.melds || []).filter((m) => m.tiles.replace(/[mpsz]/g, "").length === 4).length;
  const have = (p.concealed || []).length + 3 * (p.melds || []).length + kans;
  const need = 14 + kans;
  if (have < need) return t(need - have === 1 ? "camera.one_more" : "camera.more", { n: have, k: need - have });
  if (have > need) return t(have - need === 1 ? "camera.one_too_many" : "camera.too_many", { n: have, k: have - need });
  return reasonText(p) || t("camera.not_complete");
}

/** What the camera says under the view after reading a frame: that two readings in a row differ,
 * that the complete hand is being held, that the frame is out of focus (the reader's note), or
 * what the reading waits for. Returns [state, words]. */
export function frameNote(res, key, differs, stable) {
  if (differs) return ["differ", t("camera.differ")];
  if (key) return ["hold", t("camera.hold", { n: stable, of: STABLE_FRAMES })];
  if ((res.notes || []).some((n) => n && n.id === "photo_out_of_focus")) return ["focus", t("camera.focus")];
  return res.proposal ? ["count", waitingFor(res.proposal)] : ["none", t("camera.point")];
}

/** A captured hand's score request for one way of winning, with only the session's settings. */
export function freshRequest(hand, cond, win) {
  const w = hand.winIndex !== null ? hand.winIndex : hand.concealed.length - 1;
  const rest = sortTiles(hand.concealed.filter((_, i) => i !== w));
  return {
    ruleset: cond.ruleset, win, seat_wind: cond.seat_wind, round_wind: cond.round_wind,
    hand: toMpsz([...rest, hand.concealed[w]]), win_tile: hand.concealed[w],
    melds: hand.melds.map((m) => ({ type: m.type, tiles: toMpsz(m.tiles) })),
  };
}

/** Score on the server; with no connection, on this phone when offline scoring was prepared. */
async function scoreAnywhere(req) {
  try {
    return { result: await api("POST", "/api/score", req), offline: false };
  } catch (err) {
    if (!(err instanceof OfflineError)) throw err;
    if (!store.get("offline_scoring")) throw err;
    return { result: await scoreOffline(req), offline: true };
  }
}

/** Score a captured hand as a ron and as a tsumo (two requests) and show both in `box`, with the
 * settings used and a one-tap way to open the hand on the score screen to add riichi, dora... */
export async function scoreBothWays(box, hand) {
  const cond = newHandConditions();  // the session's rule set, seat and round; nothing of an earlier hand
  let title = cond.ruleset;
  try { title = ((await rulesets()).rulesets.find((r) => r.id === cond.ruleset) || {}).title || title; title = rulesetName(cond.ruleset, title); } catch { /* offline, not cached */ }
  clear(box, h("p", { class: "banner info" }, t("camera.scoring")));
  /** @type {Array<{win: string, result?: any, offline?: boolean, error?: any}>} */
  const answers = await Promise.all(["ron", "tsumo"].map((win) => scoreAnywhere(freshRequest(hand, cond, win))
    .then((a) => ({ win, ...a }), (error) => ({ win, error }))));
  const open = (win) => { handOver(hand, { win, seat_wind: cond.seat_wind }); location.hash = "#/score"; };
  const offline = answers.some((a) => a.offline);
  const allOffline = answers.every((a) => a.error instanceof OfflineError);
  const line = ({ win, result, error }) => h("button", {
    type: "button", class: "camera-way", "data-testid": `camera-${win}`, "data-total": result ? String(result.total) : "",
    "data-yaku": result ? result.yaku.map((y) => y.id).join(" ") : "", onclick: () => open(win),
    "aria-label": `${t(`result.${win}`)}: ${result ? summary(result) : errorText(error)}. ${t("camera.open")}`,
  },
  h("span", { class: "way" }, t(`result.${win}`)),
  h("span", { class: "what" }, result ? summary(result) : error instanceof OfflineError ? t("camera.offline_short") : errorText(error),
    result ? h("small", { class: "muted" }, result.yaku.map((y) => yakuName(y)).join(", ")) : null),
  h("span", { class: "go", "aria-hidden": "true" }, "›"));
  clear(box, h("section", { class: "card camera-score", "aria-label": t("camera.score_title") },
    h("h3", {}, t("camera.score_title")),
    h("p", { class: "small", "data-testid": "camera-settings" }, t("camera.settings", {
      ruleset: title, seat: WIND_NAME[cond.seat_wind] || cond.seat_wind, round: WIND_NAME[cond.round_wind] || cond.round_wind })),
    h("p", { class: "small muted" }, t("camera.nothing_else")),
    allOffline ? h("p", { class: "banner warn", "data-testid": "camera-score-error" }, t("camera.offline_unprepared")) : null,
    answers.map(line),
    offline ? h("p", { class: "banner info", "data-testid": "scored-offline" }, t("score.scored_offline")) : null,
    h("p", { class: "hint" }, t("camera.open_hint"))));
}

export async function cameraScreen(view) {
  const mode = store.get("camera-mode", "auto");
  const reader = new LiveRecognizer(mode);
  const screen = h("section", { class: "camera-screen", "data-testid": "camera", "data-state": "starting" });
  const video = h("video", { playsinline: "", muted: "", autoplay: "", "aria-label": t("camera.view") });
  video.muted = true;
  const overlay = h("canvas", { class: "camera-overlay", "aria-hidden": "true" });
  const stage = h("div", { class: "camera-stage" }, video, overlay);
  const status = h("p", { class: "hint", "aria-live": "polite", "data-testid": "camera-status" }, t("camera.opening"));
  // the tiles read so far in one row of small tiles, as the score screen's hand row shows a hand
  const rowTiles = h("div", { class: "concealed" });
  const row = h("div", { class: "hand-row camera-hand", "aria-label": t("camera.read_so_far"), "data-testid": "camera-hand" }, rowTiles);
  const after = h("div", { "aria-live": "polite" });
  const frame = document.createElement("canvas");
  let stream = null, running = true, stable = 0, lastKey = null, frames = 0;
  // the same hand one tile short or over, or misread, frame after frame: the camera will never
  // capture it by itself, so the player may take it to the photo screen, where the tiles that
  // complete it, the tile to leave out, or the tile the misread one may be, are offered
  let off = 0, lastOff = null, takeOff = false;
  const useFrame = h("button", { type: "button", class: "btn btn-block", hidden: true, "data-testid": "camera-use-frame",
    onclick: () => { takeOff = true; useFrame.disabled = true; } }, t("camera.use_short"));   // worded for the hand read
  const opened = performance.now();

  const modeControl = segmented("camera-mode", MODES(), mode, (value) => { store.set("camera-mode", value); reader.mode = value; },
    { legend: t("camera.mode_legend") });

  // offline, the capture is scored on this phone: start loading the engine (Pyodide) now, while the
  // camera looks, so the score is ready soon after the capture (only if the player prepared it)
  const warm = () => { if (store.get("offline_scoring")) prepareOffline().catch(() => {}); };
  if (!navigator.onLine) warm();
  window.addEventListener("offline", warm);

  function stop() {
    window.removeEventListener("offline", warm);
    running = false;
    if (stream) for (const track of stream.getTracks()) track.stop();
    stream = null;
  }

  function pathLabel(path) {
    if (path === "phone") return reader.phone.threads > 1 ? t("camera.on_phone_threads", { n: reader.phone.threads }) : t("camera.on_phone");
    if (path === "server") return t("camera.on_server");
    return "";
  }

  function draw(res) {
    const vw = frame.width, vh = frame.height;
    const rect = video.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    overlay.width = Math.round(rect.width * dpr);
    overlay.height = Math.round(rect.height * dpr);
    const ctx = overlay.getContext("2d");
    ctx.clearRect(0, 0, overlay.width, overlay.height);
    if (!res || !vw) return;
    // the video is shown whole (object-fit: contain): map frame pixels to the element
    const s = Math.min(overlay.width / vw, overlay.height / vh);
    const ox = (overlay.width - vw * s) / 2, oy = (overlay.height - vh * s) / 2;
    const [iw] = res.image_size || [vw];
    const k = (vw / iw) * s;
    ctx.font = `700 ${Math.round(13 * dpr)}px system-ui, sans-serif`;
    ctx.lineWidth = 2 * dpr;
    res.tiles.forEach((det) => {
      const [x1, y1, x2, y2] = det.box.map((v) => v * k);
      const unsure = Boolean(det.unsure);  // the reader's flag: read unsurely, or changed by the proposal
      ctx.strokeStyle = unsure ? "#ffb400" : "#3ee08f";
      ctx.setLineDash(unsure ? [6 * dpr, 4 * dpr] : []);
      let [lx, ly] = [x1, y1];  // where the label goes: the box's corner, or the top corner of a tile drawn as it lies
      if (det.outline) {
        const pts = det.outline.map(([x, y]) => [ox + x * k, oy + y * k]);
        ctx.beginPath();
        pts.forEach(([x, y], j) => (j ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
        ctx.closePath();
        ctx.stroke();
        [lx, ly] = det.outline.map(([x, y]) => [x * k, y * k]).reduce((a, p) => (p[1] < a[1] ? p : a));
      } else {
        ctx.strokeRect(ox + x1, oy + y1, x2 - x1, y2 - y1);
      }
      const label = det.tile === "back" ? t("photo.back") : det.tile[0] === "0" ? `5${det.tile[1]}` : det.tile;
      ctx.setLineDash([]);
      ctx.fillStyle = "rgba(0,0,0,.65)";
      ctx.fillRect(ox + lx, oy + ly - 16 * dpr, ctx.measureText(label).width + 6 * dpr, 16 * dpr);
      ctx.fillStyle = det.tile[0] === "0" ? "#ff7b7b" : unsure ? "#ffd27a" : "#fff";
      ctx.fillText(label, ox + lx + 3 * dpr, oy + ly - 4 * dpr);
    });
  }

  function showHand(res) {
    // the hand only (the row and the melds set apart), not the rest of the photo
    const p = res && res.proposal;
    const extra = new Set((p && p.extra) || []);
    const order = (res && res.rows ? res.rows.flat() : []).filter((i) => res.tiles[i] && res.tiles[i].tile !== "back" && !extra.has(i));
    clear(rowTiles, order.map((i) => {
      const det = res.tiles[i];
      const unsure = Boolean(det.unsure);
      return h("span", { class: unsure ? "hand-tile uncertain" : "hand-tile", "data-tile": det.tile, title: tileName(det.tile) }, tileImg(det.tile, { alt: tileName(det.tile) + (unsure ? t("camera.uncertain") : "") }));
    }));
  }

  async function loop() {
    while (running) {
      if (!video.videoWidth || video.readyState < 2) {
        if (performance.now() - opened > 10_000) clear(status, t("camera.dark"));
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const s = Math.min(1, FRAME_LONG_SIDE / Math.max(video.videoWidth, video.videoHeight));
      frame.width = Math.round(video.videoWidth * s);
      frame.height = Math.round(video.videoHeight * s);
      frame.getContext("2d").drawImage(video, 0, 0, frame.width, frame.height);
      let out;
      try {
        out = await reader.read(frame);
      } catch (err) {
        if (!running) return;
        clear(status, err instanceof OfflineError ? t("camera.offline") : t("camera.read_failed", { message: err.message }));
        await new Promise((r) => setTimeout(r, 1500));
        continue;
      }
      if (!running) return;
      frames++;
      screen.dataset.frames = String(frames);
      screen.dataset.path = out.path;
      const { res } = out;
      draw(res);
      showHand(res);
      // the streak counts readings of one complete hand, whichever path read them: a change of path
      // (the phone's models ready, the network cut) carries it on
      const key = handKey(res.proposal);
      const differs = key && lastKey && key !== lastKey;
      stable = key && key === lastKey ? stable + 1 : key ? 1 : 0;
      lastKey = key;
      const [waiting, note] = frameNote(res, key, differs, stable);
      screen.dataset.waiting = waiting;
      clear(status, `${pathLabel(out.path)} · ${note}`);
      if (stable >= STABLE_FRAMES) { await capture(res); return; }
      const offNow = offKey(res);
      off = offNow && offNow === lastOff ? off + 1 : offNow ? 1 : 0;
      lastOff = offNow;
      if (takeOff && offNow) { await toPhoto(res); return; }
      if (offNow && !takeOff) {
        useFrame.textContent = t(`camera.use_${offNow.split("|")[0]}`);
        useFrame.dataset.off = offNow.split("|")[0];
      }
      useFrame.hidden = off < STABLE_FRAMES && !takeOff;
    }
  }

  async function capture(res) {
    stop();
    if (navigator.vibrate) try { navigator.vibrate(80); } catch { /* not allowed here */ }
    const ms = Math.round(performance.now() - opened);
    screen.dataset.state = "captured";
    screen.dataset.captureMs = String(ms);
    const blob = await new Promise((resolve) => frame.toBlob(resolve, "image/jpeg", 0.92));
    const still = h("img", { src: URL.createObjectURL(blob), alt: t("camera.captured_frame") });
    video.replaceWith(still);
    const size = [frame.width, frame.height];
    usePhoto(blob, res, size);  // the photo screen keeps it: every tile correctable by tap
    clear(status, t("camera.captured"));
    const correct = h("a", { href: "#/photo", class: "btn btn-block", "data-testid": "camera-correct" }, t("camera.correct"));
    const again = h("button", { type: "button", class: "btn-block", onclick: () => window.dispatchEvent(new HashChangeEvent("hashchange")) }, t("camera.again"));
    clear(after, h("div", { class: "row" }, correct, again));
    // score it straight away, both ways (ron or tsumo is not in the picture), as a fresh hand: only
    // the session's settings (rule set, seat, round) are kept, never an earlier hand's riichi or dora
    const hand = handFromDetections(res, initialDets(res), null);
    const box = h("div", { "data-testid": "camera-result", "aria-live": "polite" });
    after.prepend(box);
    const t0 = performance.now();
    await scoreBothWays(box, hand);
    screen.dataset.scoreMs = String(Math.round(performance.now() - t0));
    if (box.isConnected) box.scrollIntoView({ block: "start" });  // the scores, not the frozen frame, are what comes next
  }

  /** The frame just read, one tile short or over, to the photo screen: its tiles correctable
   * there, and the tiles that would complete the hand, or the tile to leave out, offered (photo.js). */
  async function toPhoto(res) {
    stop();
    const blob = await new Promise((resolve) => frame.toBlob(resolve, "image/jpeg", 0.92));
    usePhoto(blob, res, [frame.width, frame.height]);
    location.hash = "#/photo";
  }

  clear(view, h("h1", { class: "visually-hidden" }, t("camera.title")),
    h("section", { class: "card" },
      h("h2", {}, t("camera.title")),
      h("p", { class: "hint" }, t("camera.hint")),
      screen),
    h("section", { class: "card" }, modeControl, h("p", { class: "hint" },
      h("a", { href: "#/photo" }, t("camera.photo_instead"))))
  );
  screen.append(stage, status, row, useFrame, after);

  if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    screen.dataset.state = "no-camera";
    clear(status, h("span", { class: "banner error", role: "alert", "data-testid": "camera-error" }, cameraProblem(null)));
    return stop;
  }
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: false, video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } },
    });
  } catch (err) {
    screen.dataset.state = "no-camera";
    clear(status, h("span", { class: "banner error", role: "alert", "data-testid": "camera-error" }, cameraProblem(err)));
    return stop;
  }
  if (!running) { stop(); return stop; }
  video.srcObject = stream;
  video.play().catch(() => {});  // not awaited: some browsers settle it only once frames flow
  screen.dataset.state = "live";
  loop();
  return stop;
}
