// What the phone app's DOM-free modules need from a browser, for node --test: localStorage (a Map
// behind the Storage methods the app uses) and the message catalogues fetched from static/i18n.
import { readFile } from "node:fs/promises";

export class MemoryStorage {
  constructor() { this.items = new Map(); }
  getItem(key) { return this.items.has(key) ? this.items.get(key) : null; }
  setItem(key, value) { this.items.set(key, String(value)); }
  removeItem(key) { this.items.delete(key); }
  clear() { this.items.clear(); }
}

globalThis.localStorage = new MemoryStorage();
globalThis.document ??= { documentElement: {} };

/** fetch() for file: URLs (the catalogues i18n.js asks for relative to itself). */
globalThis.fetch = async (url) => {
  const href = String(url);
  if (!href.startsWith("file:")) throw new TypeError(`no network in tests: ${href}`);
  try {
    const text = await readFile(new URL(href), "utf-8");
    return new Response(text, { status: 200, headers: { "Content-Type": "application/json" } });
  } catch {
    return new Response("", { status: 404 });
  }
};
