// @ts-check
// Wait analysis as a request: the Waits screen's and the photo screen's (a 13-tile hand read from a
// photo shows what it waits on).
import { api, OfflineError } from "./api.js";
import * as store from "./store.js";
import { waitsOffline } from "./offline.js";

/** POST /api/waits; with no connection, the same engine on this phone when offline scoring was prepared. */
export async function findWaits(req) {
  try {
    return { res: await api("POST", "/api/waits", req), offline: false };
  } catch (err) {
    if (!(err instanceof OfflineError) || !store.get("offline_scoring")) throw err;
    return { res: await waitsOffline(req), offline: true };
  }
}
