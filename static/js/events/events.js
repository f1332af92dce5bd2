// @ts-check
// Events (club nights, league seasons): create one, seat its rounds, follow its games, and show
// the standings, statistics and charts. Talks to /api/events; the games are ordinary tables.
import { h, clear, segmented, toast, sheet, whenReleased } from "../core/util.js";
import { api, ApiError, OfflineError, rulesets, yakuNames } from "../core/api.js";
import { lineChart, placeBars } from "../core/charts.js";
import { qrSvg } from "../core/qr.js";
import { ruleEditor } from "../core/rule-editor.js";
import { yakuName } from "../core/results.js";
import * as store from "../core/store.js";
import { errorText, t, rulesetName } from "../core/i18n.js";
import { applyChanges, pct, playersFrom, signed } from "./model.js";

const POLL_MS = 5000;
const ord = () => [1, 2, 3, 4].map((n) => t(`place.${n}`));

// --- list and create -----------------------------------------------------------------------------

export async function eventsScreen(view) {
  const known = Object.values(store.events()).sort((a, b) => (b.seen_at || 0) - (a.seen_at || 0));
  let list = [];
  try { list = (await rulesets()).rulesets; } catch { list = [{ id: "wrr", title: "World Riichi Rules" }]; }
  const err = h("div", { "aria-live": "polite" });
  const name = h("input", { type: "text", name: "event-name", maxlength: 80, required: true, "data-testid": "event-name", placeholder: t("event.name_example") });
  const rulesetSelect = h("select", { name: "event-ruleset", "data-testid": "event-ruleset" }, list.map((r) => h("option", { value: r.id }, rulesetName(r.id, r.title))));
  const overrides = {};
  const rulesBox = h("div");
  let gameLength = "east_south";
  const setLength = (v) => {
    gameLength = v;
    if (v === "east") overrides.game_length = "east"; else delete overrides.game_length;
    const sel = rulesBox.querySelector('select[name="rule-game_length"]');
    if (sel) sel.value = v;
  };
  const drawRules = () => {
    for (const k of Object.keys(overrides)) delete overrides[k];
    const rs = list.find((r) => r.id === rulesetSelect.value);
    clear(rulesBox, rs && rs.parameters ? ruleEditor(rs.parameters, overrides, rs.groups) : null);
    setLength(gameLength);
  };
  rulesetSelect.addEventListener("change", drawRules);
  const lengthPick = segmented("event-length", [["east_south", t("length.east_south")], ["east", t("length.east")]], "east_south", setLength, { legend: t("length.legend") });
  const players = h("textarea", { name: "event-players", rows: 8, "data-testid": "event-players", placeholder: t("event.one_a_line") });
  let seating = "balanced";
  const seatingPick = segmented("event-seating", [["balanced", t("event.balanced")], ["random", t("event.random")]], seating, (v) => { seating = v; }, { legend: t("event.seating") });
  const rounds = h("input", { type: "number", name: "event-rounds", min: 0, max: 100, value: "0", inputmode: "numeric", "data-testid": "event-rounds" });
  const form = h("form", { class: "card", "aria-label": t("event.new") },
    h("h2", {}, t("event.new_title")),
    h("label", { class: "field" }, h("span", {}, t("event.name")), name),
    h("label", { class: "field" }, h("span", {}, t("score.ruleset")), rulesetSelect),
    h("fieldset", {}, h("legend", {}, t("length.legend")), lengthPick),
    h("details", {}, h("summary", {}, t("rules.adjust")), rulesBox),
    h("label", { class: "field" }, h("span", {}, t("event.players")), players),
    h("fieldset", {}, h("legend", {}, t("event.seating_each")), seatingPick),
    h("label", { class: "field" }, h("span", {}, t("event.rounds")), rounds),
    err,
    h("button", { type: "submit", class: "btn-primary btn-block", "data-testid": "create-event" }, t("event.create")));
  drawRules();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    clear(err);
    try {
      const ev = await api("POST", "/api/events", {
        name: name.value, ruleset: rulesetSelect.value, rules: { ...overrides },
        players: playersFrom(players.value), settings: { seating, rounds_planned: Number(rounds.value) || 0 },
      });
      store.saveEvent({ id: ev.id, share_code: ev.share_code, organiser_token: ev.organiser_token, name: ev.name, seen_at: Date.now() });
      location.hash = `#/event/${ev.id}`;
    } catch (ex) {
      clear(err, h("div", { class: "banner error", role: "alert" }, ex instanceof OfflineError ? t("event.create_offline") : errorText(ex)));
    }
  });
  clear(view, h("h1", { class: "visually-hidden" }, t("event.events")),
    h("section", { class: "card", "aria-label": t("event.yours") }, h("h2", {}, t("event.clubs")),
      known.length ? h("ul", { class: "table-list" }, known.map((ev) => h("li", {},
        h("a", { href: `#/event/${ev.id}` }, h("b", {}, ev.name || ev.id), h("br"),
          h("span", { class: "small muted" }, ev.organiser_token ? t("event.organise") : t("event.following"))))))
        : h("p", { class: "muted" }, t("event.none_yet"))),
    form);
}

// --- one event -----------------------------------------------------------------------------------

export async function eventScreen(view, key, params) {
  let entry = store.event(key);
  let ev = entry && entry.doc;
  let timer = null;
  let stopped = false;
  let tab = "standings";
  const token = params.get("token");
  if (token) entry = store.saveEvent({ id: key, organiser_token: token });
  const body = h("div");
  const pressed = whenReleased(body);  // the server's news is drawn after a finger is lifted, not under it
  const names = await yakuNames().catch(() => ({}));

  async function load() {
    try {
      if (ev && ev.id && ev.tag) {
        // only what changed since the document we hold: 304 when nothing did (a few hundred bytes
        // after a hand, where the whole document of a big event is hundreds of KB)
        const resp = await api("GET", `/api/events/${encodeURIComponent(ev.id)}/changes?since=${encodeURIComponent(ev.tag)}`,
          undefined, { raw: true });
        if (resp.status === 304) return false;
        if (resp.ok) {
          const delta = await resp.json();
          const fresh = delta.full || applyChanges(ev, delta);
          const changed = fresh.tag !== ev.tag;
          ev = fresh;
          entry = store.saveEvent({ id: fresh.id, share_code: fresh.share_code, name: fresh.name, doc: fresh, seen_at: Date.now() });
          return changed;
        }
        // anything else (an older server without it...): read the whole document as before
      }
      const resp = await api("GET", `/api/events/${encodeURIComponent(entry && entry.id ? entry.id : key)}`, undefined,
        { raw: true, headers: ev && ev.tag ? { "If-None-Match": `"${ev.tag}"` } : {} });
      if (resp.status === 304) return false;
      if (!resp.ok) {
        const data = await resp.json().catch(() => null);
        throw new ApiError(resp.status, data && data.error, data);
      }
      const fresh = await resp.json();
      const changed = !ev || fresh.tag !== ev.tag;
      ev = fresh;
      entry = store.saveEvent({ id: fresh.id, share_code: fresh.share_code, name: fresh.name, doc: fresh, seen_at: Date.now() });
      return changed;
    } catch (err) {
      if (err instanceof OfflineError) return false;
      throw err;
    }
  }

  const organiser = () => Boolean(entry && entry.organiser_token);
  const auth = () => ({ Authorization: `Bearer ${entry.organiser_token}` });

  async function write(method, path, payload, done) {
    try {
      // made on the event as shown: a change made meanwhile (or by this tap's lost twin) is a 409
      const seen = Number.isInteger(ev.version) ? { "If-Match": `"${ev.version}"` } : {};   // a copy kept from before: none
      const doc = await api(method, path, payload, { headers: { ...auth(), ...seen } });
      for (const g of doc.new_games || []) {
        store.saveTable({ id: g.id, share_code: g.share_code, edit_token: g.edit_token, seen_at: Date.now() });
      }
      ev = doc;
      entry = store.saveEvent({ id: doc.id, doc, seen_at: Date.now() });
      render();
      if (done) toast(done);
    } catch (err) {
      toast(err instanceof OfflineError ? t("event.offline") : errorText(err));
      // done already (a round seated by the tap before, whose answer was lost): show the event as it is
      if (err instanceof ApiError && err.status === 409) { try { if (await load()) render(); } catch { /* the next check shows it */ } }
    }
  }

  function tableLink(g) {
    const known = store.table(g.id);
    const carry = (!known || !known.edit_token) && organiser() ? `?token=${encodeURIComponent(entry.organiser_token)}` : "";
    return `#/table/${g.id}${carry}`;
  }

  function render() {
    if (stopped) return;
    if (!ev) { clear(body, h("div", { class: "banner error", role: "alert" }, t("event.not_found"))); return; }
    const tabs = segmented("event-tab", [["standings", t("event.standings")], ["games", t("event.games")], ["stats", t("event.stats")]], tab, (v) => { tab = v; render(); }, { legend: t("event.show") });
    clear(body,
      h("h1", { class: "visually-hidden" }, t("event.event")),
      h("div", { class: "row" }, h("h2", { class: "grow", "data-testid": "event-title" }, ev.name),
        h("span", { class: "small muted" }, `${rulesetName(ev.ruleset, ev.ruleset_title)}${ev.rules && ev.rules.game_length === "east" ? ` · ${t("length.east")}` : ""}${organiser() ? "" : ` · ${t("event.following")}`}`)),
      tabs,
      tab === "standings" ? standingsCard() : null,
      tab === "standings" ? chartsCard() : null,
      tab === "games" ? gamesCard() : null,
      tab === "stats" ? statsCard() : null,
      toolsCard());
  }

  function standingsCard() {
    const counted = ev.games.filter((g) => g.finished && !g.excluded).length;
    return h("section", { class: "card", "aria-label": t("event.standings"), "data-testid": "event-standings" },
      h("h2", {}, t(counted === 1 ? "event.standings_one" : "event.standings_n", { n: counted })),
      h("div", { class: "scroll-x" }, h("table", { class: "standings" },
        // the four placement counts share one column (1st·2nd·3rd·4th): every column fits at 360 px in both languages
        h("thead", {}, h("tr", {}, ["#", t("col.player"), t("col.total"), t("col.games"), t("col.avg")].map((c) => h("th", { scope: "col" }, c)),
          h("th", { scope: "col", "aria-label": ord().join(" · ") }, t("col.places")))),
        h("tbody", {}, ev.standings.map((r) => h("tr", { "data-player": r.name },
          h("td", {}, r.rank === null ? "–" : String(r.rank)), h("td", {}, r.name),
          h("td", { "data-col": "total" }, h("b", {}, signed(r.total))), h("td", { "data-col": "games" }, String(r.games)),
          h("td", { "data-col": "average" }, r.average_place === null ? "–" : r.average_place.toFixed(2)),
          h("td", { "data-col": "places", class: "places" }, r.places.map((c, i) => [i ? h("span", { class: "muted", "aria-hidden": "true" }, "·") : null,
            h("span", { "data-col": `place-${i + 1}`, title: ord()[i] }, String(c))]))))))),
      h("p", { class: "small muted" }, t("event.total_note"), " ",
        ev.tie_break === "placements" ? t("event.tie_placements") : t("event.tie_shared")));
  }

  function chartsCard() {
    const played = ev.standings.filter((r) => r.games > 0);
    if (!ev.progress.length) return h("section", { class: "card" }, h("h2", {}, t("event.charts")), h("p", { class: "muted" }, t("event.charts_later")));
    const series = played.map((r) => ({ name: r.name, values: [0, ...ev.progress.map((p) => p.totals[r.player])] }));
    return h("section", { class: "card", "aria-label": t("event.charts") },
      h("h2", {}, t("event.over_games")),
      lineChart({ title: t("event.chart_totals"), series, xLabels: ["", ...ev.progress.map((_, i) => String(i + 1))], format: signed, testid: "chart-progress", zero: 0 }),
      h("h2", {}, t("event.placements")),
      placeBars({ title: t("event.chart_places"), rows: played, testid: "chart-places" }));
  }

  function gamesCard() {
    const byRound = new Map();
    for (const g of ev.games) {
      const k = g.round || 0;
      if (!byRound.has(k)) byRound.set(k, []);
      byRound.get(k).push(g);
    }
    const gameItem = (g) => {
      const res = g.finished ? g.standings.map((r) => `${g.players[r.seat]} ${signed(r.final)}`).join(", ") : `${g.players.join(" · ")} · ${t(g.hands_played === 1 ? "event.hands_one" : "event.hands", { n: g.hands_played })}`;
      return h("li", { class: g.excluded ? "excluded" : "", "data-game": g.id },
        h("div", { class: "row" }, h("a", { class: "grow", href: tableLink(g) }, h("b", {}, t("event.game", { n: g.number })), g.finished ? "" : t("event.playing"), g.excluded ? t("event.not_counted") : ""),
          organiser() && g.finished ? h("label", { class: "chip" }, h("input", { type: "checkbox", checked: !g.excluded, "data-testid": `count-${g.number}`,
            onchange: (e) => write("PUT", `/api/events/${ev.id}/games/${g.id}`, { excluded: !e.target.checked }, e.target.checked ? t("event.counts_again") : t("event.no_longer_counts")) }), t("event.counts")) : null),
        h("p", { class: "small" }, res),
        g.hands_played ? h("details", { class: "small" }, h("summary", {}, t("event.game_stats")), h("div", { class: "scroll-x" }, h("table", { class: "standings" },
          h("thead", {}, h("tr", {}, [t("col.player"), t("col.wins"), t("col.deal_ins"), t("score.riichi"), t("col.tenpai_draws")].map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, g.players.map((p, seat) => { const s = g.stats[seat]; return h("tr", {}, h("td", {}, p), h("td", {}, String(s.wins)),
            h("td", {}, String(s.deal_ins)), h("td", {}, String(s.riichi)), h("td", {}, `${s.tenpai_at_draw}/${s.draws}`)); }))))) : null);
    };
    const nextRound = ev.rounds.length + 1;
    const planned = (ev.settings && ev.settings.rounds_planned) || 0;
    const absent = new Set();
    // an event planned for N rounds never offers round N+1 (the server refuses it too, naming `rounds`)
    const roundForm = organiser() && planned && nextRound > planned ? h("p", { class: "small muted", "data-testid": "rounds-done" }, t("event.all_rounds_seated", { n: planned }))
      : organiser() ? h("div", {},
      h("details", {}, h("summary", {}, t("event.who_here")),
        h("div", { class: "toggles" }, ev.players.map((p, i) => h("label", { class: "chip" }, h("input", { type: "checkbox", checked: true, onchange: (e) => { if (e.target.checked) absent.delete(i); else absent.add(i); } }), p)))),
      h("button", { type: "button", class: "btn-primary btn-block", "data-testid": "draw-round", onclick: () => {
        const present = ev.players.map((_, i) => i).filter((i) => !absent.has(i));
        // the round meant: a tap sent again after its answer was lost seats no second round
        write("POST", `/api/events/${ev.id}/rounds`, { present, round: nextRound }, t("event.round_seated", { n: nextRound }));
      } }, t("event.seat_round", { n: nextRound }))) : null;
    return h("section", { class: "card", "aria-label": t("event.games"), "data-testid": "event-games" },
      h("h2", {}, t("event.rounds_games")),
      roundForm,
      ev.rounds.length ? h("p", { class: "small muted", "data-testid": "repeat-meetings" }, t("event.repeats", { n: ev.repeat_meetings })) : null,
      [...byRound.entries()].sort((a, b) => a[0] - b[0]).map(([r, games]) => {
        const rnd = ev.rounds.find((x) => x.number === r);
        return h("div", { "data-round": String(r) }, h("h3", {}, r ? t("event.round", { n: r }) : t("event.other_games")),
          rnd && rnd.byes.length ? h("p", { class: "small muted" }, t("event.sitting_out", { names: rnd.byes.map((p) => ev.players[p]).join(t("list.sep")) })) : null,
          h("ul", { class: "game-list" }, games.map(gameItem)));
      }),
      ev.games.length ? null : h("p", { class: "muted" }, organiser() ? t("event.seat_first") : t("event.no_games")));
  }

  function statsCard() {
    const cols = [t("col.player"), t("col.hands"), t("col.win"), t("col.deal_in"), t("score.riichi"), t("result.tsumo"), t("col.avg_win"), t("col.avg_deal_in"), t("col.tenpai_draws")];
    const rows = ev.players.map((name, i) => ({ name, s: ev.stats[i] })).filter((r) => r.s.hands > 0);
    const yakuRows = rows.filter((r) => r.s.scored_wins > 0);
    return h("section", { class: "card", "aria-label": t("event.stats"), "data-testid": "event-stats" },
      h("h2", {}, t("event.stats")),
      h("div", { class: "scroll-x" }, h("table", { class: "standings" },
        h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, rows.map(({ name, s }) => h("tr", { "data-player": name },
          h("td", {}, name), h("td", { "data-col": "hands" }, String(s.hands)), h("td", { "data-col": "win" }, pct(s.win_rate)),
          h("td", { "data-col": "deal-in" }, pct(s.deal_in_rate)), h("td", { "data-col": "riichi" }, pct(s.riichi_rate)),
          h("td", { "data-col": "tsumo" }, pct(s.tsumo_share)), h("td", { "data-col": "avg-win" }, s.average_win === null ? "–" : String(s.average_win)),
          h("td", { "data-col": "avg-deal-in" }, s.average_deal_in === null ? "–" : String(s.average_deal_in)),
          h("td", { "data-col": "tenpai" }, `${s.tenpai_at_draw}/${s.draws}`)))))),
      h("p", { class: "small muted" }, t("event.rates_note")),
      yakuRows.length ? [h("h3", {}, t("event.yaku")),
        yakuRows.map(({ name, s }) => h("p", { class: "small", "data-yaku-for": name }, h("b", {}, t(s.scored_wins === 1 ? "event.wins_one" : "event.wins", { name, n: s.scored_wins })),
          Object.entries(s.yaku).map(([id, n]) => `${yakuName({ id, name: names[id] })} ${n}`).join(t("list.sep"))))] : null);
  }

  function toolsCard() {
    return h("section", { class: "card", "aria-label": t("event.tools") }, h("h2", {}, t("event.share_export")),
      h("div", { class: "actions-grid" },
        h("button", { type: "button", "data-testid": "event-share", onclick: shareSheet }, t("table.share")),
        h("a", { class: "btn", href: `/events/${ev.id}/print`, target: "_blank", "data-testid": "event-print" }, t("event.print")),
        h("a", { class: "btn", href: `/api/events/${ev.id}/export?format=csv`, download: `tenbou-event-${ev.id}.csv` }, t("table.export_csv")),
        h("a", { class: "btn", href: `/api/events/${ev.id}/export?format=json`, download: `tenbou-event-${ev.id}.json` }, t("table.export_json"))),
      organiser() ? addPlayers() : null);
  }

  function addPlayers() {
    const input = h("input", { type: "text", name: "add-player", maxlength: 40, placeholder: t("event.name"), "aria-label": t("event.new_player") });
    return h("form", { class: "row", onsubmit: (e) => {
      e.preventDefault();
      if (!input.value.trim()) return;
      write("PATCH", `/api/events/${ev.id}`, { players: [...ev.players, input.value.trim()] }, t("event.player_added"));
    } }, h("div", { class: "grow" }, input), h("button", { type: "submit" }, t("event.add_player")));
  }

  function shareSheet() {
    const s = sheet(t("event.share_title"));
    const link = `${location.origin}/e/${ev.share_code}`;
    s.body.append(h("div", { class: "qr", "data-link": link }, qrSvg(link)),
      h("p", { class: "share-link", "data-testid": "event-share-link" }, link),
      h("p", { class: "hint" }, t("event.share_hint")));
  }

  async function tick() {
    if (stopped) return;
    try { if (document.visibilityState === "visible" && (await load())) pressed.soon(render); } catch { /* keep the last state */ }
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(tick, POLL_MS);
  }

  clear(view, body);
  const drawn = Boolean(ev);
  if (ev) render(); else clear(body, h("p", { class: "card" }, t("event.loading")));
  let changed;
  try { changed = await load(); } catch (err) {
    if (!ev) { clear(body, h("div", { class: "banner error", role: "alert" }, err instanceof ApiError && err.status === 404 ? t("event.no_such") : errorText(err))); pressed.stop(); return null; }
    changed = false;
  }
  if (token) history.replaceState(null, "", `#/event/${ev.id}`);
  // drawn again only if the server's copy differs from the phone's, and not under a finger: a
  // button replaced between a finger's down and up never gets the tap
  if (changed || !drawn || token) pressed.soon(render);
  timer = setTimeout(tick, POLL_MS);
  return () => { stopped = true; clearTimeout(timer); pressed.stop(); };
}
