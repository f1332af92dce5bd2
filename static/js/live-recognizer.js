// Where a camera frame is read: on the phone (recognize-worker.js, ONNX Runtime Web) or on the
// server (POST /api/recognize). "auto" uses the phone once its models are loaded and a frame takes
// at most FAST_ENOUGH_MS there, the server otherwise; offline it is always the phone.
import { t } from "./i18n.js";
import { api } from "./api.js";

export const FAST_ENOUGH_MS = 900;
const LOAD_TIMEOUT_MS = 120_000;
const FRAME_TIMEOUT_MS = 30_000;
const SERVER_GAP_MS = 2100;  // the server allows 30 photos a minute per phone (RATE_LIMITS in app.py)

let shared = null;  // one worker per page: the models load once

class PhoneReader {
  constructor() {
    this.state = "loading";  // loading | ready | unavailable
    this.message = "";
    this.threads = 0;
    this.pending = new Map();
    this.nextId = 1;
    this.times = [];
    try {
      this.worker = new Worker(new URL("./recognize-worker.js", import.meta.url), { type: "module" });
    } catch (err) {
      this.state = "unavailable";
      this.message = "this browser cannot read frames on the phone";
      this.ready = Promise.resolve(false);
      return;
    }
    this.ready = new Promise((resolve) => {
      this.worker.onmessage = (event) => {
        const msg = event.data;
        if (msg.type === "ready") { this.state = "ready"; this.threads = msg.threads; resolve(true); return; }
        if (msg.type === "unavailable") { this.state = "unavailable"; this.message = msg.message; resolve(false); return; }
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        if (msg.type === "result") p.resolve(msg.result); else p.reject(new Error(msg.message));
      };
      this.worker.onerror = (event) => this.fail(event.message || "the on-phone reader stopped", resolve);
      // a download that never ends must not hold the camera: the server reads meanwhile
      setTimeout(() => this.state === "loading" && this.fail("the on-phone models took too long to load", resolve), LOAD_TIMEOUT_MS);
    });
    this.worker.postMessage({ type: "init" });
  }

  fail(message, resolve) {
    this.state = "unavailable";
    this.message = message;
    for (const p of this.pending.values()) p.reject(new Error(message));
    this.pending.clear();
    if (this.worker) this.worker.terminate();
    if (resolve) resolve(false);
    if (shared === this) shared = null;  // the next camera screen tries again
  }

  /** Read an ImageBitmap (transferred to the worker) or raw RGBA pixels. */
  read(frame) {
    const id = this.nextId++;
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail("reading a frame on the phone took too long"), FRAME_TIMEOUT_MS);
      this.pending.set(id, { resolve: (v) => { clearTimeout(timer); resolve(v); }, reject: (e) => { clearTimeout(timer); reject(e); } });
      if (frame instanceof ImageBitmap) this.worker.postMessage({ type: "recognize", id, bitmap: frame }, [frame]);
      else this.worker.postMessage({ type: "recognize", id, ...frame });
    }).then((res) => { this.times = [...this.times.slice(-4), performance.now() - t0]; return res; });
  }

  get typicalMs() {
    if (!this.times.length) return 0;
    const s = [...this.times].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
  }
}

export function phoneReader() {
  if (!shared) shared = new PhoneReader();
  return shared;
}

/** Chooses the path per frame. mode: "auto" | "phone" | "server". */
export class LiveRecognizer {
  constructor(mode = "auto") {
    this.mode = mode;
    this._phone = null;  // started when first needed: a phone told to use the server loads no models
    this.lastServer = 0;
    this.path = null;
    if (mode !== "server") this._phone = phoneReader();  // start loading the models now
  }

  get phone() { return this._phone || (this._phone = phoneReader()); }
  set phone(reader) { this._phone = reader; }

  choose() {
    if (navigator.onLine && this.mode === "server") return "server";
    const phoneOk = this.phone.state === "ready";
    if (!navigator.onLine) return phoneOk ? "phone" : null;
    if (this.mode === "phone") return phoneOk ? "phone" : null;
    if (phoneOk && (this.phone.typicalMs === 0 || this.phone.typicalMs <= FAST_ENOUGH_MS)) return "phone";
    return "server";
  }

  /** Recognise the frame on `canvas`; resolves to {path, res} (res shaped as /api/recognize's). */
  async read(canvas) {
    const path = this.choose();
    this.path = path;
    if (path === "phone") return { path, res: await this.phone.read(await createImageBitmap(canvas)) };
    if (path === null) {
      if (this.phone.state === "loading") { await this.phone.ready; return this.read(canvas); }
      throw new Error(!navigator.onLine ? t("camera.offline") : this.phone.message);
    }
    const wait = this.lastServer + SERVER_GAP_MS - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    this.lastServer = performance.now();
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
    const form = new FormData();
    form.append("image", blob, "frame.jpg");
    return { path, res: await api("POST", "/api/recognize", form) };
  }
}
