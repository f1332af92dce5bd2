// @ts-check
// Sharing corrected photos to improve recognition (opt-in, off by default, remembered on this
// phone): the photo goes to POST /api/contributions with the tiles as the player confirmed them.
// This phone keeps each shared photo's id and delete token, lists them and can delete any of them.
import { h, clear } from "../core/util.js";
import { api, ApiError, OfflineError } from "../core/api.js";
import * as store from "../core/store.js";
import { errorText, t, lang } from "../core/i18n.js";

export const isOn = () => store.get("contribute", false) === true;
export const setOn = (on) => store.set("contribute", Boolean(on));
/** This phone's shared photos: [{id, token, created_at, tiles}] */
export const mine = () => store.get("contributions", []);

/** The labels of a photo: every tile the player kept, with the box it was found in (the photo's pixels). */
export function labelsFrom(res, dets) {
  const boxes = res.tiles.map((d, i) => ({ tile: dets[i].tile, box: d.box })).filter((_, i) => !dets[i].ignored);
  return { boxes, image_size: res.image_size };
}

/** Send `photo` ({blob, res, dets}); remembers it on the phone and marks photo.shared. */
export async function share(photo) {
  const labels = labelsFrom(photo.res, photo.dets);
  const form = new FormData();
  form.append("image", photo.blob, "photo.jpg");
  form.append("labels", JSON.stringify(labels));
  const out = await api("POST", "/api/contributions", form);
  const entry = { id: out.id, token: out.delete_token, created_at: out.created_at, tiles: out.boxes.length };
  store.set("contributions", [...mine(), entry]);
  photo.shared = out.id;
  return entry;
}

export async function remove(entry) {
  try {
    await api("DELETE", `/api/contributions/${encodeURIComponent(entry.id)}`, undefined, { headers: { Authorization: `Bearer ${entry.token}` } });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;  // already gone from the server
  }
  store.set("contributions", mine().filter((e) => e.id !== entry.id));
}

function message(err) {
  if (err instanceof OfflineError) return t("share.offline");
  return t("share.failed", { message: errorText(err) });
}

const when = (iso) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
};

/** The card on the photo screen. `current()` gives the photo on screen ({blob, res, dets, shared}) or null.
 *  Returns {el, refresh, shareIfOn}: call refresh() when the photo changes. */
export function contributeCard(current) {
  const el = h("section", { class: "card", "data-testid": "contribute" });
  let note = null;  // {kind, text}
  let shown = null;  // the photo the note is about

  async function send(photo) {
    if (photo.sharing || photo.shared) return;
    photo.sharing = true;
    note = { kind: "info", text: t("share.sharing") };
    refresh();
    try {
      await share(photo);
      note = null;  // the button says so
    } catch (err) {
      note = { kind: "error", text: message(err) };
    } finally {
      photo.sharing = false;
    }
    refresh();
  }

  async function drop(entry, button) {
    button.disabled = true;
    try {
      await remove(entry);
      note = { kind: "info", text: t("share.deleted") };
    } catch (err) {
      note = { kind: "error", text: err instanceof OfflineError ? t("share.delete_offline") : t("share.delete_failed", { message: errorText(err) }) };
    }
    refresh();
  }

  function refresh() {
    const on = isOn();
    const photo = current();
    if (photo !== shown) { note = null; shown = photo; }
    const input = h("input", { type: "checkbox", checked: on, "data-testid": "contribute-toggle" });
    input.addEventListener("change", () => { setOn(input.checked); note = null; refresh(); });
    const list = mine();
    clear(el,
      h("label", { class: "opt-in" }, input, t("share.opt_in")),
      on ? h("p", { class: "hint" }, t("share.explain")) : null,
      on && photo ? h("button", {
        type: "button", class: "btn-block", "data-testid": "contribute-send", disabled: Boolean(photo.shared || photo.sharing),
        onclick: () => send(photo),
      }, photo.shared ? t("share.thanks") : t("share.button")) : null,
      note ? h("p", { class: `banner ${note.kind}`, role: note.kind === "error" ? "alert" : "status" }, note.text) : null,
      list.length ? h("div", {},
        h("h3", {}, t("share.yours")),
        h("ul", { class: "shared-list", "data-testid": "contributions" }, list.map((entry) => {
          const label = `${when(entry.created_at)} · ${t(entry.tiles === 1 ? "share.tiles_one" : "share.tiles", { n: entry.tiles })}`;
          const button = h("button", { type: "button", class: "btn-danger", "aria-label": t("share.delete_label", { label }) }, t("share.delete"));
          button.addEventListener("click", () => drop(entry, button));
          return h("li", { "data-id": entry.id }, h("span", {}, label), button);
        }))) : null);
  }

  /** Share the photo on screen if the player chose to and it is not shared yet (when they go on to score it). */
  function shareIfOn() {
    const photo = current();
    if (isOn() && photo && !photo.shared && labelsFrom(photo.res, photo.dets).boxes.length) send(photo);
  }

  refresh();
  return { el, refresh, shareIfOn };
}
