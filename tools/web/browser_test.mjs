// SPDX-FileCopyrightText: 2026 pisti developers
// SPDX-License-Identifier: MIT
// The page in headless Chromium (Debian's /usr/bin/chromium, driven by the
// pinned playwright-core), for tests/test_web.py:
//   node tools/web/browser_test.mjs URL PLAN.json OUT.json [--shot PAGE.png]
// PLAN.json: {"scripts": [{"name", "query"}...], "reload": {"first", "then"},
// "oom": {"query"}, "loads": [query...], "hang": {"query"}, "live": false,
// "link": {"query", "plies", "keys": [{"UP", "DOWN", "OK": keyboard key}, {...}]}, "linkTabs": {"tabs":
// [query A, query B], "plies", "keys"}, "rings": [{"out", "query", "consoles" or "tabs", "host", "focus",
// "probe", "plies", "keys"}...] (see linkPlay), "linkLayout": {"query", "width"}, "queries": [{"name", "query"}...],
// "chromium": PATH}. Each script runs in a fresh browser context (empty
// storage) until the page says done; the result has its canvas pixels,
// status and the page's errors. "loads" (the crash probe, tools/web/probe.py):
// each query from empty saves, navigated to in one of `parallel` tabs (a new page, a new
// VM in a new worker each time), until done; its end state and errors only. "queries" (bad
// query values): each page until its firmware (each linked console's) has booted and shown its
// first screen; the page's notices, its text and the serial console's lines.
// Writes OUT.json.
import fs from "node:fs";
import { chromium } from "./node_modules/playwright-core/index.mjs";

const [URL0, PLAN, OUT] = process.argv.slice(2);
const shotAt = process.argv.indexOf("--shot");
const SHOT = shotAt > 0 ? process.argv[shotAt + 1] : "";
const plan = JSON.parse(fs.readFileSync(PLAN, "utf8"));
const t0 = Date.now();
const browser = await chromium.launch({
  executablePath: plan.chromium || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const out = { scripts: {}, errors: [], timing: {} };
const note = (what) => { out.timing[what] = (Date.now() - t0) / 1000; process.stderr.write(what + " " + out.timing[what] + " s\n"); };

async function open(context, query) {
  const tab = await watch(context);
  await tab.page.goto(URL0 + query);
  return tab;
}

// A new tab whose console errors, page errors and failed requests are kept.
async function watch(context) {
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
  page.on("pageerror", (e) => errors.push("pageerror: " + String(e)));
  page.on("requestfailed", (r) => {
    const why = (r.failure() || {}).errorText || "";
    // (a request the test's own navigation away aborts is no error of the page's: Chromium
    // can keep the VM's wasm response open after compiling it)
    if (!(page.leaving && why.includes("ERR_ABORTED"))) errors.push("request failed: " + r.url() + " " + why);
  });
  page.on("dialog", (d) => d.accept());
  return { page, errors };
}

async function until(page, fn, arg, timeout = 180000) {
  await page.waitForFunction(fn, arg, { timeout, polling: 50 });
}

async function snapshot(page) {
  return page.evaluate(async () => ({
    state: pisti.state, error: pisti.error, pixels: pisti.canvasPixels(), boots: pisti.boots,
    status: await pisti.status(), firstFrameMs: pisti.firstFrameMs,
    bootMs: pisti.bootMs, ticks: pisti.ticks, scriptTicks: pisti.scriptTicks, scriptMs: pisti.scriptMs,
    live: pisti.heap.live, peak: pisti.heap.peak, cap: pisti.heap.cap, lastMem: pisti.heap.lastMem,
    lines: pisti.lines.slice(-20), workers: pisti.workers, retries: pisti.heap.retries,
  }));
}

try {
  // 1. the page as a person opens it: real time; ticks per second; the README's screenshot
  if (plan.live !== false) {
    const context = await browser.newContext({ viewport: { width: 640, height: 760 } });
    const { page, errors } = await open(context, "");
    await until(page, () => window.pisti && pisti.state === "running" && pisti.firstFrameMs !== null);
    const a = await page.evaluate(() => [pisti.ticks, performance.now()]);
    await page.waitForTimeout(2000);
    const b = await page.evaluate(() => [pisti.ticks, performance.now()]);
    const snap = await snapshot(page);
    snap.ticksPerSecond = Math.round((b[0] - a[0]) * 1000 / (b[1] - a[1]));
    snap.errors = [...errors]; // (not what closing the context aborts)
    out.live = snap;
    await context.close();
    note("live");
  }
  // 2. key scripts on the virtual clock, each from empty saves
  for (const s of plan.scripts || []) {
    const context = await browser.newContext({ viewport: { width: 640, height: 760 } });
    const { page, errors } = await open(context, s.query);
    await until(page, () => window.pisti && pisti.done);
    const snap = await snapshot(page);
    if (SHOT && s.name === plan.shot) await page.screenshot({ path: SHOT });
    snap.errors = [...errors];
    out.scripts[s.name] = snap;
    await context.close();
    note(s.name);
  }
  // 3. a reload is a power cut: the saves stay in localStorage, Continue resumes
  if (plan.reload) {
    const context = await browser.newContext();
    const first = await open(context, plan.reload.first);
    await until(first.page, () => window.pisti && pisti.done);
    const before = await snapshot(first.page);
    const early = [...first.errors];
    first.page.leaving = true;
    await first.page.goto(URL0 + plan.reload.then); // the same tab, reloaded elsewhere in the game
    first.page.leaving = false;
    await until(first.page, () => window.pisti && pisti.done);
    const after = await snapshot(first.page);
    out.reload = { before, after, errors: [...first.errors], early };
    await context.close();
    note("reload");
  }
  // 4. over the cap: the firmware's out-of-memory notice, then OK restarts into the saved game
  if (plan.oom) {
    const context = await browser.newContext();
    const { page, errors } = await open(context, plan.oom.query);
    await until(page, () => window.pisti && (pisti.state === "oom" || pisti.state === "error" || pisti.state === "hung" ||
                                              pisti.done));
    const notice = await snapshot(page);
    await page.keyboard.down(plan.oom.ok || "z");
    await page.waitForTimeout(50);
    await page.keyboard.up(plan.oom.ok || "z");
    await until(page, () => pisti.boots >= 2 && pisti.state !== "booting" || pisti.state === "hung");
    await page.waitForTimeout(300);
    const after = await snapshot(page);
    let resumed = null;
    if (plan.oom.then) { // the saves survive: at the board's heap, Continue
      page.leaving = true;
      await page.goto(URL0 + plan.oom.then);
      page.leaving = false;
      await until(page, () => window.pisti && pisti.done);
      resumed = await snapshot(page);
    }
    out.oom = { notice, after, resumed, errors: [...errors] };
    await context.close();
    note("oom");
  }
  // 5. the crash probe: every query from empty saves, to its end (done, an error, the notice)
  if (plan.loads) {
    out.loads = [];
    // Each lane loads its queries one after another in one tab: each load navigates the tab
    // (the last load's VM and its worker end with its page) and starts from empty saves (the
    // lane's init script clears the page's storage before the page's own script runs).
    const one = async (lane, query) => {
      const t = Date.now();
      lane.errors.length = 0;
      lane.page.leaving = true; // (the last load's responses, cut short by leaving it)
      await lane.page.goto(URL0 + query);
      lane.page.leaving = false;
      const { page, errors } = lane;
      let end;
      try {
        await until(page, () => window.pisti && (pisti.done || pisti.state === "oom" || pisti.state === "error"),
                    undefined, plan.loadTimeout || 60000);
        end = await page.evaluate(async () => ({
          state: pisti.state, error: pisti.error, status: await pisti.status(), boots: pisti.boots,
          workers: pisti.workers, ticks: pisti.ticks, bootMs: pisti.bootMs, scriptMs: pisti.scriptMs,
          retries: (pisti.heap || {}).retries, peak: (pisti.heap || {}).peak }));
      } catch (e) {
        end = { state: "timeout", error: String(e).split("\n")[0] };
      }
      end.query = query;
      end.errors = [...errors];
      end.seconds = (Date.now() - t) / 1000;
      if (plan.verbose) process.stderr.write(end.state + " " + end.seconds + " s (boot " + end.bootMs + " ms, " +
        end.ticks + " ticks in " + end.scriptMs + " ms, " + end.retries + " retries, peak " + end.peak + ", " +
        end.workers + " workers) " + query + "\n");
      return end;
    };
    // `parallel` tabs at a time (each VM in its own worker thread)
    let next = 0;
    const lane = async () => {
      const context = await browser.newContext();
      await context.addInitScript(() => { localStorage.clear(); sessionStorage.clear(); });
      const mine = await watch(context);
      while (next < plan.loads.length) {
        const i = next++;
        out.loads[i] = await one(mine, plan.loads[i]);
      }
      await context.close();
    };
    await Promise.all(Array.from({ length: plan.parallel || 1 }, lane));
    note("loads");
  }
  // 6. a VM stuck inside WebAssembly: the watchdog stops it and says so
  if (plan.hang) {
    const context = await browser.newContext();
    const { page, errors } = await open(context, plan.hang.query);
    await until(page, () => window.pisti && (pisti.state === "hung" || pisti.state === "error" || pisti.done),
                undefined, 60000);
    const t = Date.now();
    const alive = await page.evaluate(() => 1 + 1); // the page itself still answers
    const snap = await page.evaluate(() => ({ state: pisti.state, error: pisti.error,
      text: document.getElementById("state").textContent, panel: document.getElementById("error").textContent,
      hungMs: pisti.hungMs }));
    out.hang = Object.assign(snap, { alive, answerMs: Date.now() - t, errors: [...errors] });
    await context.close();
    note("hang");
  }
  // 7. link play (?link=1): two consoles side by side, each its own VM in its own worker, their
  // UARTs joined in the page; by the page's keyboard (each console its keys), A hosts from Link play,
  // B joins and takes the offer, then each plays a card when its turn comes, until both show the
  // same game at ply plan.link.plies
  if (plan.link) await linkPlay(plan.link);
  if (plan.linkTabs) await linkPlay(plan.linkTabs);
  // 7b. three or four consoles in a ring: in the linked page (consoles=3 or 4), and in tabs
  for (const spec of plan.rings || []) await linkPlay(spec);
  // 8. bad query values: named on the page, one line each; the firmware never sees them
  if (plan.queries) {
    out.queries = {};
    const context = await browser.newContext();
    const tab = await watch(context);
    for (const s of plan.queries) {
      tab.errors.length = 0;
      tab.page.leaving = true;
      await tab.page.goto(URL0 + s.query);
      tab.page.leaving = false;
      // booted, and past the settings: the first screen's heap line is on the serial console
      await until(tab.page, () => window.pisti && (pisti.state === "error" || pisti.state === "hung" ||
        (pisti.link ? pisti.units() : [pisti]).every((u) => u && u.lines.some((l) => l.startsWith("mem ")))),
                  undefined, 60000);
      const got = await tab.page.evaluate(() => ({
        state: pisti.state, notices: pisti.notices || [], shown: !!document.querySelector("#notices:not([hidden])"),
        text: (document.getElementById("notices") || {}).innerText || "", page: document.body.innerText,
        lines: (pisti.link ? pisti.units() : [pisti]).flatMap((u) => u.lines),
        frames: [...document.querySelectorAll("iframe")].map((f) => f.getAttribute("src")),
      }));
      got.errors = [...tab.errors];
      out.queries[s.name] = got;
    }
    await context.close();
    note("queries");
  }
  // 9. the linked page's layout at plan.linkLayout.width px: where each console's frame is, and
  // whether anything in it is wider than the frame
  if (plan.linkLayout) {
    const context = await browser.newContext({ viewport: { width: plan.linkLayout.width, height: 900 } });
    const { page, errors } = await open(context, plan.linkLayout.query);
    await until(page, () => [...document.querySelectorAll("#linked iframe")].every((f) =>
      f.contentWindow && f.contentWindow.pisti && typeof f.contentWindow.pisti.firstFrameMs === "number"));
    out.linkLayout = await page.evaluate(() => ({
      width: document.documentElement.clientWidth, scrollWidth: document.documentElement.scrollWidth,
      frames: [...document.querySelectorAll("#linked iframe")].map((f) => {
        const r = f.getBoundingClientRect();
        const d = f.contentDocument.documentElement;
        return { left: r.left, right: r.right, top: r.top, clientWidth: d.clientWidth, scrollWidth: d.scrollWidth };
      }),
    }));
    out.linkLayout.errors = [...errors];
    await context.close();
    note("linkLayout");
  }
} catch (e) {
  out.errors.push(String(e && e.stack || e));
}

// Link play until every console sits at the same game at ply spec.plies: two consoles in the linked page
// (spec.query), or spec.consoles (3 or 4) in its ring; spec.tabs: [query A, query B, ...], the consoles in
// tabs of their own linked by BroadcastChannels (cable=a, cable=b, ...). Console A hosts (spec.host: the
// Host screen's [row, button] steps first, as [["players", "RIGHT"], ["start", "OK"]]; none: OK on its first
// row), the others join and take the offer, and each plays a card when its turn comes. spec.keys[i]: console
// i's keyboard keys for UP, DOWN, RIGHT, OK; spec.focus: the linked page's ring, whose keyboard plays the
// console in focus (the digit i+1 first). spec.probe: first, at the menus, each console's two link UARTs
// opened (pisti.probe("")), then marked (its letter and the port), and what each heard (res.probe: per console
// [first's, second's]); spec.drive false: only that. spec.out: the result's name (default "link", or
// "linkTabs" with spec.tabs).
async function linkPlay(spec) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const t = Date.now();
  const tabs = spec.tabs ? [] : null;
  for (const query of spec.tabs || []) tabs.push(await open(context, query));
  const { page, errors } = tabs ? tabs[0] : await open(context, spec.query);
  const n = tabs ? tabs.length : spec.consoles || 2;
  const NAMES = "ABCD";
  const res = { errors, trace: [] };
  const name = spec.out || (spec.tabs ? "linkTabs" : "link");
  out[name] = res;
  try {
    for (const p of tabs ? tabs.map((x) => x.page) : [page]) { // (the linked page: each of its consoles)
      await until(p, () => window.pisti && (pisti.state === "error" || (pisti.link ? pisti.units() : [pisti])
        .every((u) => u && u.state === "running")), undefined, 180000);
    }
    res.bootSeconds = (Date.now() - t) / 1000;
    if (spec.probe) { // each console's UARTs marked, then what each heard
      const each = (fn) => (tabs ? Promise.all(tabs.map((x, i) => x.page.evaluate(fn, [i])))
        : page.evaluate((f) => Promise.all(pisti.units().map((u, i) => eval(f)([i], u))), fn.toString()));
      await each((a, u) => (u || pisti).probe("")); // every console's UARTs open before the first mark
      const opened = await each((a, u) => (u || pisti).probe("ABCD"[a[0]]));
      await page.waitForTimeout(spec.probe.ms || 500);
      res.probe = await each((a, u) => (u || pisti).probe());
      res.opened = opened;
    }
    const statuses = tabs ? () => Promise.all(tabs.map((x) => x.page.evaluate(() => pisti.status())))
      : () => page.evaluate(() => pisti.status());
    let focus = 0;
    const tap = async (i, button) => { // UP, DOWN, RIGHT, OK (a FeatherWing's A, C, B): console i's keys
      const key = spec.keys[i][button];
      const p = tabs ? tabs[i].page : page;
      if (spec.focus && focus !== i) { // the ring's keyboard to console i
        await p.keyboard.press(String(i + 1));
        focus = await p.evaluate(() => pisti.focus());
        if (focus !== i) throw new Error("the digit " + (i + 1) + " left the focus on console " + NAMES[focus]);
      }
      await p.keyboard.down(key);
      await p.waitForTimeout(40);
      await p.keyboard.up(key);
    };
    // a console's next button, as tools/memgauge/gauge.mjs's playLink, or null (wait)
    let step = 0; // the host's next spec.host step
    const next = (i, st) => {
      if (!st || st.error) return null;
      const move = (key) => {
        const want = st.menu.indexOf(key);
        const at = st.menu.indexOf(st.cursor);
        if (want < 0) throw new Error("no row " + key + " in " + JSON.stringify(st.menu));
        return at === want ? "OK" : want > at ? "DOWN" : "UP";
      };
      if (st.screen === "menu") return move("link_play");
      if (st.screen === "link" && st.menu) return move(i === 0 ? "link_host" : "link_join");
      if (st.screen === "host") { // the Host screen: its steps, then offer its game
        if (!spec.host) return "OK";
        const [row, button] = spec.host[Math.min(step, spec.host.length - 1)];
        const go = move(row);
        return go === "OK" ? button : go;
      }
      if (st.screen === "confirm") return "OK"; // a guest: the offer
      if (st.screen === "table" && st.legal && st.legal.length && st.ply < spec.plies) return "OK";
      return null;
    };
    const seen = Array.from({ length: n }, () => ({ screen: null, since: 0 }));
    const deadline = Date.now() + (spec.timeout || 90000);
    while (spec.drive !== false) {
      for (const p of tabs ? tabs.map((x) => x.page) : [page]) {
        if (await p.evaluate(() => pisti.state === "error" || pisti.state === "hung")) throw new Error("a console stopped");
      }
      const sts = await statuses();
      if (sts.every((s) => s && s.screen === "table" && s.ply === sts[0].ply && s.ply >= spec.plies)) break;
      if (Date.now() > deadline) throw new Error("link play did not reach ply " + spec.plies + ": " + JSON.stringify(sts));
      let acted = false;
      for (let i = 0; i < n; i++) {
        const st = sts[i];
        if (!st) continue;
        if (st.screen !== seen[i].screen) seen[i] = { screen: st.screen, since: Date.now() };
        // a new screen gets a moment (keys just after the splash moved on are dropped)
        if (Date.now() - seen[i].since < 600) continue;
        const button = next(i, st);
        if (!button) continue;
        const before = JSON.stringify(st);
        res.trace.push(NAMES[i] + ":" + st.screen + ":" + button);
        await tap(i, button);
        acted = true;
        // the press seen: the status changes (or a second goes by)
        for (let k = 0; k < 20; k++) {
          await page.waitForTimeout(50);
          const now = (await statuses())[i];
          if (JSON.stringify(now) !== before) {
            // a Host screen step done (its row's button, not a move to the row)
            if (i === 0 && st.screen === "host" && spec.host && button !== "UP" && button !== "DOWN") step++;
            break;
          }
        }
      }
      if (!acted) await page.waitForTimeout(100);
    }
  } catch (e) {
    res.failure = String(e && e.stack || e);
  }
  const one = (u) => u && { state: u.state, error: u.error, pixels: u.canvasPixels(), workers: u.workers,
    lines: u.lines.slice(-10) };
  if (tabs) {
    const ends = await Promise.all(tabs.map((x) => x.page.evaluate(async (f) => ({ status: await pisti.status(),
      unit: eval(f)(pisti) }), one.toString())));
    res.end = { status: ends.map((e) => e.status), units: ends.map((e) => e.unit) };
    res.errors = tabs.flatMap((x) => x.errors);
  } else {
    res.end = await page.evaluate(async (f) => ({ state: pisti.state, error: pisti.error, status: await pisti.status(),
      sent: pisti.sent.slice(), cables: pisti.cables(), units: pisti.units().map(eval(f)),
      layout: [...document.querySelectorAll("#linked iframe")].map((x) => {
        const r = x.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top };
      }) }), one.toString());
    res.errors = [...errors];
  }
  res.seconds = (Date.now() - t) / 1000;
  await context.close();
  note(name);
}
await browser.close();
out.seconds = (Date.now() - t0) / 1000;
fs.writeFileSync(OUT, JSON.stringify(out));
