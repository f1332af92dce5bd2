// @ts-check
// The app's entry: routes screens by the URL fragment, applies the theme, registers the service worker.
// Each screen's module is imported when its screen is first shown, so a first visit downloads only
// the screen it opens (the shell preloads the Score screen's modules, see templates/index.html).
import { clear, h } from "./core/util.js";
import * as store from "./core/store.js";
import { loadLanguage, setLanguage, lang, t } from "./core/i18n.js";

const screens = {
  score: () => import("./score/quick.js"),
  waits: () => import("./score/waits.js"),
  photo: () => import("./photo/photo.js"),
  camera: () => import("./photo/camera.js"),
  tables: () => import("./tables/tables.js"),
  events: () => import("./events/events.js"),
};
const loaded = {};
const load = (module) => (loaded[module] ? Promise.resolve(loaded[module]) : screens[module]().then((m) => (loaded[module] = m)));
/** `name`'s screen function from its module: loaded on first use, then called at once (as when every
 * module was imported up front), so a screen draws as soon as it did before. */
const screen = (module, name) => (...args) => (loaded[module] ? loaded[module][name](...args) : load(module).then((m) => m[name](...args)));
const scoreScreen = screen("score", "scoreScreen");
const waitsScreen = screen("waits", "waitsScreen");
const photoScreen = screen("photo", "photoScreen");
const cameraScreen = screen("camera", "cameraScreen");
const tablesScreen = screen("tables", "tablesScreen");
const tableScreen = screen("tables", "tableScreen");
const eventsScreen = screen("events", "eventsScreen");
const eventScreen = screen("events", "eventScreen");
/** Send the hands recorded offline; the tables module is loaded only when some are waiting. */
function flushQueue() {
  if (store.queue().length && navigator.onLine) load("tables").then((m) => m.flushQueue()).catch((err) => console.warn(err));
}

const root = document.getElementById("view");
// Each visit to a screen renders into a fresh container, so a screen still loading when the player
// moves on (awaiting the network) cannot draw over the next one; its cleanup runs when it settles.
let view = root;
/** @type {(() => void)|null} */
let leaving = null;  // cleanup of the current screen (timers, the camera)
let visit = 0;

/** @type {Array<[RegExp, (m: RegExpMatchArray) => unknown, string]>} the URL fragment, what draws it, its tab */
const routes = [
  [/^#?\/?$/, () => scoreScreen(view), "score"],
  [/^#\/score$/, () => scoreScreen(view), "score"],
  [/^#\/photo$/, () => photoScreen(view), "photo"],
  [/^#\/camera$/, () => cameraScreen(view), "photo"],
  [/^#\/waits$/, () => waitsScreen(view), "waits"],
  [/^#\/tables$/, () => tablesScreen(view), "tables"],
  [/^#\/table\/([^/?]+)(?:\?(.*))?$/, (m) => tableScreen(view, decodeURIComponent(m[1]), new URLSearchParams(m[2] || "")), "tables"],
  [/^#\/events$/, () => eventsScreen(view), "tables"],
  [/^#\/event\/([^/?]+)(?:\?(.*))?$/, (m) => eventScreen(view, decodeURIComponent(m[1]), new URLSearchParams(m[2] || "")), "tables"],
];

async function route() {
  if (leaving) { try { leaving(); } catch { /* ignore */ } leaving = null; }
  const hash = location.hash || "#/score";
  const mine = ++visit;
  const el = view = h("div", { class: "screen" });
  root.replaceChildren(el);
  for (const [re, show, tab] of routes) {
    const m = hash.match(re);
    if (!m) continue;
    for (const a of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-nav]"))) {
      if (a.dataset.nav === tab) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
    }
    window.scrollTo(0, 0);
    try {
      const cleanup = /** @type {(() => void)|null} */ ((await show(m)) || null);
      if (mine === visit) leaving = cleanup;
      else if (cleanup) try { cleanup(); } catch { /* ignore */ }
    } catch (err) {
      console.warn(err);
      clear(el, h("div", { class: "banner error", role: "alert" }, t("screen.failed", { message: err.message })));
    }
    return;
  }
  clear(el, h("div", { class: "card" }, h("h2", {}, t("notfound.title")), h("p", {}, t("notfound.text")), h("a", { href: "#/score" }, t("notfound.link"))));
}

/** /t/<code>#token=... (a share link) opens the table screen; /e/<code> an event's. */
function fromShareLink() {
  const e = location.pathname.match(/^\/e\/([^/]+)$/);
  if (e) { history.replaceState(null, "", `/#/event/${e[1]}`); return; }
  const m = location.pathname.match(/^\/t\/([^/]+)$/);
  if (!m) return;
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const token = params.get("token");
  history.replaceState(null, "", `/#/table/${m[1]}${token ? "?token=" + encodeURIComponent(token) : ""}`);
}

const THEMES = ["auto", "light", "dark"];
function applyTheme(theme) {
  if (theme === "auto") document.documentElement.removeAttribute("data-theme");
  else document.documentElement.dataset.theme = theme;
  const btn = document.getElementById("theme-toggle");
  btn.setAttribute("aria-label", t("theme.label", { theme: t(`theme.${theme}`) }));
  btn.textContent = theme === "light" ? "☀" : theme === "dark" ? "☾" : "◐";
}

function showNetwork() {
  const el = document.getElementById("net-status");
  el.textContent = navigator.onLine ? "" : t("offline");
  el.classList.toggle("offline", !navigator.onLine);
}

/** The words of the page around the screens: tab bar, skip link, language switch. */
function applyLanguage() {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n]"))) el.textContent = t(el.dataset.i18n);
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n-label]"))) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  const btn = document.getElementById("lang-toggle");
  btn.textContent = t("lang.switch");
  btn.setAttribute("lang", lang === "ja" ? "en" : "ja");
  btn.setAttribute("aria-label", t("lang.switch_label"));
  btn.dataset.lang = lang;
  document.querySelector('meta[name="description"]').setAttribute("content", t("app.description"));
}

await loadLanguage();
applyLanguage();
document.getElementById("lang-toggle").addEventListener("click", async () => {
  await setLanguage(lang === "ja" ? "en" : "ja");
  applyLanguage();
  applyTheme(store.get("theme", "auto"));
  showNetwork();
  route();
});
applyTheme(store.get("theme", "auto"));
document.getElementById("theme-toggle").addEventListener("click", () => {
  const next = THEMES[(THEMES.indexOf(store.get("theme", "auto")) + 1) % THEMES.length];
  store.set("theme", next);
  applyTheme(next);
});
window.addEventListener("online", () => { showNetwork(); flushQueue(); });
window.addEventListener("offline", showNetwork);
window.addEventListener("hashchange", route);
showNetwork();
fromShareLink();
route();
flushQueue();

// The service worker is registered once the page has loaded, so its downloads never compete with
// the first screen's.
function registerWorker() {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((err) => console.warn("service worker not registered:", err.message));
}
/** After the first screen: on a link the browser says is free, the offline engine downloads by
 * itself (offline.js); a phone that goes offline with it prepared starts it before the next score. */
const idle = (fn) => (window.requestIdleCallback ? window.requestIdleCallback(fn, { timeout: 5000 }) : setTimeout(fn, 500));
function afterLoad() {
  // the other screens' modules, once the first screen is drawn: the next tab opens without a wait;
  // then the service worker, which finds them in the HTTP cache (a 304 each) rather than fetching
  // them alongside the page
  idle(async () => {
    for (const module of Object.keys(screens)) await load(module).catch(() => {});
    if ("serviceWorker" in navigator) registerWorker();
  });
  import("./core/offline.js").then((offline) => {
    offline.prepareOnFreeLink().catch((err) => console.warn("offline scoring not prepared:", err.message));
    // made ready before: start the engine while the phone is idle, so an offline score is quick
    idle(() => offline.warmOffline());
    window.addEventListener("offline", () => offline.warmOffline());
  });
}
if (document.readyState === "complete") afterLoad();
else window.addEventListener("load", afterLoad, { once: true });
