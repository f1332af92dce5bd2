import { test } from "node:test";
import assert from "node:assert/strict";
import { resizeArea, toRGB, fitResize, squareCrops, turnFrame, tintFrame } from "../../static/js/photo/frame-tensors.js";

const close = (a, b) => Math.abs(a - b) < 1e-6;

test("toRGB drops the alpha channel and leaves RGB as it is", () => {
  const rgba = new Uint8ClampedArray([1, 2, 3, 255, 4, 5, 6, 0]);
  assert.deepEqual([...toRGB(rgba, 2, 1, 4)], [1, 2, 3, 4, 5, 6]);
  const rgb = new Uint8Array([9, 8, 7]);
  assert.equal(toRGB(rgb, 1, 1, 3), rgb);
});

test("resizeArea averages the pixels each output pixel covers (OpenCV's INTER_AREA)", () => {
  // 2x2 -> 1x1: the mean of the four
  const px = new Uint8Array([0, 0, 0, 100, 10, 1, 200, 20, 2, 40, 30, 3]);
  assert.deepEqual([...resizeArea(px, 2, 2, 3, 1, 1)], [85, 15, 2]);
  // 3x1 -> 2x1: each output covers one and a half input pixels
  const row = new Uint8Array([0, 0, 0, 90, 90, 90, 180, 180, 180]);
  assert.deepEqual([...resizeArea(row, 3, 1, 3, 2, 1)], [30, 30, 30, 150, 150, 150]);
});

test("fitResize shrinks the longer side to the network's size, never enlarges, pads with grey to the stride", () => {
  const w = 10, h = 5, rgb = new Uint8Array(w * h * 3).fill(255);
  const net = fitResize(rgb, w, h, 5, 4);
  assert.equal(net.scale, 0.5);
  assert.deepEqual([net.width, net.height], [8, 4]);          // 5x3 (2.5 rounds up) padded to multiples of 4
  assert.equal(net.data.length, 3 * 8 * 4);
  const plane = 8 * 4;
  assert.ok(close(net.data[0], 1), "an image pixel, scaled to [0, 1]");
  assert.ok(close(net.data[5], 114 / 255), "right of the image: grey padding");
  assert.ok(close(net.data[2 * plane + 3 * 8], 114 / 255), "below the image, blue plane: grey padding");
  const small = fitResize(new Uint8Array(2 * 2 * 3), 2, 2, 640);
  assert.equal(small.scale, 1);
  assert.deepEqual([small.width, small.height], [32, 32]);
});

test("squareCrops gives one size x size NCHW crop per box, in [0, 1]", () => {
  const w = 40, h = 30, rgb = new Uint8Array(w * h * 3);
  for (let i = 0; i < w * h; i++) rgb.set([51, 102, 204], 3 * i);
  const boxes = [[5, 5, 15, 20], [20, 10, 30, 14]];
  const data = squareCrops(rgb, w, h, boxes, 16);
  assert.equal(data.length, 2 * 3 * 16 * 16);
  const plane = 16 * 16;
  for (const [c, want] of [[0, 0.2], [1, 0.4], [2, 0.8]]) {
    for (const box of [0, 1]) assert.ok(close(data[box * 3 * plane + c * plane + 37], want), `box ${box} channel ${c}`);
  }
});

test("squareCrops keeps a box's position: a bright square sits in the middle of its crop", () => {
  const w = 64, h = 64, rgb = new Uint8Array(w * h * 3);
  for (let y = 24; y < 40; y++) for (let x = 24; x < 40; x++) rgb.set([255, 255, 255], 3 * (y * w + x));
  const size = 32, data = squareCrops(rgb, w, h, [[24, 24, 40, 40]], size, 1.2);
  assert.ok(close(data[16 * size + 16], 1), "the centre is the bright square");
  assert.ok(close(data[0], 0), "the corner is the dark background around it");
});

test("turnFrame moves each pixel where the matrix sends it, the canvas outside the frame grey", () => {
  // a quarter turn counter-clockwise as seen (OpenCV's sign) of a 3 x 2 frame onto a 2 x 3 canvas:
  // (x, y) -> (y, 2 - x)
  const w = 3, h = 2, rgb = new Uint8Array(w * h * 3);
  for (let i = 0; i < w * h; i++) rgb.set([10 * i, 10 * i + 1, 10 * i + 2], 3 * i);
  const out = turnFrame(rgb, w, h, [[0, 1, 0], [-1, 0, 2]], 2, 3);
  const at = (x, y) => [...out.subarray((y * 2 + x) * 3, (y * 2 + x) * 3 + 3)];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) assert.deepEqual(at(y, 2 - x), [10 * (y * w + x), 10 * (y * w + x) + 1, 10 * (y * w + x) + 2]);
  }
  // shifted half a pixel: the mean of two pixels; a whole canvas past the frame: all grey
  const half = turnFrame(new Uint8Array([0, 0, 0, 100, 100, 100]), 2, 1, [[1, 0, -0.5], [0, 1, 0]], 1, 1);
  assert.deepEqual([...half], [50, 50, 50]);
  const off = turnFrame(rgb, w, h, [[1, 0, 10], [0, 1, 10]], 2, 2);
  assert.ok(off.every((v) => v === 114));
});

test("tintFrame maps each channel through its part of the table", () => {
  const table = [];
  for (let c = 0; c < 3; c++) for (let v = 0; v < 256; v++) table.push(Math.min(255, v * (c + 1)));  // red x1, green x2, blue x3
  const out = tintFrame(new Uint8Array([10, 20, 30, 200, 100, 90]), table);
  assert.deepEqual([...out], [10, 40, 90, 200, 200, 255]);
});
