// @ts-check
// Small DOM helpers shared by every screen.
import { t } from "./i18n.js";

/** h("button", {class: "x", onclick: fn, "aria-label": "..."}, child, ...) -> Element */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith("svg:");
  const el = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    else if (!svg && key in el && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let uid = 0;
export const newId = (prefix = "id") => `${prefix}-${++uid}`;

/** A group of radio buttons drawn as a segmented control.
 * @param {string} name @param {Array<Array<any>>} options [value, label, {disabled?, title?}?] each
 * @param {unknown} value @param {(value: any) => void} onchange
 * @param {{legend?: string, disabled?: boolean}} [opts] */
export function segmented(name, options, value, onchange, { legend, disabled } = {}) {
  const box = h("fieldset", { class: "seg" }, legend ? h("legend", { class: "visually-hidden" }, legend) : null);
  for (const [val, label, extra] of options) {
    const input = h("input", { type: "radio", name, value: val, checked: val === value, disabled: disabled || (extra && extra.disabled) });
    input.addEventListener("change", () => input.checked && onchange(val));
    box.append(h("label", { title: extra && extra.title }, input, label));
  }
  return box;
}

/** A checkbox drawn as a chip. */
export function chip(label, checked, onchange, attrs = {}) {
  const input = h("input", { type: "checkbox", checked, ...attrs });
  input.addEventListener("change", () => onchange(input.checked));
  return h("label", { class: "chip" }, input, label);
}

/** A - n + stepper for small counts (honba, riichi sticks). */
export function stepper(label, value, onchange, { min = 0, max = 99 } = {}) {
  const out = h("output", { "aria-live": "polite" }, String(value));
  const set = (v) => { v = Math.max(min, Math.min(max, v)); out.textContent = String(v); value = v; onchange(v); };
  const el = h("div", { class: "stepper", role: "group", "aria-label": label },
    h("span", { class: "small" }, label),
    h("button", { type: "button", "aria-label": t("stepper.less", { label }), onclick: () => set(value - 1) }, "−"),
    out,
    h("button", { type: "button", "aria-label": t("stepper.more", { label }), onclick: () => set(value + 1) }, "+"));
  /** Show a value set from outside (a new hand) without calling onchange. */
  el.setValue = (v) => { value = v; out.textContent = String(v); };
  return el;
}

/** @type {ReturnType<typeof setTimeout>|undefined} */
let toastTimer;
/** @param {string} message @param {number} [ms] */
export function toast(message, ms = 3500) {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.hidden = false;
  placeToast(el);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, ms);
}

/** The toast never covers a control marked data-toast-avoid (the offline-engine button): over one, it
 * moves to the top of the screen. Checked when it shows and as the page scrolls under it. */
function placeToast(el) {
  el.classList.remove("toast-top");
  const box = el.getBoundingClientRect();
  const covers = [...document.querySelectorAll("[data-toast-avoid]")].some((c) => {
    const r = c.getBoundingClientRect();
    return r.width && r.height && r.left < box.right && r.right > box.left && r.top < box.bottom && r.bottom > box.top;
  });
  if (covers) el.classList.add("toast-top");
}
if (typeof window !== "undefined") {
  window.addEventListener("scroll", () => { const el = document.getElementById("toast"); if (el && !el.hidden) placeToast(el); }, { passive: true });
}

/** Points as the table writes them: plain digits, a sign when asked. */
export function points(n, signed = false) {
  const s = String(Math.abs(n));
  if (!signed) return (n < 0 ? "-" : "") + s;
  return (n > 0 ? "+" : n < 0 ? "−" : "±") + s;
}

/** A modal sheet built on <dialog>; returns {dialog, body, foot, close}.
 * @param {string} title @param {{onclose?: () => void, steady?: boolean}} [opts] */
export function sheet(title, { onclose, steady = false } = {}) {
  const titleId = newId("sheet-title");
  const body = h("div", { class: "sheet-body" });
  const foot = h("div", { class: "sheet-foot" });
  // steady: the sheet is as tall as a sheet gets, so that what it shows growing or shrinking (a
  // preview that arrives) never moves what lies above it under a finger about to tap
  const dialog = h("dialog", { "aria-labelledby": titleId, class: steady ? "sheet-steady" : null });
  const close = () => { dialog.close(); };
  dialog.append(
    h("div", { class: "sheet-head" }, h("h2", { id: titleId }, title),
      h("button", { type: "button", class: "icon-btn", "aria-label": t("sheet.close"), onclick: close }, "✕")),
    body, foot);
  dialog.addEventListener("close", () => { dialog.remove(); onclose && onclose(); });
  document.body.append(dialog);
  dialog.showModal();
  return { dialog, body, foot, close };
}

/** Redraws a screen did not ask for (a poll brought the server's news) wait while a finger or the
 * mouse is pressed on `el`, until the click that follows has been dispatched: a button replaced
 * between a press and its release never gets the tap. `soon(fn)` runs `fn` at once when nothing
 * is pressed, else once after the release (the last `fn` given wins); a press held longer than
 * `holdMs` (a finger resting on the screen) lets it run anyway. `stop()` removes the listeners.
 * @param {Element} el @param {number} [holdMs]
 * @returns {{soon: (fn: () => void) => void, stop: () => void}} */
export function whenReleased(el, holdMs = 5000) {
  let pressed = false;
  /** @type {(() => void) | null} */ let pending = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */ let timer;
  const run = () => {
    clearTimeout(timer);
    pressed = false;
    const fn = pending;
    pending = null;
    if (fn) fn();
  };
  const after = (ms) => { clearTimeout(timer); timer = setTimeout(run, ms); };
  const down = () => { pressed = true; after(holdMs); };
  // the click comes after the pointer's "up", in the same task for a mouse and soon after for a
  // finger; it bubbles to the document after the button's own handler has run
  const up = () => { if (pressed) after(250); };
  const clicked = () => { if (pressed) after(0); };
  const cancel = () => { if (pressed) run(); };  // the browser took the gesture (a scroll): no click comes
  el.addEventListener("pointerdown", down);
  document.addEventListener("pointerup", up);
  document.addEventListener("click", clicked);
  document.addEventListener("pointercancel", cancel);
  return {
    soon(fn) { if (pressed) pending = fn; else fn(); },
    stop() {
      clearTimeout(timer);
      pending = null;
      el.removeEventListener("pointerdown", down);
      document.removeEventListener("pointerup", up);
      document.removeEventListener("click", clicked);
      document.removeEventListener("pointercancel", cancel);
    },
  };
}

export function fmtTime(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}
