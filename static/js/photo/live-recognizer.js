// @ts-check
// Where a camera frame is read: on the phone (the networks in recognize-worker.js, ONNX Runtime
// Web; what they saw decided by recognition/reading.py in the offline worker, Pyodide) or on the
// server (POST /api/recognize, the same reading.py after the same networks). "auto" uses the phone once its models are loaded and a frame takes
// at most FAST_ENOUGH_MS there, the server otherwise; offline it is always the phone.
import { t } from "../core/i18n.js";
import { api } from "../core/api.js";
import { bridge } from "../core/worker-bridge.js";
import { offlineEngine } from "../core/offline.js";

export const FAST_ENOUGH_MS = 900;
const LOAD_TIMEOUT_MS = 120_000;
const FRAME_TIMEOUT_MS = 30_000;
const SERVER_GAP_MS = 2100;  // the server allows 30 photos a minute per phone (RATE_LIMITS in app.py)

let shared = null;  // one worker per page: the models load once

/** The `boxes` ask for a detect answer `d`: its map, for reading.py to box. */
const mapAsk = (d, info) => ({ map: d.map, gh: d.gh, gw: d.gw, scale: d.scale, width: d.width, height: d.height,
  settings: info.settings, stride: info.stride });

class PhoneReader {
  constructor() {
    this.state = "loading";  // loading | ready | unavailable
    this.message = "";
    this.threads = 0;
    this.times = [];
    this.info = null;
    this.coarse = null;  // the last frame's pass for tiles filling it: {frame, found, source?: the frame its crops are cut from}
    try {
      this.nets = bridge(new Worker(new URL("./recognize-worker.js", import.meta.url), { type: "module" }));
      this.reader = offlineEngine();  // recognition/reading.py, run by Pyodide
    } catch (err) {
      this.state = "unavailable";
      this.message = "this browser cannot read frames on the phone";
      this.ready = Promise.resolve(false);
      return;
    }
    this.ready = new Promise((resolve) => {
      // a download that never ends must not hold the camera: the server reads meanwhile
      const timer = setTimeout(() => this.state === "loading" && this.fail("the on-phone models took too long to load", resolve), LOAD_TIMEOUT_MS);
      Promise.all([this.nets.call("init"), this.reader.call("warm")]).then(([{ threads, info }]) => {
        clearTimeout(timer);
        if (this.state !== "loading") return;
        this.state = "ready";
        this.threads = threads;
        this.info = info;
        resolve(true);
      }, (err) => { clearTimeout(timer); this.fail(err.message, resolve); });
    });
  }

  fail(message, resolve) {
    this.state = "unavailable";
    this.message = message;
    if (this.nets) this.nets.terminate(message);
    if (resolve) resolve(false);
    if (shared === this) shared = null;  // the next camera screen tries again
  }

  /** The boxes of a detected frame `det` (its first map): the passes recognition/reading.py plans
   * (another detector scale), merged there, and the first map's faint peaks: {boxes, faint}.
   * `again` (a `read` answer's retile: {sides, region}) gives the passes instead, and where their boxes count. */
  async detectAll(det, again = null) {
    const { info } = this;
    const st = info.settings;
    const { width, height } = det;
    const mapOf = (d) => mapAsk(d, info);
    // a pass over part of the frame (`window`): its boxes brought into the frame's pixels
    const decode = (d, transfer = true, window = null) => this.reader.call("boxes",
      window ? { ...mapOf(d), window, frame_width: width, frame_height: height } : mapOf(d), transfer ? [d.map.buffer] : []);
    const seekFaint = st.faint_threshold != null;  // which faint peaks count is reading.py's to say
    // the first map is read again for faint boxes below, and by a retile (`again`): copied, not handed over
    let boxes = await decode(det, false);
    // which passes to run, and which boxes to merge, grow or drop, is reading.py's to say
    const passes = [{ boxes, scale: det.scale }];
    const sides = again ? again.sides
      : st.multi_scale ? await this.reader.call("rescan", { boxes, scale: det.scale, width, height, settings: st }) : [];
    // which part of the frame each pass sees is reading.py's to say too
    const windows = again && again.windows && again.windows.length ? again.windows : sides.length
      ? await this.reader.call("windows", { boxes, scale: det.scale, width, height, sides, settings: st }) : [];
    for (const [k, longSide] of sides.entries()) {
      const win = windows[k];
      const more = await this.nets.call("detect", win ? { frame: det.frame, long_side: win.long_side, window: win.window }
        : { frame: det.frame, long_side: longSide });
      passes.push({ boxes: await decode(more, true, win ? win.window : null), scale: more.scale });
    }
    boxes = await this.reader.call("merge", { passes, settings: st, ...(again ? { region: again.region, largest: again.largest } : {}) });
    // faint peaks of the first map where a tile set apart stands or among the tiles: read with
    // the boxes, kept by reading.py only if read as tiles there
    const faint = seekFaint ? await this.reader.call("faint", { ...mapOf(det), boxes }) : [];
    return { boxes, faint };
  }

  /** Classify the `boxes` of a detected frame `det` (the last `faint` of them faint peaks), read
   * again the crops reading.py asks for, and read the hand: the `read` answer (the frame turned by
   * `turn` before it was detected, if it was; `retiled`: the retile answer whose passes gave its
   * boxes, and it is not asked again; `light`: the frame as taken, shrunk, {thumb, tw, th, width,
   * height}, on which reading.py judges how its faces are lit). */
  async classifyRead(det, boxes, faint, turn, retiled = false, light = null) {
    const { info } = this;
    const st = info.settings;
    const { width, height } = det;
    const rereadUnsure = st.half_turn_unsure != null;  // which crops, if any, is reading.py's to say
    // tall faces, unsure boxes grown, unsure boxes shrunk and grown, boxes by their halves: reading.rereads
    const readAgain = !!st.tall_faces || st.grow_unsure != null || st.scale_unsure != null || st.split_wide != null
      || st.split_unsure != null;
    // the frame kept after its last crops: reading.py may have it read again turned a quarter, or
    // detected once more for tiles filling it
    const keepLast = st.quarter_turn != null || st.whole_tiles != null;
    const { logits, sharpness } = await this.nets.call("classify", { frame: det.frame, boxes, keep: rereadUnsure || readAgain || keepLast });
    const ask = { boxes, labels: info.labels, reject_label: info.reject_label, settings: st };
    // logits are copied to the reader, not handed over, until the last call: each call needs them
    let turnLogits = null;
    if (rereadUnsure) {  // the crops read unsurely, read again turned half round
      const { idx } = await this.reader.call("unsure", { ...ask, logits });
      turnLogits = idx.length ? (await this.nets.call("classify", {
        frame: det.frame, boxes: idx.map((i) => boxes[i]), turned: true, keep: readAgain || keepLast })).logits : null;
    }
    let tallLogits = null;
    if (readAgain) {
      // a frame whose tiles lie turned a quarter is read again turned, its rereads not needed: reading.py says so here
      const tall = await this.reader.call("tall", { ...ask, logits, turn_logits: turnLogits, width, height, turn, retiled, faint });
      if (tall.quarter) return tall;
      const { crops } = tall;
      // none to read again: the kept frame is let go when later frames come (the worker keeps three)
      tallLogits = crops.length ? (await this.nets.call("classify", { frame: det.frame, boxes: crops, tta: false, keep: keepLast })).logits : null;
    }
    const transfer = [logits, turnLogits, tallLogits].filter((l) => l).map((l) => l.buffer);
    // the thumb is copied, not handed over: a frame read again (turned a quarter, retiled) needs it too
    const lit = light ? { thumb: light.thumb, tw: light.tw, th: light.th, frame: [light.width, light.height] } : {};
    return this.reader.call("read", { ...ask, logits, turn_logits: turnLogits, tall_logits: tallLogits,
      width, height, faint, sharpness: sharpness ? Array.from(sharpness) : null, turn, scale: det.scale, retiled, ...lit }, transfer);
  }

  /** Read an ImageBitmap (transferred to the worker) or raw RGBA pixels {pixels, width, height}:
   * the networks run in recognize-worker.js, recognition/reading.py decides what they saw, and
   * which extra passes to run (the frame's colours corrected for the light, another detector
   * scale, the frame turned to level a row aslant or turned a quarter tops up, the lower part of
   * a tall face, the passes planned again by the tiles' size): this only runs the passes it is
   * told to and hands their outputs back. */
  async read(frame) {
    const t0 = performance.now();
    const timer = setTimeout(() => this.fail("reading a frame on the phone took too long"), FRAME_TIMEOUT_MS);
    try {
      const { info } = this;
      const st = info.settings;
      // the frame shrunk, on which reading.py judges the light's colour and the faces' angle (its size is reading.py's too)
      const thumb = st.colour_cast != null || (st.straighten != null && st.face_tilt != null) || st.unlit_blank != null
        ? await this.reader.call("thumb", { width: frame.width, height: frame.height, settings: st }) : null;
      let det = frame instanceof ImageBitmap ? await this.nets.call("detect", { bitmap: frame, thumb }, [frame])
        : await this.nets.call("detect", { ...frame, thumb });
      const taken = [det.width, det.height];
      const shrunk = det.thumb;  // the frame as taken, at thumb's size (RGB)
      let { boxes, faint } = await this.detectAll(det);
      // the light tints the tiles: the frame's colours corrected and read again (whether, and how, is reading.py's)
      const table = thumb && st.colour_cast != null ? await this.reader.call("cast", { thumb: shrunk, tw: thumb[0], th: thumb[1], boxes,
        width: det.width, height: det.height, settings: st }) : null;
      // the frame as taken, kept when its colours are corrected: that light was judged on the first
      // boxes, which may be a face's pieces, and faces found filling the frame are read in their own
      // (Settings.whole_light; reading.py's colour_cast judges it: readWhole)
      let asTaken = null;
      if (table) {
        const keep = st.whole_tiles != null && !!st.whole_light;
        const tinted = await this.nets.call("tint", { frame: det.frame, table, keep });
        if (keep) asTaken = { frame: det.frame, thumb: shrunk, tw: thumb[0], th: thumb[1] };
        det = await this.nets.call("detect", { frame: tinted.frame });
        ({ boxes, faint } = await this.detectAll(det));
      }
      // a row of tiles aslant: the frame turned to level it and read again (whether, and how, is reading.py's)
      // (or, with no row to go by, the faces aslant: judged on the thumb)
      const turn = st.straighten != null
        ? await this.reader.call("straighten", { boxes, width: det.width, height: det.height, settings: st,
          ...(thumb ? { thumb: shrunk, tw: thumb[0], th: thumb[1] } : {}) }) : null;
      const light = thumb && st.unlit_blank != null ? { thumb: shrunk, tw: thumb[0], th: thumb[1], width: taken[0], height: taken[1] } : null;
      if (turn) {
        asTaken = null;  // a frame turned is not the frame as taken
        const turned = await this.nets.call("turn", { frame: det.frame, matrix: turn.matrix, width: turn.turned[0], height: turn.turned[1] });
        det = await this.nets.call("detect", { frame: turned.frame });
        ({ boxes, faint } = await this.detectAll(det));
      }
      const t1 = performance.now();
      let now = turn;  // the turn of the frame `det` holds
      let result = await this.classifyRead(det, boxes.concat(faint), faint.length, now, false, light);
      if (result.quarter) {
        // the tiles' tops point left or right (a hand seen from a seat beside it): the frame turned
        // tops up and read again (whether, and which way, is reading.py's)
        const { step } = result.quarter;
        asTaken = null;
        const turned = await this.nets.call("turn", { frame: det.frame, matrix: step.matrix, width: step.turned[0], height: step.turned[1] });
        det = await this.nets.call("detect", { frame: turned.frame });
        ({ boxes, faint } = await this.detectAll(det));
        now = result.quarter.turn;
        result = await this.classifyRead(det, boxes.concat(faint), faint.length, now, false, light);
      }
      // one or two tiles filling the frame, looked for at a coarse scale before a retile: read
      // whole, the retile's finer passes are not needed (whether is reading.py's)
      if (result.whole) result = await this.readWhole(det, result, now, asTaken);
      if (result.retile) {
        // the tiles read measure smaller than the boxes the passes were planned by (a kettle and
        // cupboards set that size): detected again as the tiles' size plans (whether, and where, is reading.py's)
        ({ boxes, faint } = await this.detectAll(det, result.retile));  // the frame's first pass, kept
        result = await this.classifyRead(det, boxes.concat(faint), faint.length, now, result.retile, light);
        if (result.whole) result = await this.readWhole(det, result, now, asTaken);
      }
      const t2 = performance.now();
      const r = (v) => Math.round(v * 10) / 10;
      result.image_size = taken;
      result.timing_ms = { detect: r(t1 - t0), classify: r(t2 - t1), total: r(t2 - t0) };
      this.times = [...this.times.slice(-4), t2 - t0];
      return result;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The `read` answer `result` of frame `det` (turned by `turn`), or the one or two tiles filling
   * the frame that a pass at the coarse scale reading.py asks for (`result.whole`) finds in its place
   * (whether they count is reading.py's: whole_tiles). The pass's boxes are kept for the frame, and
   * its crops by the networks' worker: asked again after a retile, neither is made again. `asTaken`:
   * the frame as taken {frame, thumb, tw, th}, when `det`'s colours were corrected for a light
   * judged on what may be the faces' pieces: the faces are read in the light judged on them. */
  async readWhole(det, result, turn, asTaken = null) {
    const { info } = this;
    const st = info.settings;
    const { long_side: longSide, tiles } = result.whole;
    delete result.whole;
    if (!this.coarse || this.coarse.frame !== det.frame) {
      const pass = await this.nets.call("detect", { frame: det.frame, long_side: longSide, shrunk: true });
      this.coarse = { frame: det.frame, found: await this.reader.call("boxes", mapAsk(pass, info), [pass.map.buffer]) };
    }
    const { found } = this.coarse;
    const { width, height } = det;
    const pick = found.length ? await this.reader.call("whole", { boxes: found, tiles, width, height, settings: st }) : null;
    if (!pick) return result;
    const boxes = pick.map((i) => found[i]);
    if (!this.coarse.source) {  // the frame the faces' crops are cut from
      this.coarse.source = det.frame;
      if (asTaken) {
        const table = await this.reader.call("cast", { thumb: asTaken.thumb, tw: asTaken.tw, th: asTaken.th, boxes, width, height,
          settings: st, fewest: 1 });
        this.coarse.source = table ? (await this.nets.call("tint", { frame: asTaken.frame, table, keep: true })).frame : asTaken.frame;
      }
    }
    // the frame kept: a retile may follow
    const { logits, sharpness } = await this.nets.call("classify", { frame: this.coarse.source, boxes, tta: false, keep: true });
    const whole = await this.reader.call("whole", { boxes, logits, labels: info.labels, reject_label: info.reject_label,
      settings: st, width, height, turn, sharpness: sharpness ? Array.from(sharpness) : null }, [logits.buffer]);
    return whole || result;
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
