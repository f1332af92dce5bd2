import "./browser-globals.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseMpsz, toMpsz, sortTiles, sortKey, plain, isRed, tileName, tileSrc, PICKER } from "../../static/js/core/tiles.js";
import { loadLanguage } from "../../static/js/core/i18n.js";

test("parseMpsz reads mpsz notation tile by tile, a red five as 0", () => {
  assert.deepEqual(parseMpsz("234m 0p11z"), ["2m", "3m", "4m", "0p", "1z", "1z"]);
  assert.deepEqual(parseMpsz(""), []);
  assert.deepEqual(parseMpsz(null), []);
});

test("parseMpsz refuses what scoring.tiles.parse_tiles refuses", () => {
  assert.throws(() => parseMpsz("8z"), /there is no 8z/);
  assert.throws(() => parseMpsz("0z"), /there is no 0z/);
  assert.throws(() => parseMpsz("123"), /digits without a suit/);
  assert.throws(() => parseMpsz("12x"), /cannot read/);
  assert.throws(() => parseMpsz("m"), /cannot read/);
});

test("toMpsz groups runs of one suit and keeps the order given", () => {
  assert.equal(toMpsz(["2m", "3m", "4m", "1z"]), "234m1z");
  assert.equal(toMpsz(["1z", "2m", "3m"]), "1z23m");
  assert.equal(toMpsz(["1m", "1p", "2m"]), "1m1p2m");
  assert.equal(toMpsz([]), "");
  for (const text of ["123m456p789s1122z", "05m0p0s", "7z"]) assert.equal(toMpsz(parseMpsz(text)), text);
});

test("sorting: suit m p s z, then number, a red five right after the plain fives", () => {
  assert.deepEqual(sortTiles(["1z", "0m", "5m", "9p", "4m", "1s"]), ["4m", "5m", "0m", "9p", "1s", "1z"]);
  assert.ok(sortKey("5p") < sortKey("0p") && sortKey("0p") < sortKey("6p"));
  const given = ["2m", "1m"];
  sortTiles(given);
  assert.deepEqual(given, ["2m", "1m"], "sortTiles leaves its input alone");
});

test("plain and isRed tell a red five from the others", () => {
  assert.equal(plain("0s"), "5s");
  assert.equal(plain("5s"), "5s");
  assert.equal(plain("7z"), "7z");
  assert.equal(isRed("0m"), true);
  assert.equal(isRed("5m"), false);
});

test("the picker offers 1-9 and a red five per suit, seven honours", () => {
  for (const suit of "mps") assert.deepEqual(PICKER[suit], [..."1234567890"].map((d) => d + suit));
  assert.equal(PICKER.z.length, 7);
});

test("tile names and images come from the catalogue and static/tiles", async () => {
  await loadLanguage("en");
  assert.equal(tileName("3m"), "3-man");
  assert.equal(tileName("0p"), "red 5-pin");
  assert.match(tileName("7z"), /Chun/);
  assert.match(tileSrc("1z"), /\/static\/tiles\/1z\.svg$/);
  await loadLanguage("ja");
  assert.equal(tileName("7z"), "中");
});
