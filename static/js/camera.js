// Live camera: the rear camera's view with the recognised tiles drawn over it and the proposed hand
// under it. When the same complete hand has been read in STABLE_FRAMES frames in a row, the app
// captures it by itself: a short vibration, the frame freezes, the hand is scored, and every tile
// stays correctable on the photo screen.
import { h, clear, segmented } from "./util.js";
import { api, OfflineError, yakuNames } from "./api.js";
import { tileImg, tileName, sortTiles, toMpsz } from "./tiles.js";
import { LiveRecognizer } from "./live-recognizer.js";
import { handFromDetections, usePhoto } from "./photo.js";
import { createConditions, defaultConditions } from "./quick.js";
import { resultCard } from "./results.js";
import * as store from "./store.js";

export const STABLE_FRAMES = 3;
export const FRAME_LONG_SIDE = 640;  // frames are downscaled on the phone to this before reading
const UNCERTAIN = 0.75;
const MODES = [["auto", "Automatic"], ["phone", "On this phone"], ["server", "On the server"]];

/** Why the camera cannot open, in words for the player. */
export function cameraProblem(err) {
  if (!window.isSecureContext) {
    return "The live camera needs a secure connection: open Tenbou through its https:// address (or on this device as http://127.0.0.1). You can still take or choose a photo.";
  }
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return "This browser cannot show a live camera. Take or choose a photo instead.";
  const name = err && err.name;
  if (name === "NotAllowedError" || name === "SecurityError") return "Tenbou may not use the camera. Allow the camera for this site in the browser's settings, then try again — or take or choose a photo.";
  if (name === "NotFoundError" || name === "OverconstrainedError") return "No camera was found on this device. Choose a photo instead.";
  if (name === "NotReadableError") return "The camera is busy in another app. Close it and try again.";
  return "The camera could not be opened. Take or choose a photo instead.";
}

/** The key of a hand, to tell "the same hand" across frames. */
const handKey = (p) => p && p.complete ? `${p.hand}|${p.win_tile}|${(p.melds || []).map((m) => m.type + m.tiles).join(",")}` : null;

export async function cameraScreen(view) {
  const mode = store.get("camera-mode", "auto");
  const reader = new LiveRecognizer(mode);
  const screen = h("section", { class: "camera-screen", "data-testid": "camera", "data-state": "starting" });
  const video = h("video", { playsinline: "", muted: "", autoplay: "", "aria-label": "Live camera view" });
  video.muted = true;
  const overlay = h("canvas", { class: "camera-overlay", "aria-hidden": "true" });
  const stage = h("div", { class: "camera-stage" }, video, overlay);
  const status = h("p", { class: "hint", "aria-live": "polite", "data-testid": "camera-status" }, "Opening the camera…");
  const row = h("div", { class: "det-list camera-hand", "aria-label": "The hand read so far", "data-testid": "camera-hand" });
  const after = h("div", { "aria-live": "polite" });
  const frame = document.createElement("canvas");
  let stream = null, running = true, stable = 0, lastKey = null, frames = 0;
  const opened = performance.now();

  const modeControl = segmented("camera-mode", MODES, mode, (value) => { store.set("camera-mode", value); reader.mode = value; },
    { legend: "Read the frames" });

  function stop() {
    running = false;
    if (stream) for (const t of stream.getTracks()) t.stop();
    stream = null;
  }

  function pathLabel(path) {
    if (path === "phone") return `Reading on this phone${reader.phone.threads > 1 ? ` (${reader.phone.threads} threads)` : ""}`;
    if (path === "server") return "Reading on the server";
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
    const flagged = new Set((res.proposal && res.proposal.uncertain) || []);
    ctx.font = `700 ${Math.round(13 * dpr)}px system-ui, sans-serif`;
    ctx.lineWidth = 2 * dpr;
    res.tiles.forEach((t, i) => {
      const [x1, y1, x2, y2] = t.box.map((v) => v * k);
      const unsure = t.confidence < UNCERTAIN || flagged.has(i);
      ctx.strokeStyle = unsure ? "#ffb400" : "#3ee08f";
      ctx.setLineDash(unsure ? [6 * dpr, 4 * dpr] : []);
      ctx.strokeRect(ox + x1, oy + y1, x2 - x1, y2 - y1);
      const label = t.tile === "back" ? "back" : t.tile[0] === "0" ? `5${t.tile[1]}` : t.tile;
      ctx.setLineDash([]);
      ctx.fillStyle = "rgba(0,0,0,.65)";
      ctx.fillRect(ox + x1, oy + y1 - 16 * dpr, ctx.measureText(label).width + 6 * dpr, 16 * dpr);
      ctx.fillStyle = t.tile[0] === "0" ? "#ff7b7b" : unsure ? "#ffd27a" : "#fff";
      ctx.fillText(label, ox + x1 + 3 * dpr, oy + y1 - 4 * dpr);
    });
  }

  function showHand(res) {
    const p = res && res.proposal;
    const order = (res && res.rows ? res.rows.flat() : []).filter((i) => res.tiles[i] && res.tiles[i].tile !== "back");
    const flagged = new Set((p && p.uncertain) || []);
    clear(row, order.map((i) => {
      const t = res.tiles[i];
      const unsure = t.confidence < UNCERTAIN || flagged.has(i);
      return h("span", { class: unsure ? "uncertain" : "", "data-tile": t.tile, title: tileName(t.tile) }, tileImg(t.tile, { alt: tileName(t.tile) + (unsure ? " (uncertain)" : "") }));
    }));
  }

  async function loop() {
    while (running) {
      if (!video.videoWidth || video.readyState < 2) {
        if (performance.now() - opened > 10_000) clear(status, "The camera shows no picture yet. If it stays dark, close other apps using the camera, or take a photo instead.");
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
        clear(status, err instanceof OfflineError ? "You are offline and this phone cannot read frames itself." : `Cannot read the frames: ${err.message}`);
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
      const key = handKey(res.proposal);
      stable = key && key === lastKey ? stable + 1 : key ? 1 : 0;
      lastKey = key;
      const n = res.tiles.filter((t) => t.tile !== "back").length;
      const note = res.proposal && res.proposal.complete ? `Complete hand — hold still (${stable}/${STABLE_FRAMES})` :
        n ? ((res.proposal && res.proposal.message) || `${n} tiles`) : "Point the camera at the hand: all tiles face up, in one row.";
      clear(status, `${pathLabel(out.path)} · ${note}`);
      if (stable >= STABLE_FRAMES) { await capture(res); return; }
    }
  }

  async function capture(res) {
    stop();
    if (navigator.vibrate) try { navigator.vibrate(80); } catch { /* not allowed here */ }
    const ms = Math.round(performance.now() - opened);
    screen.dataset.state = "captured";
    screen.dataset.captureMs = String(ms);
    const blob = await new Promise((resolve) => frame.toBlob(resolve, "image/jpeg", 0.92));
    const still = h("img", { src: URL.createObjectURL(blob), alt: "The captured frame" });
    video.replaceWith(still);
    const size = [frame.width, frame.height];
    usePhoto(blob, res, size);  // the photo screen keeps it: every tile correctable by tap
    clear(status, "Hand captured.");
    const correct = h("a", { href: "#/photo", class: "btn btn-block", "data-testid": "camera-correct" }, "Check or correct the tiles");
    const again = h("button", { type: "button", class: "btn-block", onclick: () => window.dispatchEvent(new HashChangeEvent("hashchange")) }, "Scan again");
    clear(after, h("div", { class: "row" }, correct, again));
    // score it straight away, with the situation last set on the score screen
    const dets = res.tiles.map((t) => ({ tile: t.tile, ignored: t.face_down || t.tile === "back" }));
    const state = handFromDetections(res, dets, null);
    store.set("quick", { ...(store.get("quick") || {}), hand: { ...state, dora: [], ura: [] } });
    const cond = { ...defaultConditions(), ...((store.get("quick") || {}).cond || {}) };
    const win = state.winIndex;
    const rest = sortTiles(state.concealed.filter((_, i) => i !== win));
    const req = {
      ...createConditions(cond).request(),
      hand: toMpsz(win === null ? rest : [...rest, state.concealed[win]]),
      melds: state.melds.map((m) => ({ type: m.type, tiles: toMpsz(m.tiles) })),
    };
    if (win !== null) req.win_tile = state.concealed[win];
    const box = h("div", { "data-testid": "camera-result" });
    after.prepend(box);
    try {
      const names = await yakuNames().catch(() => ({}));
      clear(box, resultCard(await api("POST", "/api/score", req), { yakuNames: names }));
    } catch (err) {
      clear(box, h("div", { class: "banner error", role: "alert", "data-testid": "camera-score-error" },
        err instanceof OfflineError ? "Captured. You are offline: scoring needs the server — the hand is kept on the score screen for when you are back online." : err.message));
    }
  }

  clear(view, h("h1", { class: "visually-hidden" }, "Live camera"),
    h("section", { class: "card" },
      h("h2", {}, "Live camera"),
      h("p", { class: "hint" }, "Hold the phone over the hand, tiles face up in one row. The hand is captured by itself when it has been read the same way a few times."),
      screen),
    h("section", { class: "card" }, modeControl, h("p", { class: "hint" },
      h("a", { href: "#/photo" }, "Take or choose a photo instead")))
  );
  screen.append(stage, status, row, after);

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
