// SPDX-FileCopyrightText: 2026 pisti developers
// SPDX-License-Identifier: MIT
// The page: the OLED on a canvas, the buttons (screen, touch, mouse,
// keyboard), the saves in localStorage, the heap line. The firmware's VM
// runs in a Web Worker (worker.mjs), one VM a worker: the page draws the
// frames it posts and forwards the keys; a restart is a new worker; a
// watchdog stops a worker that stops answering. Query parameters:
//   profile=featherwing   the 128x32 three-button board (default pico)
//   seed=N start=pisti:2:usta lang=tr rated=1 delay=MS   as tools/sim.py's options
//   keys=A*3,RIGHT,A      a key script on a virtual clock, as tools/sim.py --keys
//                         (the page stops when it has settled; window.pisti.done)
//   cap=BYTES             the heap (default the Pico's 171,264 B)
//   watchdog=MS           how long the VM may go without answering (default 20000)
//   hang=1                (a test hook) the VM loops inside WebAssembly before it boots
//   link=1                link play: two consoles side by side, each its own VM in its own
//                         worker, their UARTs joined by a virtual cable in the page (linkMain below);
//                         profile2=pico|featherwing seed2=N lang2=tr: console B's (default A's)
//   consoles=3|4          with link=1: three or four consoles in a 2x2 grid, wired as a ring (console
//                         i's first UART to console i+1's second); profile3, seed3, lang3 console C's,
//                         profile4, seed4, lang4 console D's (default A's; the seed A's plus i)
// Each linked console is this page again in an iframe (console=a .. console=d): its saves under its
// own key, its keys routed by the linked page (window.parent.pistiLink), its UARTs' bytes too.
//   cable=a / cable=b     link play between two tabs (or windows) of this page: each one console, the
//                         cable a BroadcastChannel between them; each its own saves
//   cable=a..d&consoles=N a ring of N (3 or 4) tabs: each cable of the ring a BroadcastChannel
const PICO_HEAP = 171264; // pisti.mjs's: gc.mem_free() at a fresh REPL on the Pico

const T0 = performance.now();
const q = new URLSearchParams(location.search);

// --- the query: each value is checked here, where the page reads it. A value the page cannot use is
// ignored (the default is used instead) and named in one line above the console (#notices): the
// parameter, the value, what it takes. The firmware's settings get only the values that passed.
const notices = [];
const ignored = new Set(); // the names of the parameters ignored
const PARAMS = ["profile", "seed", "start", "lang", "rated", "delay", "keys", "cap", "watchdog", "link",
  "consoles", "profile2", "seed2", "lang2", "profile3", "seed3", "lang3", "profile4", "seed4", "lang4", "cable"];
const HOOKS = ["hang", "console"]; // a test's, and the linked page's for its consoles
const LEVELS = ["acemi", "kalfa", "usta", "random", "greedy"]; // PISTI_START's (pisti_app/startup.py)

function notice(name, value, text) {
  ignored.add(name);
  const v = value.length > 60 ? value.slice(0, 59) + "…" : value;
  notices.push(name + "=" + v + " ignored: " + text);
}
// ?name=: absent null; else check(value) gives the value to use, or null, or {why} when it is bad
function param(name, takes, check) {
  const v = q.get(name);
  if (v === null) return null;
  const r = check(v);
  if (r !== null && !(r && r.why)) return r;
  notice(name, v, (r && r.why ? r.why + "; " : "") + name + " takes " + takes + ".");
  return null;
}
const oneOf = (...ok) => (v) => (ok.includes(v) ? v : null);
const whole = (lo, hi) => (v) => (/^-?\d{1,15}$/.test(v) && Number(v) >= lo && Number(v) <= hi ? Number(v) : null);
function startGame(v) { // as pisti_app.startup.parse_start
  const p = v.split(":");
  if (p.length !== 3 || !["pisti", "yedili"].includes(p[0])) return null;
  const isPisti = p[0] === "pisti";
  const n = /^\d$/.test(p[1]) ? Number(p[1]) : 0;
  if (!(isPisti ? [2, 4] : [2, 3, 4]).includes(n))
    return { why: isPisti ? "Pişti is for 2 or 4 players" : "Pis Yedili is for 2 to 4 players" };
  const lv = p[2].split(",");
  if (lv.length !== 1 && lv.length !== n - 1) return { why: "give one level, or one for each of the " + (n - 1) + " bots" };
  const bad = lv.find((x) => !LEVELS.includes(x));
  if (bad !== undefined) return { why: "no bot level \"" + bad + "\"" };
  return v;
}
const SEED = ["a whole number", whole(-1e15 + 1, 1e15 - 1)];
const LANG = ["en or tr", oneOf("en", "tr")];
const PROFILE = ["pico or featherwing", oneOf("pico", "featherwing")];
for (const k of new Set(q.keys())) {
  if (!PARAMS.includes(k) && !HOOKS.includes(k))
    notice(k, q.get(k), "the page has no parameter " + k + " (it takes " + PARAMS.join(", ") + ").");
}
const profile = param("profile", ...PROFILE) || "pico";
const IDS = ["a", "b", "c", "d"]; // the linked consoles, A to D
const NUMBER = { 2: "two", 3: "three", 4: "four" };
// one of the linked page's consoles (in its iframe), or the linked page itself
const unit = IDS.includes(q.get("console")) && window.parent !== window && window.parent.pistiLink
  ? q.get("console") : "";
const linkPage = !!param("link", "1 (linked consoles)", oneOf("1")) && !unit;
const consolesGiven = param("consoles", "2, 3 or 4 (the linked consoles: 3 or 4 a ring)", whole(2, 4));
const consoles = consolesGiven || 2;
const cable = param("cable", IDS.slice(0, consoles).join(", ").replace(/, (?=[^,]*$)/, " or ") +
  " (this tab's console" + (consoles === 2 ? "; c and d with consoles=3 or 4" : consoles === 3 ? "; d with consoles=4"
  : "") + ")", oneOf(...IDS.slice(0, consoles)));
const tab = !unit && !linkPage && cable ? cable : ""; // one of two tabs, or of a ring of tabs
if (consolesGiven !== null && !linkPage && q.get("cable") === null && !unit)
  notice("consoles", q.get("consoles"), "consoles is link play's, with link=1 or cable=.");
const seed = param("seed", ...SEED);
const start = param("start", "GAME:PLAYERS:LEVELS, as pisti:2:usta, pisti:4:kalfa or yedili:4:usta,kalfa,acemi " +
  "(levels: " + LEVELS.join(", ") + ")", startGame);
const lang = param("lang", ...LANG);
const rated = param("rated", "1 (the start game is rated) or 0", oneOf("0", "1")) === "1";
const delay = param("delay", "a whole number of ms from 0 to 10000", whole(0, 10000));
const capGiven = param("cap", "a whole number of bytes from 16384 to 1048576 (the Pico's heap is 171264)",
  whole(16384, 1048576));
const watchdogGiven = param("watchdog", "a whole number of ms from 100 to 86400000", whole(100, 86400000));
// consoles B's, C's and D's, with link=1 (C's and D's in a ring of three or four)
const others = [null, null]; // [console] -> {profile, seed, lang}
for (const i of [2, 3, 4]) {
  const own = { profile: param("profile" + i, ...PROFILE), seed: param("seed" + i, ...SEED),
                lang: param("lang" + i, ...LANG) };
  others.push(own);
  if (linkPage && !unit && i <= consoles) continue;
  for (const k of ["profile" + i, "seed" + i, "lang" + i]) {
    if (q.get(k) !== null && !ignored.has(k)) notice(k, q.get(k), k + " is console " + "ABCD"[i - 1] + "'s, with " +
      "link=1" + (i === 3 ? " and consoles=3 or 4" : i === 4 ? " and consoles=4" : "") + ".");
  }
}
const linkId = unit || tab; // this console's end of a cable, or ""
const BUTTONS = profile === "pico" ? ["UP", "DOWN", "LEFT", "RIGHT", "A", "B"] : ["A", "B", "C"];
// the keyboard of one console, a letter in lower case (keyName)
const keymapOf = (prof) => (prof === "pico"
  ? { ArrowUp: "UP", ArrowDown: "DOWN", ArrowLeft: "LEFT", ArrowRight: "RIGHT", z: "A", a: "A", Enter: "A", " ": "A",
      x: "B", b: "B", Escape: "B", Backspace: "B" }
  : { ArrowUp: "A", ArrowLeft: "A", ArrowDown: "C", ArrowRight: "C", a: "A", c: "C", b: "B", Enter: "B", " ": "B",
      Escape: "B", Backspace: "B" });
const keyName = (key) => (key.length === 1 ? key.toLowerCase() : key);
const KEYMAP = keymapOf(profile);
const SCALE = 4;
const LIT = [232, 246, 255];
const DARK = [3, 4, 5];
const NVM_KEY = "pisti.nvm." + (linkId ? "link-" + linkId + "." : "") + profile;

const $ = (id) => document.getElementById(id);
const canvas = $("screen");
const ctx = canvas.getContext("2d");
const pisti = (window.pisti = {
  state: "loading", done: false, ticks: 0, firstFrameMs: null, error: "", lines: [], boots: 0, workers: 0,
  heap: { live: 0, peak: 0, cap: 0, lastMem: "" },
});

function setState(s, text) {
  pisti.state = s;
  $("state").textContent = text;
}

function fail(text, state = "error", line = "the firmware stopped: its traceback is below") {
  stopWorker();
  pisti.error = text;
  pisti.done = true;
  setState(state, line);
  const el = $("error");
  el.hidden = false;
  el.textContent = text + (pisti.lines.length ? "\n\nserial console:\n" + pisti.lines.slice(-30).join("\n") : "");
}
window.addEventListener("error", (e) => fail(String(e.error && e.error.stack || e.message)));
window.addEventListener("unhandledrejection", (e) => fail(String(e.reason && e.reason.stack || e.reason)));

// --- saves: microcontroller.nvm in localStorage ---------------------------------
function loadNvm() {
  const s = localStorage.getItem(NVM_KEY);
  if (!s) return null;
  const b = atob(s);
  const out = new Uint8Array(4096).fill(0xff);
  for (let i = 0; i < Math.min(4096, b.length); i++) out[i] = b.charCodeAt(i);
  return out;
}
function saveNvm(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  localStorage.setItem(NVM_KEY, btoa(s));
}

// --- the screen ---------------------------------------------------------------------
let image = null;
let frame = null;
function draw(fb, w, h) {
  if (!image || image.width !== w * SCALE || image.height !== h * SCALE) {
    canvas.width = w * SCALE;
    canvas.height = h * SCALE;
    image = ctx.createImageData(w * SCALE, h * SCALE);
  }
  const px = image.data;
  const W = w * SCALE;
  for (let y = 0; y < h * SCALE; y++) {
    const row = ((y / SCALE) | 0) * w;
    for (let x = 0; x < W; x++) {
      const c = fb && fb[row + ((x / SCALE) | 0)] ? LIT : DARK;
      const o = (y * W + x) * 4;
      px[o] = c[0];
      px[o + 1] = c[1];
      px[o + 2] = c[2];
      px[o + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
  if (pisti.firstFrameMs === null && fb) pisti.firstFrameMs = Math.round(performance.now() - T0);
}
// For tests: the canvas read back, one 0/1 a pixel at each pixel's centre.
pisti.canvasPixels = () => {
  const w = canvas.width / SCALE;
  const h = canvas.height / SCALE;
  const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  const out = [];
  for (let y = 0; y < h; y++) {
    let row = "";
    for (let x = 0; x < w; x++) row += d[((y * SCALE + 2) * canvas.width + x * SCALE + 2) * 4] > 128 ? "1" : "0";
    out.push(row);
  }
  return out;
};

// --- the console: its VM in a worker -------------------------------------------------
const cap = capGiven !== null ? capGiven : PICO_HEAP;
const WATCHDOG_MS = watchdogGiven !== null ? watchdogGiven : 20000;
const HEAP_KEY = "pisti.heapsize." + cap + "." + profile; // a heapsize bigger than the build's, found needed
let worker = null;
let nvm = null;
let heard = 0; // when the worker last posted (the watchdog)
let oomKey = -1;
let oomDown = false;
let resizes = 0;
const held = new Set();
const statusWaits = new Map();

function press(name, down) {
  const k = BUTTONS.indexOf(name);
  if (k < 0) return;
  if (down === held.has(name)) return;
  if (down) held.add(name);
  else held.delete(name);
  const b = document.querySelector('#pad button[data-key="' + name + '"]');
  if (b) b.classList.toggle("down", down);
  if (pisti.state === "oom") {
    // the notice waits for OK pressed and let go, then the board restarts (supervisor.reload())
    if (k === oomKey) {
      if (down) oomDown = true;
      else if (oomDown) restart();
    }
    return;
  }
  if (pisti.state === "running" && worker) worker.postMessage({ type: "press", key: k, down });
}

function overrides() {
  const o = { PISTI_MEMLOG: 1 };
  if (seed !== null) o.PISTI_SEED = seed;
  if (start !== null) o.PISTI_START = start;
  if (lang !== null) o.PISTI_LANG = lang;
  if (rated) o.PISTI_RATED = 1;
  if (delay !== null) o.PISTI_DELAY = delay;
  return o;
}

function heapLine() {
  const h = pisti.heap;
  if ($("showheap").checked) {
    $("heap").hidden = false;
    $("heapline").textContent = "heap " + h.live.toLocaleString("en") + " / " +
      h.cap.toLocaleString("en") + " B in use between ticks (peak " + h.peak.toLocaleString("en") + ")";
    $("memline").textContent = h.lastMem || "";
  } else $("heap").hidden = true;
}

function stopWorker() {
  if (worker) worker.terminate();
  worker = null;
  for (const done of statusWaits.values()) done(null);
  statusWaits.clear();
}

// For tests: the firmware's status (the screen, the session), from the worker.
pisti.status = () => new Promise((done) => {
  if (!worker) return done(null);
  const id = Math.random();
  statusWaits.set(id, done);
  worker.postMessage({ type: "status", id });
});

function startWorker(reloaded, steps) {
  stopWorker();
  pisti.workers++;
  heard = performance.now();
  const kept = JSON.parse(localStorage.getItem(HEAP_KEY) || "{}");
  worker = new Worker(new URL("worker.mjs", import.meta.url), { type: "module" });
  worker.onmessage = (e) => onWorker(e.data, reloaded, steps);
  worker.onerror = (e) => { e.preventDefault(); fail("the firmware's worker failed: " + (e.message || e)); };
  worker.postMessage({
    type: "start", base: new URL(".", location.href).href, heapsize: kept.heapsize || 0, build: kept.build || "",
    exact: resizes >= 3, cap, profile, overrides: overrides(), nvm, seeded: seed !== null, reloaded,
    keys: steps, hang: !!q.get("hang"), link: !!linkId,
  });
}

function onWorker(m, reloaded, steps) {
  heard = performance.now();
  switch (m.type) {
    case "resize": // the VM's free heap is not the cap: a new worker with this heapsize
      localStorage.setItem(HEAP_KEY, JSON.stringify({ heapsize: m.heapsize, build: m.build }));
      resizes++;
      startWorker(reloaded, steps);
      break;
    case "loaded":
      break;
    case "booted":
      pisti.boots++;
      pisti.heap.cap = m.cap;
      if (pisti.bootMs === undefined) pisti.bootMs = Math.round(performance.now() - T0);
      if (steps) setState("script", "playing the key script…");
      else setState("running", "running: " + (profile === "pico" ? "128x64, six buttons" : "FeatherWing 128x32, three buttons"));
      break;
    case "frame":
      frame = m.frame;
      draw(m.frame, m.width, m.height);
      break;
    case "lines":
      for (const line of m.lines) pisti.lines.push(line);
      if (pisti.lines.length > 400) pisti.lines.splice(0, 100);
      $("serial").textContent = pisti.lines.slice(-60).join("\n");
      break;
    case "nvm":
      nvm = m.nvm;
      saveNvm(nvm);
      break;
    case "heap":
      Object.assign(pisti.heap, m);
      heapLine();
      break;
    case "beat":
      pisti.ticks = m.ticks;
      break;
    case "oom":
      oomKey = m.key;
      oomDown = false;
      for (const n of [...held]) held.delete(n);
      pisti.done = !!steps;
      setState("oom", "out of memory: the firmware's notice; press " + BUTTONS[oomKey] + " to restart");
      break;
    case "done":
      pisti.scriptTicks = m.scriptTicks;
      pisti.scriptMs = m.scriptMs;
      pisti.ticks = Math.max(pisti.ticks, m.scriptTicks);
      if (m.settled) {
        pisti.done = true;
        setState("done", "key script done (" + steps.length + " presses, " + m.scriptTicks + " ticks)");
      }
      break;
    case "error": // a traceback, or out of memory with no room for the firmware's notice
      if (m.text.startsWith("Out of memory")) fail(m.text, "error", "out of memory: see below");
      else fail(m.text);
      break;
    case "uart": // link play: what this console's UART on m.port sent, to the console at the cable's other end
      if (unit) window.parent.pistiLink.send(unit, m.port, m.hex);
      else if (tab) {
        const c = tabCables.find((x) => x.port === m.port);
        if (c) c.channel.postMessage({ from: tab, hex: m.hex }); // (a UART with no cable: the bytes are lost)
      }
      break;
    case "reload": // the firmware restarts (supervisor.reload()): a new worker boots into the saved game
      pisti.reloads = (pisti.reloads || 0) + 1;
      restart();
      break;
    case "probe":
    case "status": {
      const done = statusWaits.get(m.id);
      statusWaits.delete(m.id);
      if (done) done(m.value);
      break;
    }
  }
}

// Link play: another console's bytes, for this one's UART on `port` (1 the first cable's, 2 the
// second's; lost while it is not running).
pisti.uartIn = (hex, port = 1) => {
  if (worker && pisti.state === "running") worker.postMessage({ type: "uart", hex, port });
};
pisti.press = press;
// For tests: both link UARTs opened as the firmware opens a ring's (unless open), then for a tag, tag+"1" sent on
// the first and tag+"2" on the second ("" or the error's text); with no tag, what they heard ([first's,
// second's]), both closed.
pisti.probe = (tag) => new Promise((done) => {
  if (!worker) return done(null);
  const id = Math.random();
  statusWaits.set(id, done);
  worker.postMessage({ type: "probe", id, tag });
});
// Tabs: each cable this tab's console is plugged into, a BroadcastChannel to the tab at its other end
// ({channel, port}: this console's UART on it). Two tabs (cable=a, cable=b): one cable between the two
// first UARTs. A ring of N tabs (consoles=N): cable i from console i's first UART to console i+1's second,
// so this console's first UART is on cable i and its second on cable i-1.
const tabCables = [];
if (tab) {
  const i = IDS.indexOf(tab);
  const plug = (name, port) => {
    const channel = new BroadcastChannel(name);
    channel.onmessage = (e) => {
      if (e.data && e.data.from !== tab && typeof e.data.hex === "string") pisti.uartIn(e.data.hex, port);
    };
    tabCables.push({ channel, port });
  };
  if (consoles === 2) plug("pisti.cable", 1);
  else {
    plug("pisti.ring" + consoles + "." + i, 1);
    plug("pisti.ring" + consoles + "." + ((i + consoles - 1) % consoles), 2);
  }
}

function restart() {
  setState("booting", "restarting into the saved game…");
  startWorker(true, null);
}

// The watchdog: a VM stuck inside WebAssembly cannot answer; the page stops its worker.
setInterval(() => {
  if (!worker || !["loading", "booting", "running", "script"].includes(pisti.state)) return;
  const quiet = performance.now() - heard;
  if (quiet < WATCHDOG_MS) return;
  pisti.hungMs = Math.round(quiet);
  fail("The firmware's VM gave no answer for " + (WATCHDOG_MS / 1000) + " s (stuck inside WebAssembly, " +
       "as a VM near its heap cap can be), so the page stopped it. Reload the page to start again: " +
       "the saves are kept. (?watchdog=MS sets the time.)", "hung", "stopped: the firmware's VM stopped answering");
}, Math.min(1000, Math.max(100, WATCHDOG_MS / 4)));

// A key script on a virtual clock (the worker plays it): [[button numbers], hold ms] a step,
// [[], ms] for WAIT:MS (no key that long).
function parseKeys(text) {
  const steps = [];
  for (const item of text.split(",").map((s) => s.trim()).filter((s) => s)) {
    // NAME[:HOLD_MS][*N], or a burst A+LEFT+B (tapped one after another within one tick)
    const m = item.match(/^([A-Za-z]+(?:\+[A-Za-z]+)*)(?::(\d+))?(?:\*(\d+))?$/);
    const name = m ? m[1].toUpperCase() : "";
    if (name === "WAIT") { // WAIT:MS, no key for MS ms (the simulator's, up to a day)
      const ms = Number(m[2] || 0);
      if (!(ms >= 1 && ms <= 86400000) || Number(m[3] || 1) < 1) throw new Error("bad step " + item + " in keys (WAIT:MS)");
      for (let i = 0; i < Number(m[3] || 1); i++) steps.push([[], ms]);
      continue;
    }
    if (!m || name.split("+").some((k) => !BUTTONS.includes(k)) || (name.includes("+") && m[2]))
      throw new Error("bad step " + item + " in keys");
    const keys = name.split("+").map((k) => BUTTONS.indexOf(k));
    for (let i = 0; i < Number(m[3] || 1); i++) steps.push([keys, name.includes("+") ? 0 : Number(m[2] || 60)]);
  }
  return steps;
}

// --- the buttons on screen and the keyboard ------------------------------------------------------
function buildPad() {
  const pad = $("pad");
  const place = profile === "pico"
    ? { UP: [2, 1], LEFT: [1, 2], RIGHT: [3, 2], DOWN: [2, 3], B: [5, 3], A: [6, 2] }
    : { A: [1, 1], B: [2, 1], C: [3, 1] };
  if (profile !== "pico") {
    pad.style.gridTemplateColumns = "repeat(3, 64px)";
    pad.style.gridTemplateRows = "64px";
    pad.style.gap = "28px";
  }
  for (const name of BUTTONS) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.key = name;
    b.textContent = { UP: "▲", DOWN: "▼", LEFT: "◀", RIGHT: "▶" }[name] || name;
    b.setAttribute("aria-label", name);
    if (name.length === 1) b.className = "round";
    const [c, r] = place[name];
    b.style.gridColumn = String(c);
    b.style.gridRow = String(r);
    b.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      press(name, true);
      try { b.setPointerCapture(e.pointerId); } catch (err) { /* a synthetic pointer */ }
    });
    for (const ev of ["pointerup", "pointercancel", "lostpointercapture"])
      b.addEventListener(ev, () => press(name, false));
    b.addEventListener("contextmenu", (e) => e.preventDefault());
    pad.appendChild(b);
  }
  if (unit) { // the linked page's keys: each console its own (pistiLink.key routes them); a click here
    // gives a ring's keyboard to this console
    for (const [type, down] of [["keydown", true], ["keyup", false]])
      window.addEventListener(type, (e) => { if (window.parent.pistiLink.key(e.key, down, e.repeat)) e.preventDefault(); });
    window.addEventListener("pointerdown", () => window.parent.pistiLink.focus(unit), true);
  } else window.addEventListener("keydown", (e) => {
    const name = KEYMAP[keyName(e.key)];
    if (!name) return;
    e.preventDefault();
    if (!e.repeat) press(name, true);
  });
  if (!unit) window.addEventListener("keyup", (e) => {
    const name = KEYMAP[keyName(e.key)];
    if (name) { e.preventDefault(); press(name, false); }
  });
  window.addEventListener("blur", () => { for (const n of [...held]) press(n, false); });
  $("help").textContent = profile === "pico"
    ? "Keys: arrows move, Z / Enter / Space = A (OK, play), X / Esc / Backspace = B (back, pause)."
    : "Keys: A / ← / ↑ and C / → / ↓ move, B / Enter / Space select, a long B goes back.";
  if (unit) {
    document.body.classList.add("unit");
    $("help").textContent = window.parent.pistiLink.help(unit);
    $("other").hidden = true;
  }
  const other = $("other");
  other.href = profile === "pico" ? "?profile=featherwing" : "?";
  other.textContent = profile === "pico" ? "FeatherWing 128x32" : "Pico 128x64";
  if (tab && consoles === 2) { // the other end of the cable, in a tab of its own
    const there = tab === "a" ? "b" : "a";
    other.href = "?cable=" + there;
    other.target = "_blank";
    other.textContent = "console " + there.toUpperCase() + " (a new tab)";
    $("help").textContent += " Console " + tab.toUpperCase() + " of two tabs linked by a cable (cable=" + tab +
      "; the other: cable=" + there + "): Main menu > Link play, Host on one, Join on the other.";
  } else if (tab) { // the next console of the ring, in a tab of its own
    const i = IDS.indexOf(tab);
    const next = IDS[(i + 1) % consoles];
    const all = IDS.slice(0, consoles).map((x) => "cable=" + x).join(", ");
    other.href = "?cable=" + next + "&consoles=" + consoles;
    other.target = "_blank";
    other.textContent = "console " + next.toUpperCase() + " (a new tab)";
    $("help").textContent += " Console " + tab.toUpperCase() + " of a ring of " + NUMBER[consoles] + " tabs (" +
      all + ", each with consoles=" + consoles + "; its first cable to console " + next.toUpperCase() +
      ", its second to console " + IDS[(i + consoles - 1) % consoles].toUpperCase() + "): Main menu > Link play, " +
      "on one Host with Consoles " + consoles + " on the Host screen, Join on the others.";
  }
  $("reset").addEventListener("click", () => {
    if (!confirm("Reset saves? The settings, the rankings and the game kept to Continue are erased " +
                 "(as an erased nvm on the board).")) return;
    stopWorker();
    localStorage.removeItem(NVM_KEY);
    pisti.state = "reset";
    location.reload();
  });
  $("showheap").addEventListener("change", heapLine);
}

// --- start ------------------------------------------------------------------------------------
function showNotices() {
  pisti.notices = notices.slice();
  const box = $("notices");
  box.hidden = !notices.length;
  box.replaceChildren(...notices.map((text) => {
    const line = document.createElement("p");
    line.textContent = text;
    return line;
  }));
}

function main() {
  showNotices();
  if (linkPage) return linkMain();
  buildPad();
  canvas.height = (profile === "pico" ? 64 : 32) * SCALE;
  nvm = loadNvm();
  setState("booting", "booting…");
  if (linkId && q.get("keys")) throw new Error("keys= is for one console: a linked console runs in real time");
  startWorker(false, q.get("keys") ? parseKeys(q.get("keys")) : null);
}

// --- link play: two consoles side by side, or three or four in a ring, their UARTs joined ---------
// Each console is this page in an iframe (console=a .. console=d): its own VM in its own worker,
// its saves, its screen and buttons. The cables are here: what a console's UART sends (posted by
// its worker after each tick, with its port: 1 the first UART, 2 the second) goes to the worker of
// the console at that cable's other end, which lets it into its UART on that end's port at the
// line's rate as its clock runs; a UART with no cable sends into nothing. Two consoles: one cable
// between the two first UARTs. A ring of three or four (consoles=): cable i from console i's first
// UART to console i+1's second, the last console's first to console A's second (as sim.py --link
// --consoles wires them). The keyboard plays both of two (the desktop simulator's split, sim.py
// --link): console A w a s d, F = A, G = B (a FeatherWing A: F G H = A B C); console B the arrows,
// Enter or L = A, Backspace or K = B (a FeatherWing B: J K L = A B C). In a ring it plays the
// console in focus, with the one-console keys (as the simulator's ring): Tab moves the focus on,
// 1 to 4 pick a console, a click in a console picks it.
function linkKeymap(prof, index) {
  if (prof === "pico") {
    return index === 0
      ? { w: "UP", s: "DOWN", a: "LEFT", d: "RIGHT", f: "A", g: "B" }
      : { ArrowUp: "UP", ArrowDown: "DOWN", ArrowLeft: "LEFT", ArrowRight: "RIGHT", Enter: "A", l: "A",
          Backspace: "B", k: "B" };
  }
  return index === 0 ? { f: "A", g: "B", h: "C" } : { j: "A", k: "B", l: "C" };
}

function linkHelp(prof, index) {
  if (prof === "pico") {
    return index === 0
      ? "Console A's keys: W A S D move, F = A (OK, play), G = B (back, pause)."
      : "Console B's keys: arrows move, Enter / L = A (OK, play), Backspace / K = B (back, pause).";
  }
  return index === 0 ? "Console A's keys: F / G / H = A / B / C (a long B goes back)."
    : "Console B's keys: J / K / L = A / B / C (a long B goes back).";
}

function ringHelp(prof, index, n) {
  return "Console " + IDS[index].toUpperCase() + ": the keyboard plays the console marked ▶ (Tab: the next one, " +
    "1-" + n + ": pick one, or click it). " + (prof === "pico"
    ? "Arrows move, Z / Enter / Space = A (OK, play), X / Esc / Backspace = B (back, pause)."
    : "A / ← / ↑ and C / → / ↓ move, B / Enter / Space select, a long B goes back.");
}

// The cables of n linked consoles: each [[console, port], [console, port]], its two ends.
function linkCables(n) {
  if (n === 2) return [[[0, 1], [1, 1]]];
  return Array.from({ length: n }, (_, i) => [[i, 1], [(i + 1) % n, 2]]);
}

function linkMain() {
  if (q.get("keys")) throw new Error("keys= is for one console: the linked page (link=1) runs in real time");
  const n = consoles;
  const ring = n > 2;
  const profiles = [profile].concat(others.slice(2, n + 1).map((o) => o.profile || profile));
  const keymaps = profiles.map(ring ? keymapOf : linkKeymap);
  const named = (i) => "console " + IDS[i].toUpperCase();
  document.title = ring ? "pisti: a ring of " + NUMBER[n] + " linked consoles" : "pisti: two linked consoles";
  document.body.classList.add("linked");
  $("console").hidden = true;
  const box = document.createElement("main");
  box.id = "linked";
  const row = document.createElement("div");
  row.className = ring ? "grid" : "pair";
  box.appendChild(row);
  const frames = [];
  const figures = [];
  const labels = [];
  for (let i = 0; i < n; i++) {
    const id = IDS[i];
    const sub = new URLSearchParams();
    for (const [k, v] of q) { // the values that passed (each console's page checks them again)
      if (!["link", "consoles", "profile", "console", "cable"].includes(k) &&
          !/^(profile|seed|lang)[234]$/.test(k) && !ignored.has(k) && (PARAMS.includes(k) || HOOKS.includes(k)))
        sub.set(k, v);
    }
    sub.set("console", id);
    if (profiles[i] !== "pico") sub.set("profile", profiles[i]);
    const own = others[i + 1] || {};
    if (i > 0 && own.seed !== null && own.seed !== undefined) sub.set("seed", String(own.seed));
    else if (i > 0 && ring && seed !== null) sub.set("seed", String(seed + i <= 1e15 - 1 ? seed + i : seed - i));
    if (i > 0 && own.lang) sub.set("lang", own.lang);
    const fig = document.createElement("figure");
    const label = document.createElement("figcaption");
    const f = document.createElement("iframe");
    f.title = named(i);
    f.src = "?" + sub.toString();
    fig.append(label, f);
    row.appendChild(fig);
    frames.push(f);
    figures.push(fig);
    labels.push(label);
  }
  const cableLine = document.createElement("p");
  cableLine.id = "cable";
  const back = document.createElement("p");
  back.innerHTML = '<a href="?">one console</a>';
  box.append(cableLine, back);

  const units = () => frames.map((f) => (f.contentWindow && f.contentWindow.pisti) || null);
  const cables = linkCables(n).map((ends) => ({ ends, bytes: [0, 0] })); // bytes each way: from end 0, end 1
  const sent = profiles.map(() => 0); // bytes each console's UARTs sent (A's, B's, ...)
  let focus = 0; // a ring's console the keyboard plays
  const setFocus = (i) => {
    focus = i;
    for (let k = 0; k < n; k++) {
      figures[k].classList.toggle("focus", ring && k === focus);
      labels[k].textContent = (ring && k === focus ? "▶ " : "") + "Console " + IDS[k].toUpperCase() + ": " +
        (profiles[k] === "pico" ? "128x64, six buttons" : "FeatherWing 128x32, three buttons");
    }
  };
  setFocus(0);
  const held = new Map(); // keyboard key -> [console, button]
  const route = (key, down, repeat) => {
    const k = keyName(key);
    let hit = held.get(k);
    if (!hit && ring) {
      const digit = /^[1-4]$/.test(k) ? Number(k) : 0;
      if (k === "Tab" || (digit && digit <= n)) {
        if (down && !repeat) setFocus(k === "Tab" ? (focus + 1) % n : digit - 1);
        return true;
      }
      if (keymaps[focus][k]) hit = [focus, keymaps[focus][k]];
    } else if (!hit) {
      for (const i of [0, 1]) if (keymaps[i][k]) hit = [i, keymaps[i][k]];
    }
    if (!hit) return false;
    const u = units()[hit[0]];
    if (down) held.set(k, hit);
    else held.delete(k);
    if (u && u.press && !repeat) u.press(hit[1], down);
    return true;
  };
  window.pistiLink = {
    send(from, port, hex) {
      const i = IDS.indexOf(from);
      const size = hex.length / 2;
      sent[i] += size;
      for (const c of cables) {
        const e = c.ends.findIndex(([who, p]) => who === i && p === port);
        if (e < 0) continue;
        c.bytes[e] += size;
        const [to, toPort] = c.ends[1 - e];
        const u = units()[to];
        if (u && u.uartIn) u.uartIn(hex, toPort);
      }
    },
    key: route,
    focus: (id) => { if (ring) setFocus(IDS.indexOf(id)); },
    help: (id) => (ring ? ringHelp(profiles[IDS.indexOf(id)], IDS.indexOf(id), n)
      : linkHelp(profiles[id === "a" ? 0 : 1], id === "a" ? 0 : 1)),
  };
  document.body.appendChild(box); // (the consoles load now: pistiLink is there for them)
  window.addEventListener("keydown", (e) => { if (route(e.key, true, e.repeat)) e.preventDefault(); });
  window.addEventListener("keyup", (e) => { if (route(e.key, false, false)) e.preventDefault(); });
  window.addEventListener("blur", () => {
    for (const k of [...held.keys()]) route(k, false, false);
  });
  // For tests: each console's pisti (its state, status(), ...), the cables' counts, the focus.
  pisti.link = true;
  pisti.consoles = n;
  pisti.units = units;
  pisti.sent = sent;
  pisti.cables = () => cables.map((c) => ({ ends: c.ends.map(([i, p]) => IDS[i].toUpperCase() + p),
                                            bytes: c.bytes.slice() }));
  pisti.focus = () => focus;
  pisti.status = async () => Promise.all(units().map((u) => (u ? u.status() : null)));
  setState("running", ring ? "a ring of " + NUMBER[n] + " linked consoles" : "two linked consoles");
  setInterval(() => {
    for (const f of frames) { // each iframe as tall as its page
      const d = f.contentDocument;
      if (d && d.documentElement) {
        const h = d.documentElement.scrollHeight + "px";
        if (f.style.height !== h) f.style.height = h;
      }
    }
    const us = units();
    const states = us.map((u) => (u ? u.state : "loading"));
    const bad = us.find((u) => u && u.error);
    pisti.state = bad ? "error" : states.every((x) => x === "running") ? "running" : states.join("/");
    pisti.error = bad ? bad.error : "";
    if (!ring) {
      cableLine.textContent = "link cable: " + sent[0].toLocaleString("en") + " B A→B, " +
        sent[1].toLocaleString("en") + " B B→A";
    } else {
      cableLine.textContent = "link cables: " + cables.map((c) => {
        const [a, b] = c.ends.map(([i]) => IDS[i].toUpperCase());
        return a + "→" + b + " " + c.bytes[0].toLocaleString("en") + " B, " + b + "→" + a + " " +
          c.bytes[1].toLocaleString("en") + " B";
      }).join("; ");
    }
  }, 250);
}
try {
  main();
} catch (e) {
  showNotices();
  fail(String(e && e.message || e), "error", "bad query: see below");
}
