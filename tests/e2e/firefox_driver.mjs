// Firefox for the e2e tests (tests/e2e/engines.py): Debian's firefox-esr driven over WebDriver
// BiDi by puppeteer-core (no geckodriver, no browser download), one page in a fresh profile.
//
// A line protocol on stdin/stdout, one JSON object a line:
//   in:  {"id": 1, "op": "goto", "url": "..."} | {"id", "op": "reload"}
//        | {"id", "op": "eval", "source": "(a, b) => ...", "args": [...]}  (awaited; JSON result)
//        | {"id", "op": "console"} (the console messages and page errors so far, then forgotten)
//        | {"id", "op": "close"}
//   out: {"id": 1, "ok": true, "value": ...} | {"id": 1, "ok": false, "error": "..."}
// The first line out is {"id": 0, "ok": true, "value": {"version": "firefox/..."}} once launched.
// Usage: node tests/e2e/firefox_driver.mjs FIREFOX_BINARY [WIDTH HEIGHT]

import readline from "node:readline";
import puppeteer from "puppeteer-core";

const [binary = "/usr/bin/firefox-esr", width = "1280", height = "900"] = process.argv.slice(2);
const send = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);

let browser;
try {
  browser = await puppeteer.launch({
    browser: "firefox",
    protocol: "webDriverBiDi",
    executablePath: binary,
    headless: true,
    defaultViewport: { width: Number(width), height: Number(height) },
  });
} catch (e) {
  send({ id: 0, ok: false, error: `Firefox cannot be launched here (${String(e.message || e).split("\n")[0]})` });
  process.exit(1);
}
const page = await browser.newPage();
const messages = [];
// an error's text from its arguments (m.text() gives "JSHandle@error" for an Error object)
const argText = (a) => a.evaluate((x) => (x instanceof Error ? `${x.name}: ${x.message}` : String(x))).catch(() => a.toString());
page.on("console", (m) => {
  const entry = `${m.type()}: ${m.text()}`;
  messages.push(entry);
  if (m.type() === "error" && m.args().length) {
    Promise.all(m.args().map(argText)).then((parts) => {
      const i = messages.indexOf(entry);
      if (i >= 0) messages[i] = `error: ${parts.join(" ")}`;
    });
  }
});
page.on("pageerror", (e) => messages.push(`pageerror: ${e.message || e}`));
send({ id: 0, ok: true, value: { version: await browser.version() } });

const ops = {
  goto: async ({ url }) => {
    await page.goto(url, { waitUntil: "load", timeout: 120_000 });
  },
  reload: async () => {
    await page.reload({ waitUntil: "load", timeout: 120_000 });
  },
  eval: ({ source, args = [] }) => page.evaluate(`(${source})(...${JSON.stringify(args)})`),
  console: () => messages.splice(0),
  close: async () => {
    await browser.close();
    setTimeout(() => process.exit(0), 10);
  },
};

// one command at a time, in order
let queue = Promise.resolve();
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  queue = queue.then(async () => {
    let cmd;
    try {
      cmd = JSON.parse(line);
      const value = await ops[cmd.op](cmd);
      send({ id: cmd.id, ok: true, value: value === undefined ? null : value });
    } catch (e) {
      send({ id: cmd?.id ?? null, ok: false, error: String(e?.message || e) });
    }
  });
});
process.stdin.on("end", () => queue.then(() => browser.close()).finally(() => process.exit(0)));
