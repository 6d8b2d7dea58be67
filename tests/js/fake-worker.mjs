// A scripted stand-in for a Web Worker that speaks solver/protocol.js, shared by the
// node tests of solver/client.js and solver/pool.js: what the page posts is kept
// (structured-cloned: what crosses must be plain data), and the test emits the
// worker's messages.

import { ToWorker } from "../../static/js/solver/protocol.js";

export class FakeWorker {
  constructor() {
    this.sent = [];
    this.terminated = false;
    this.onmessage = null;
    this.onerror = null;
  }

  postMessage(msg) {
    this.sent.push(structuredClone(msg));
  }

  terminate() {
    this.terminated = true;
  }

  /** The worker sends `msg` to the page. */
  emit(msg) {
    this.onmessage({ data: structuredClone(msg) });
  }

  /** The last message of `type` the page sent. */
  last(type) {
    return this.sent.filter((m) => m.type === type).at(-1);
  }

  /** The requests (CALL/SOLVE) received, optionally of one method. */
  calls(method) {
    return this.sent.filter((m) => (m.type === ToWorker.CALL || m.type === ToWorker.SOLVE) && (!method || m.method === method));
  }
}
