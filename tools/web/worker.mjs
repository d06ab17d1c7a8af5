// SPDX-FileCopyrightText: 2026 pisti developers
// SPDX-License-Identifier: MIT
// The console's VM in a Web Worker of its own (page.mjs starts it): exactly
// one MicroPython VM in this realm, ever (see pisti.mjs). The page draws
// the frames this posts and forwards the keys; a restart (OK on the
// out-of-memory notice, another heapsize) is a new worker, and a worker
// stuck inside WebAssembly is terminated by the page's watchdog.
//
// From the page: {type: "start", base, heapsize, cap, exact, profile,
// overrides, nvm, seeded, reloaded, keys, hang, link}, {type: "press", key, down},
// {type: "status", id}, {type: "uart", hex, port} (link play: bytes from
// another console for this one's UART on port 1, the first cable's, or 2,
// the second's), {type: "probe", id, tag} (a test hook: both link UARTs
// opened unless open, then tag+"1" and tag+"2" sent), {type: "probe", id} (what they heard;
// closed). To the page: "resize" (gc.mem_free() was not the cap: start
// again with this bigger heapsize), "loaded" (the VM is up), "booted", "frame", "lines", "nvm",
// "heap", "beat" (still ticking), "oom" (the firmware's notice is on the
// screen; its OK key), "error", "done" (a key script has settled), "status",
// "uart" (link play: {hex, port}, what this console's UART on that port sent in a tick),
// "probe" ({id, value}), "reload" (the app asked for a restart, as a ring game's start does on the
// board: this worker stops; the page boots a new one on the saves, reloaded).
import { Console, loadFiles } from "./pisti.mjs";

let con = null;
let stopped = false;
// Link play (?link=1, ?cable=): the cables' bytes from the other consoles (the page relays them),
// each let into this console's UART on its port (1 the first cable's, 2 the second's) at the line's
// rate (10 bits a byte at PISTI_LINK_BAUD), each cable its own line, as its clock runs; what this
// one's UARTs sent goes to the page after each tick, port by port.
let link = null; // {baud, lines: [null, first, second]}, each line {queue: [hex, ...], carry}
const post = (m, transfer) => postMessage(m, transfer || []);

function sendFrame() {
  if (!con.frame) return;
  const frame = new Uint8Array(con.frame);
  post({ type: "frame", frame, width: con.width, height: con.height }, [frame.buffer]);
}

function sendHeap() {
  post({ type: "heap", live: con.live, peak: con.peak, cap: con.cap, lastMem: con.lastMem,
         retries: con.retries });
}

// A step's or boot's result: true while the console runs on.
function handle(r) {
  if (r >= 0) {
    if (r & 1) sendFrame();
    return true;
  }
  stopped = true;
  sendHeap();
  if (r === -2) {
    sendFrame(); // the firmware's own out-of-memory notice
    post({ type: "oom", key: con.oomKey });
  } else post({ type: "error", text: con.error || "error " + r });
  return false;
}

// --- real time: one App.tick() about every 10 ms ---------------------------------
function runRealtime() {
  let last = performance.now();
  let carry = 0;
  let beat = last;
  const loop = () => {
    if (stopped) return;
    const t = performance.now();
    carry += t - last;
    last = t;
    const ms = Math.floor(carry);
    carry -= ms;
    if (link) linkIn(ms);
    const r = con.step(ms);
    if (!handle(r)) return;
    if (link) linkOut();
    if (r & 4) { // the app asks for a restart (supervisor.reload() on the board): the page starts a new worker
      stopped = true;
      sendHeap();
      post({ type: "reload" });
      return;
    }
    con.ticks++;
    if (con.ticks % 20 === 0) sendHeap();
    if (t - beat >= 100) {
      beat = t;
      post({ type: "beat", ticks: con.ticks });
    }
    setTimeout(loop, Math.max(0, 10 - (performance.now() - t)));
  };
  setTimeout(loop, 0);
}

function linkIn(ms) {
  for (const port of [1, 2]) {
    const line = link.lines[port];
    if (!line.queue.length) {
      line.carry = 0;
      continue;
    }
    line.carry += (ms * link.baud) / 10000;
    let room = Math.floor(line.carry);
    if (room < 1) continue;
    line.carry -= room;
    let hex = "";
    while (room > 0 && line.queue.length) {
      const head = line.queue[0];
      const take = Math.min(room, head.length / 2);
      hex += head.slice(0, take * 2);
      room -= take;
      if (take * 2 === head.length) line.queue.shift();
      else line.queue[0] = head.slice(take * 2);
    }
    con.uartIn(hex, port);
  }
}

function linkOut() {
  const sent = con.uartOut();
  for (const port of [1, 2]) if (sent[port - 1]) post({ type: "uart", hex: sent[port - 1], port });
}

// --- a key script on a virtual clock: tools/simlib/headless.py's ScriptDriver,
// 10 ms a tick as pisti_app.run() sleeps (steps: [[button number or numbers, hold ms]...]; a step
// with no buttons, [[], ms], is WAIT:MS: no key for ms from the end of the step before, no settling
// first; a script that ends with one ends when it is over).
const WAIT_MS = 8000; // the simulator's WAIT_MS and SETTLE_MS (tools/simlib/session.py)
const SETTLE_MS = 250;
function runScript(steps) {
  let now = 0;
  let lastFrame = 0;
  let since = null;
  let holding = null;
  let releaseAt = 0;
  let index = 0;
  let waitUntil = null;
  let first = true;
  const t0 = performance.now();
  let n = 0;
  let dirty = false;
  const finish = () => {
    con.readFrame();
    sendFrame();
    sendHeap();
    stopped = true;
    post({ type: "done", scriptTicks: n, scriptMs: Math.round(performance.now() - t0), settled: true });
  };
  const batch = () => {
    for (let i = 0; i < 200; i++) {
      const r = con.step(first ? 0 : 10);
      first = false;
      n++;
      con.ticks++;
      if (r < 0) {
        post({ type: "done", scriptTicks: n, settled: false });
        handle(r);
        return;
      }
      if (r & 1) {
        lastFrame = now;
        dirty = true;
      }
      now += 10;
      const idle = !!(r & 2);
      if (holding !== null) {
        if (now >= releaseAt) {
          con.press(holding, false);
          holding = null;
          since = now;
        }
        continue;
      }
      if (waitUntil !== null) {
        if (now < waitUntil) continue;
        waitUntil = null;
        since = now;
        if (index >= steps.length) return finish();
      }
      if (index < steps.length && steps[index][0].length === 0) {
        waitUntil = (since === null ? now : since) + steps[index++][1];
        continue;
      }
      if (since === null) since = now;
      if (now - since < WAIT_MS && !(now - Math.max(lastFrame, since) >= SETTLE_MS && idle)) continue;
      if (index >= steps.length) return finish();
      const [keys, hold] = steps[index++];
      if (keys.length > 1) { // a burst: every button down and up again before the next tick
        for (const k of keys) {
          con.press(k, true);
          con.press(k, false);
        }
        since = now;
        continue;
      }
      con.press(keys[0], true);
      holding = keys[0];
      releaseAt = now + hold;
    }
    if (dirty) {
      dirty = false;
      sendFrame();
    }
    sendHeap();
    post({ type: "beat", ticks: con.ticks });
    setTimeout(batch, 0);
  };
  batch();
}

async function start(m) {
  const { files, config } = await loadFiles(m.base);
  con = new Console({
    files, config, profile: m.profile, cap: m.cap, overrides: m.overrides, nvm: m.nvm, seeded: m.seeded,
    onNvm: (bytes) => post({ type: "nvm", nvm: new Uint8Array(bytes) }),
    onLine: (line) => post({ type: "lines", lines: [line] }),
  });
  con.ticks = 0;
  if (m.link) {
    const board = files.find(([p]) => p === "/web/boards/" + m.profile + ".toml");
    const baud = /^PISTI_LINK_BAUD\s*=\s*(\d+)/m.exec(new TextDecoder().decode(board[1]));
    link = { baud: Number(m.overrides.PISTI_LINK_BAUD || (baud ? baud[1] : 115200)),
             lines: [null, { queue: [], carry: 0 }, { queue: [], carry: 0 }] };
  }
  // the build's heapsize for the cap, or a bigger one the page found needed for this build
  let heapsize = con.heapsizeFor(m.cap);
  if (m.build === config.build && m.heapsize > heapsize) heapsize = m.heapsize;
  const free = await con.load(heapsize);
  if (free < m.cap - 16 && !m.exact) {
    // too small to hold the cap: the page starts a new worker (a new VM) with a bigger heapsize
    post({ type: "resize", heapsize: heapsize + Math.ceil((m.cap - free) / 0.97) + 1024, free, build: config.build });
    return;
  }
  post({ type: "loaded", heapsize, free, build: config.build });
  if (m.hang) con.mp.runPython("while True:\n    pass"); // a test hook: a VM stuck inside WebAssembly
  const r = con.boot(!!m.reloaded);
  post({ type: "booted", cap: con.cap });
  if (!handle(r)) return;
  sendHeap();
  if (m.keys) runScript(m.keys);
  else runRealtime();
}

onmessage = (e) => {
  const m = e.data;
  try {
    if (m.type === "start") start(m).catch((err) => post({ type: "error", text: String(err && err.stack || err) }));
    else if (m.type === "uart") {
      // (before the boot, or after the console stopped, nothing listens: the bytes are lost)
      if (link && con && con.f && !stopped && (m.port === 1 || m.port === 2)) link.lines[m.port].queue.push(m.hex);
    } else if (m.type === "probe") { // (a test's, at a menu: the VM is between ticks here)
      let value = null;
      if (con && con.f && !stopped) value = m.tag !== undefined ? con.probeOpen(m.tag) : con.probeRead();
      post({ type: "probe", id: m.id, value });
    } else if (m.type === "press") {
      if (con && con.f && !stopped) con.press(m.key, m.down);
    } else if (m.type === "status") {
      let value = null;
      if (con && con.f) value = con.status();
      post({ type: "status", id: m.id, value });
    }
  } catch (err) {
    post({ type: "error", text: String(err && err.stack || err) });
  }
};
