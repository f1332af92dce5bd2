// @ts-check
// House rules in plain words, to set when a table or an event is created: the rule set's parameters
// (GET /api/rulesets) as inputs, the player's changes kept in `overrides`.
import { h, chip } from "./util.js";
import { t, has, ABORT_NAMES } from "./i18n.js";

/** A list item of a rule (an abortive draw, a yakuman pattern) in words. */
export const ITEM_NAMES = new Proxy({}, { get: (_, k) => (typeof k !== "string" ? undefined : has(`item.${k}`) ? t(`item.${k}`) : ABORT_NAMES[k]) });
/** A choice of a rule in words: choice.<rule>.<value> in the catalogue, else choice.<value>. */
function choiceName(rule, value) {
  for (const key of [`choice.${rule}.${value}`, `choice.${value}`]) if (has(key)) return t(key);
  return String(value).replace(/_/g, " ");
}

/** House rules, grouped, in plain words: the common ones first, the rest behind "More rules".
 * The groups and their order are the rule set's own (`groups` of GET /api/rulesets, from the Ruleset
 * fields' metadata); each group's title is rules.group.<id> in the catalogue. The rule texts' clause
 * notes stay out of it (they are in GET /api/rulesets for who wants them). */
export function ruleEditor(parameters, overrides, ruleGroups = []) {
  const row = (name, p) => {
    const id = `rule-${name}`;
    const err = h("p", { class: "field-error", role: "alert", "data-rule-error": name });
    const setValue = (v) => { if (JSON.stringify(v) === JSON.stringify(p.value)) delete overrides[name]; else overrides[name] = v; };
    const label = (has(`rule.${name}`) ? t(`rule.${name}`) : p.label || name.replace(/_/g, " ")).replace(/^./, (c) => c.toUpperCase());
    if (typeof p.value === "boolean") return h("div", {}, chip(label, p.value, setValue, { name: id }), err);
    if (Array.isArray(p.choices)) {
      return h("label", { class: "field" }, h("span", {}, label),
        h("select", { name: id, onchange: (e) => setValue(p.choices.find((c) => String(c) === e.target.value)) },
          p.choices.map((c) => h("option", { value: String(c), selected: c === p.value }, choiceName(name, c)))), err);
    }
    if (Number.isInteger(p.value)) {
      return h("label", { class: "field" }, h("span", {}, label),
        h("input", { type: "number", name: id, value: String(p.value), inputmode: "numeric",
          ...(p.range ? { min: String(p.range.min), max: String(p.range.max), step: String(p.range.step) } : {}),
          onchange: (e) => setValue(Number(e.target.value)) }), err);
    }
    if (Array.isArray(p.value) && Array.isArray(p.items)) {
      const chosen = new Set(p.value);
      return h("fieldset", {}, h("legend", {}, label),
        h("div", { class: "toggles" }, p.items.map((item) => chip(ITEM_NAMES[item] || item.replace(/_/g, " "), chosen.has(item), (on) => {
          if (on) chosen.add(item); else chosen.delete(item);
          setValue(p.items.filter((x) => chosen.has(x)));
        }, { name: `${id}-${item}` }))), err);
    }
    return null;   // a value no simple input fits (e.g. the uma list): kept as the rule set has it
  };
  const placed = new Set(ruleGroups.flatMap((g) => g.parameters));
  const groups = ruleGroups.map((g) => {
    const rows = g.parameters.filter((n) => n in parameters).map((n) => row(n, parameters[n])).filter(Boolean);
    return rows.length ? [h("h3", {}, t(`rules.group.${g.id}`)), rows] : null;
  });
  const rest = Object.entries(parameters).filter(([n]) => !placed.has(n)).map(([n, p]) => row(n, p)).filter(Boolean);
  return h("div", { class: "rules" }, h("p", { class: "hint" }, t("rules.hint")),
    groups, rest.length ? h("details", {}, h("summary", {}, t("rules.more")), rest) : null);
}
