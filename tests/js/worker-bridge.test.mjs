import { test } from "node:test";
import assert from "node:assert/strict";
import { bridge, serve, TRANSFER, WorkerError } from "../../static/js/core/worker-bridge.js";

/** A worker and its scope joined by a MessageChannel: what bridge() and serve() see in a browser. */
function pair(handlers) {
  const { port1, port2 } = new MessageChannel();
  const errorListeners = [];
  const worker = {
    addEventListener(type, fn) { if (type === "error") errorListeners.push(fn); else port1.addEventListener(type, fn); },
    postMessage: (msg, transfer) => port1.postMessage(msg, transfer),
    terminate: () => { port1.close(); port2.close(); },
    fail(message) { for (const fn of errorListeners) fn({ message, preventDefault() {} }); },
  };
  port1.start();
  serve(handlers, { addEventListener: (type, fn) => { port2.addEventListener(type, fn); port2.start(); }, postMessage: (m, t) => port2.postMessage(m, t) });
  return { worker, side: bridge(worker) };
}

test("a call resolves to what the handler returns, sync or async", async () => {
  const { side, worker } = pair({ add: ({ a, b }) => a + b, later: async ({ x }) => ({ got: x }) });
  assert.equal(await side.call("add", { a: 2, b: 3 }), 5);
  assert.deepEqual(await side.call("later", { x: [1, 2] }), { got: [1, 2] });
  worker.terminate();
});

test("an unknown call is refused naming the field, as the server would (400, malformed)", async () => {
  const { side, worker } = pair({});
  await assert.rejects(side.call("toString"), (err) => {
    assert.ok(err instanceof WorkerError);
    assert.deepEqual(err.error, { message: "no such call: toString", status: 400, code: "malformed", field: "call" });
    return true;
  });
  worker.terminate();
});

test("a handler's error reaches the page with its status, field and code", async () => {
  const refusal = { message: "bad hand", status: 422, code: "invalid_hand", field: "hand" };
  const { side, worker } = pair({
    refuse: () => { throw Object.assign(new Error("x"), { error: refusal }); },
    crash: () => { throw new Error("boom"); },
  });
  await assert.rejects(side.call("refuse"), (err) => { assert.deepEqual(err.error, refusal); assert.equal(err.message, "bad hand"); return true; });
  await assert.rejects(side.call("crash"), (err) => { assert.deepEqual(err.error, { message: "boom" }); return true; });
  worker.terminate();
});

test("calls are answered one at a time, in the order sent", async () => {
  const order = [];
  const { side, worker } = pair({
    slow: async () => { await new Promise((r) => setTimeout(r, 30)); order.push("slow"); return "slow"; },
    fast: () => { order.push("fast"); return "fast"; },
  });
  assert.deepEqual(await Promise.all([side.call("slow"), side.call("fast")]), ["slow", "fast"]);
  assert.deepEqual(order, ["slow", "fast"]);
  worker.terminate();
});

test("a result marked for transfer hands its buffer over instead of copying it", async () => {
  const { side, worker } = pair({ frame: () => { const buf = new Float32Array([1, 2, 3]); return { [TRANSFER]: [buf.buffer], value: buf }; } });
  const got = await side.call("frame");
  assert.deepEqual([...got], [1, 2, 3]);
  worker.terminate();
});

test("a worker that dies rejects the calls waiting and every later one (503, unavailable)", async () => {
  const { side, worker } = pair({ never: () => new Promise(() => {}) });
  const waiting = side.call("never");
  worker.fail("script failed to load");
  for (const p of [waiting, side.call("never")]) {
    await assert.rejects(p, (err) => { assert.deepEqual(err.error, { message: "script failed to load", status: 503, code: "unavailable" }); return true; });
  }
  worker.terminate();
});
