// A scripted stand-in for a Web Worker that speaks solver/protocol.js, shared by the
// node tests of solver/client.js and solver/pool.js: what the page posts is kept
// (structured-cloned: what crosses must be plain data), and the test emits the
// worker's messages.  Like the real worker, it answers a CANCEL of a request it has not
// answered yet with a CANCELLED error (on its next turn); a test makes it `stuck` to see a
// worker that does not answer.

import { ErrorType, FromWorker, ToWorker, message } from "../../static/js/solver/protocol.js";

export class FakeWorker {
  constructor() {
    this.sent = [];
    this.answered = new Set(); // request ids answered (RESULT or ERROR)
    this.terminated = false;
    this.stuck = false; // true: CANCELs are not answered
    this.onmessage = null;
    this.onerror = null;
  }

  postMessage(msg) {
    this.sent.push(structuredClone(msg));
    if (msg.type === ToWorker.CANCEL && !this.stuck) {
      const id = msg.id ?? this.calls().find((m) => !this.answered.has(m.id))?.id;
      setTimeout(() => {
        if (!this.terminated && !this.stuck && id !== undefined && !this.answered.has(id)) {
          this.emit(message.error(id, { type: ErrorType.CANCELLED, message: "Cancelled." }));
        }
      }, 0);
    }
  }

  terminate() {
    this.terminated = true;
  }

  /** The worker sends `msg` to the page. */
  emit(msg) {
    if (msg.type === FromWorker.RESULT || msg.type === FromWorker.ERROR) this.answered.add(msg.id);
    this.onmessage({ data: structuredClone(msg) });
  }

  /** The last message of `type` the page sent. */
  last(type) {
    return this.sent.filter((m) => m.type === type).at(-1);
  }

  /** The requests (CALL) received, optionally of one method. */
  calls(method) {
    return this.sent.filter((m) => m.type === ToWorker.CALL && (!method || m.method === method));
  }

  /** The CANCELs received. */
  cancels() {
    return this.sent.filter((m) => m.type === ToWorker.CANCEL);
  }
}
