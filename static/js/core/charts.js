// @ts-check
// Charts drawn as SVG on the phone (no network, no library): lines over time and placement bars.
// Each drawn series carries its numbers in data-values, so what is drawn can be read back.
import { t } from "./i18n.js";
import { h } from "./util.js";

// eight colours told apart in light and dark themes (and by most colour-blind eyes), then dashes
export const COLOURS = ["#1f77b4", "#d95f02", "#1b9e77", "#c2185b", "#7570b3", "#a6761d", "#e6ab02", "#666666"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3"];
const PLACE_COLOURS = ["#1b9e77", "#7fc97f", "#fdc086", "#d95f02"];

export function seriesStyle(i) {
  return { stroke: COLOURS[i % COLOURS.length], dash: DASHES[Math.floor(i / COLOURS.length) % DASHES.length] };
}

function niceStep(range) {
  const raw = range / 4;
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  return [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) || mag * 10;
}

/** A line chart: series [{name, values}], x labels, a title for screen readers.
 * @param {{title: string, series: Array<{name: string, values: number[]}>, xLabels?: string[],
 *          format?: (n: number) => string, testid?: string, zero?: number|null}} opts */
export function lineChart({ title, series, xLabels = [], format = String, testid, zero = null }) {
  const W = 340, H = 200, L = 44, R = 8, T = 10, B = 26;
  const all = series.flatMap((s) => s.values).concat(zero === null ? [] : [zero]);
  let lo = Math.min(...all), hi = Math.max(...all);
  if (!isFinite(lo)) { lo = 0; hi = 1; }
  if (lo === hi) { lo -= 1; hi += 1; }
  const step = niceStep(hi - lo);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const n = Math.max(1, ...series.map((s) => s.values.length)) - 1;
  const x = (i) => L + (n ? (i * (W - L - R)) / n : (W - L - R) / 2);
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const svg = h("svg:svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title, "data-testid": testid });
  svg.append(h("svg:title", {}, title));
  for (let v = lo; v <= hi + step / 2; v += step) {
    svg.append(h("svg:line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === zero ? "axis zero" : "grid" }));
    svg.append(h("svg:text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" }, format(Math.round(v * 10) / 10)));
  }
  const every = Math.max(1, Math.ceil((n + 1) / 8));
  xLabels.forEach((label, i) => {
    if (i % every === 0 || i === n) svg.append(h("svg:text", { x: x(i), y: H - 8, "text-anchor": "middle", class: "tick" }, label));
  });
  series.forEach((s, i) => {
    const st = seriesStyle(i);
    const pts = s.values.map((v, j) => `${x(j).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const line = h("svg:polyline", { points: pts, fill: "none", stroke: st.stroke, "stroke-width": 2.2, "stroke-dasharray": st.dash || null,
      "data-series": s.name, "data-values": s.values.join(","), class: "series" });
    line.append(h("svg:title", {}, `${s.name}: ${s.values.map(format).join(", ")}`));
    svg.append(line);
    if (s.values.length) {
      const last = s.values.length - 1;
      svg.append(h("svg:circle", { cx: x(last), cy: y(s.values[last]), r: 3, fill: st.stroke }));
    }
  });
  return h("figure", { class: "chart-box" }, svg, legend(series.map((s) => s.name)));
}

export function legend(names) {
  return h("figcaption", { class: "legend" }, names.map((name, i) => {
    const st = seriesStyle(i);
    return h("span", {}, h("svg:svg", { viewBox: "0 0 24 8", width: 24, height: 8, "aria-hidden": "true" },
      h("svg:line", { x1: 0, x2: 24, y1: 4, y2: 4, stroke: st.stroke, "stroke-width": 3, "stroke-dasharray": st.dash || null })), name);
  }));
}

/** Placement distribution: one stacked bar per player (1st to 4th counts). */
export function placeBars({ title, rows, testid }) {
  const W = 340, rowH = 22, L = 80, R = 30, T = 4;
  const H = T + rows.length * rowH + 20;
  const most = Math.max(1, ...rows.map((r) => r.places.reduce((a, b) => a + b, 0)));
  const svg = h("svg:svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title, "data-testid": testid });
  svg.append(h("svg:title", {}, title));
  rows.forEach((r, i) => {
    const yTop = T + i * rowH;
    svg.append(h("svg:text", { x: L - 6, y: yTop + 15, "text-anchor": "end", class: "tick" }, r.name.length > 11 ? r.name.slice(0, 10) + "…" : r.name));
    const g = h("svg:g", { "data-series": r.name, "data-values": r.places.join(",") });
    let x0 = L;
    r.places.forEach((c, p) => {
      const w = (c * (W - L - R)) / most;
      if (c) {
        const rect = h("svg:rect", { x: x0, y: yTop + 3, width: w, height: rowH - 6, fill: PLACE_COLOURS[p] });
        rect.append(h("svg:title", {}, `${r.name}: ${c} × ${t(`place.${p + 1}`)}`));
        g.append(rect);
        if (w > 12) g.append(h("svg:text", { x: x0 + w / 2, y: yTop + 15, "text-anchor": "middle", class: "bar-label" }, String(c)));
      }
      x0 += w;
    });
    svg.append(g);
  });
  const key = h("figcaption", { class: "legend" }, [1, 2, 3, 4].map((n) => t(`place.${n}`)).map((label, p) =>
    h("span", {}, h("svg:svg", { viewBox: "0 0 12 12", width: 12, height: 12, "aria-hidden": "true" }, h("svg:rect", { width: 12, height: 12, fill: PLACE_COLOURS[p] })), label)));
  return h("figure", { class: "chart-box" }, svg, key);
}
