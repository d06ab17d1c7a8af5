// SPDX-FileCopyrightText: 2026 pisti developers
// SPDX-License-Identifier: MIT
// The pisti device app in MicroPython's WebAssembly VM (32-bit, 16-byte GC
// blocks), driven through its buttons one App.tick() per call, the live heap
// read between calls. Run by tools/memgauge.py:
//   node gauge.mjs ROOT [--cap BYTES] [--modes pisti2,...] [--pystack WORDS] [--calibrate]
// ROOT is a deploy tree (code.py, settings.toml, lib/, pisti_core/, assets/).
// Prints one JSON object a line ("ev": progress, match, note, error, result).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

const here = path.dirname(fileURLToPath(import.meta.url));
const { loadMicroPython } = await import(
  path.join(here, "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"));

const argv = isMainThread ? process.argv.slice(2) : workerData.argv;
const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const ROOT = argv[0];
const CAP = Number(opt("--cap", "0"));
const PYSTACK = Number(opt("--pystack", "512")); // words of 4 bytes: 2048 B, CircuitPython's default
const MODES = opt("--modes", "pisti2,pisti4,yedili2,yedili3,yedili4").split(",").filter((m) => m);
const TICK_MS = 10;
const MAX_TICKS = Number(opt("--max-ticks", "400000"));
// Link play: two consoles ("host", "guest"), or three or four in a ring
// ("host", "guest1", ...), each a VM in a worker of its own (one VM a
// realm); their UARTs' bytes and their ticks go through a SharedArrayBuffer
// (linkMain below).
const LINK = isMainThread ? null : workerData.role;
const ME = LINK ? workerData.index : 0; // this console's place: 0 the host, then the guests round the ring
const CONSOLES = LINK ? workerData.n : 0;
const out = LINK
  // (a worker's process.stdout is flushed only when its event loop turns, and a
  // scenario never yields: the lines go straight to the file descriptor)
  ? (o) => { if (o.ev !== "stdout") fs.writeSync(1, JSON.stringify({ ...o, console: LINK }) + "\n"); }
  : (o) => process.stdout.write(JSON.stringify(o) + "\n");

// --- the VM ---------------------------------------------------------------
// Growth refused: the heap stays as loaded (NOTES.md: heapsize alone is no cap).
// The collector is conservative: any word in a scanned block that looks
// like the address of a heap block keeps that block alive. Bytes of game
// data (cards, actions, saves) are small numbers; as words they look like
// addresses just above 0, where this VM's heap would be, so a collection
// kept kilobytes alive or not by chance (a menu 7 KB larger after one
// match, and not after the next, flipping with unrelated code changes).
// The Pico's heap is at 0x2000xxxx: the VM's is put there too, by a
// malloc of the gap just before mp_js_init allocates it.
const HEAP_AT = 0x20000000;
let refuseGrowth = false;
let padding = false;
const realInstantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function (binary, imports) {
  if (imports && imports.env && imports.env.emscripten_resize_heap) {
    const grow = imports.env.emscripten_resize_heap;
    const refuse = refuseGrowth;
    imports.env.emscripten_resize_heap = (n) => (refuse && !padding ? 0 : grow(n));
  }
  const res = await realInstantiate.call(this, binary, imports);
  const inst = res.instance || res;
  const ex = inst.exports;
  if (!ex.mp_js_init || !ex.malloc) return res;
  const exports = Object.assign({}, ex);
  exports.mp_js_init = (pystack, heapsize) => {
    padding = true; // (growth allowed until the heap is in place, capped or not)
    const at = ex.malloc(16);
    if (at && at < HEAP_AT - (1 << 20)) ex.malloc(HEAP_AT - at - 4096);
    try {
      return ex.mp_js_init(pystack, heapsize);
    } finally {
      padding = false;
    }
  };
  const instance = { exports };
  return res.instance ? { instance, module: res.module } : instance;
};

let mp = null;
let py = null; // the driver module's functions

function copyTree(src, dst) {
  for (const name of fs.readdirSync(src)) {
    const s = path.join(src, name);
    const d = dst + "/" + name;
    if (fs.statSync(s).isDirectory()) {
      mp.FS.mkdirTree(d);
      copyTree(s, d);
    } else {
      mp.FS.writeFile(d, fs.readFileSync(s));
    }
  }
}

// The console: a MemoryError the app catches itself (its out-of-memory
// screen) is a MemoryError all the same; "mem ..." lines (PISTI_MEMLOG) are kept.
let consoleOOM = "";
let consoleLines = 0;
// The interned names (qstrs). This VM keeps them in pools that double in
// size, as CircuitPython does, but it interns names the Pico holds in ROM
// (the stand-ins' displayio, keypad, ... API, the driver's own), so its pools
// cross a doubling step (a ~9 KB pool) at another point than the Pico's: a
// cliff in the wrong place. Figures count the names instead as the Pico's
// entries cost, 6 B each (a pointer, a 1-byte hash, a 1-byte length:
// CircuitPython's MICROPY_QSTR_BYTES_IN_HASH/LEN), plus their characters.
// drive.py prints micropython.qstr_info() at the start and end of each step.
const QSTR_ENTRY = 6;
let qLines = [];
function qstrExcess(line) {
  const g = (k) => Number((line.match(new RegExp(k + "=(\\d+)")) || [0, 0])[1]);
  return g("n_total_bytes") - (g("n_str_data_bytes") + QSTR_ENTRY * g("n_qstr"));
}
function onConsole(line) {
  if (line.startsWith("qstr pool:")) {
    qLines.push(qstrExcess(line));
    return;
  }
  if ((line.includes("MemoryError") || line.includes("out of memory")) && !consoleOOM) consoleOOM = line;
  if (consoleLines++ < 2000) out({ ev: "stdout", text: line });
}

async function loadVM(heapsize, capped) {
  refuseGrowth = capped;
  const vm = await loadMicroPython({
    heapsize, pystack: PYSTACK, linebuffer: true, stdout: onConsole, stderr: onConsole,
  });
  if (capped) {
    // Use up the spare C heap, keeping 64 KB for the calls from JS (their
    // argument buffers): a new GC area would need about the heap's size.
    const M = vm._module;
    const keep = M._malloc(65536);
    for (let size = 1 << 24; size >= 16; size >>= 1) {
      while (M._malloc(size)) { /* taken */ }
    }
    M._free(keep);
  }
  return vm;
}

// A heapsize whose gc.mem_free() at a fresh VM is `cap` (CircuitPython's
// 171,264 B is gc.mem_free() at a fresh REPL), found by trying.
// Counted once the stand-ins are loaded, like `base`.
async function heapFor(cap) {
  let hs = cap + 32768;
  for (let i = 0; i < 8; i++) {
    heapsize = hs;
    mp = await loadVM(hs, false);
    await setUp();
    const free = py.free();
    if (Math.abs(cap - free) < 16) return hs;
    hs += Math.round((cap - free) * 1.02);
    if (!(hs > 0 && hs < 64 << 20)) throw new Stop("js", "no heapsize found for a cap of " + cap);
  }
  return hs;
}

let heapsize = 512 * 1024;
let totalStart = null;
let nvm = null; // the nvm bytes kept across power cuts

async function powerOn() {
  mp = await loadVM(heapsize, CAP > 0);
  await setUp();
}

async function setUp(standins = true) {
  mp.FS.mkdirTree("/lib");
  copyTree(ROOT, "");
  if (CONSOLES > 2 && ME > 0) {
    // A ring's consoles draw their ring ids and deal bytes from the seeded
    // chance (PISTI_SEED): each guest its own seed, the host's plus its place
    // (as the simulator's consoles); with one seed the guests, pressing the
    // same buttons, would draw the same ids.
    const text = new TextDecoder().decode(mp.FS.readFile("/settings.toml"));
    mp.FS.writeFile("/settings.toml", text.replace(/^PISTI_SEED = (\d+)$/m, (_, v) => "PISTI_SEED = " + (Number(v) + ME)));
  }
  if (nvm === null) nvm = new Uint8Array(4096).fill(0xff);
  mp.FS.writeFile("/nvm.bin", nvm);
  mp.runPython("import sys\nsys.path.insert(0, '/gauge')");
  const d = mp.pyimport("memgauge_drive");
  py = {
    boot: d.boot, step: d.step, screen: d.screen, status: d.status, value: d.value,
    text: d.text, press: d.press, mem: d.mem, free: d.free, load: d.load, collect: d.collect,
    record: d.record, taken: d.taken, qstrs: d.qstrs, d,
  };
  py.collect();
  vmStart = py.mem();
  // CircuitPython's C modules cost no heap for their code: load the stand-ins
  // now and count from here (the device's 171,264 B is free at a fresh REPL).
  if (standins) for (const m of STANDINS) check(py.load(m), "importing the stand-in " + m);
  if (LINK) {
    py.d.link_seed(11 * (ME + 1) + 100 * restarts); // (a restart draws other bytes)
    py.d.link_cables(1, CONSOLES > 2 ? 1 : 0); // a ring plugs both UARTs, two consoles their first
  }
  qLines = [];
  py.qstrs();
  baseQ = qLines.length ? qLines[0] : 0;
  qLines = [];
  base = py.mem();
  if (RECORD) py.record();
}

// --- imports split into calls (see drive.py) -----------------------------------
const RECORD = opt("--record-imports", "");
const SCHEDULE = opt("--schedule", "") ? JSON.parse(fs.readFileSync(opt("--schedule", ""), "utf8")) : {};
const recorded = {};
let seq = 0; // boot, step and status calls, counted over power cuts
function before() {
  seq++;
  const names = SCHEDULE[seq];
  if (names) for (const n of names) check(py.load(n), "importing " + n + " (before call " + seq + ")");
}
function after() {
  if (!RECORD) return;
  const t = py.taken();
  if (t) recorded[seq] = t.split(",");
}
let vmStart = 0;

function powerCut() {
  nvm = new Uint8Array(mp.FS.readFile("/nvm.bin"));
  mp = null; // dropped: the next VM starts from the same nvm bytes
  py = null;
}

// --- bookkeeping ------------------------------------------------------------
const rows = new Map(); // "mode\tscreen" -> {n, min, max}
const modes = {};
for (const m of MODES) modes[m] = { peak: 0, matches: 0, ticks: 0 };
modes.demo = { peak: 0, matches: 0, ticks: 0, seen: [] }; // the demo that plays itself
let phase = "boot"; // boot, menus, or a mode key
let screenName = "";
let ticks = 0;
let menuPeak = 0;
let menuBoot = 0;
let gamePeak = 0;
let allPeak = 0;
let rawPeak = 0;
// The main menu is never in a match; its rows say when: "menus" (the first
// boot), "cut" (booted after the power cut, Continue offered), "<mode>>" (back
// from that mode's match end).
let menuTag = "menus";
let base = 0; // gc.mem_alloc() once the driver and the stand-ins are loaded, before boot
const STANDINS = opt("--standins", "").split(",").filter((m) => m);

let baseQ = 0; // qstrExcess() when `base` was read
function record(raw, rawTop) {
  // Net of the VM's start, the driver and the stand-ins' code; names counted
  // as on the Pico (qstrExcess above).
  const qs = qLines.length ? qLines[0] : baseQ;
  const qe = qLines.length > 1 ? qLines[qLines.length - 1] : qs;
  qLines = [];
  const live = raw - qs - (base - baseQ);
  const top = rawTop - qe - (base - baseQ); // in use at the end of the tick, its garbage not collected yet
  const ph = screenName === "menu" ? menuTag : phase;
  const key = ph + "\t" + screenName;
  let r = rows.get(key);
  if (!r) rows.set(key, (r = { n: 0, min: live, max: live, top: 0 }));
  r.n++;
  if (top > r.top) r.top = top;
  if (live < r.min) r.min = live;
  if (live > r.max) r.max = live;
  if (live > allPeak) allPeak = live;
  if (raw > rawPeak) rawPeak = raw;
  if (screenName === "menu") menuPeak = Math.max(menuPeak, live);
  else if (modes[ph]) {
    modes[ph].peak = Math.max(modes[ph].peak, live);
    modes[ph].ticks++;
    gamePeak = Math.max(gamePeak, live);
  }
}

class Stop extends Error {
  constructor(kind, text) { super(kind + ": " + text); this.kind = kind; this.text = text; }
}

function check(code, what) {
  if (code === -2) throw new Stop("MemoryError", what);
  if (consoleOOM) throw new Stop("MemoryError", what + " (caught by the app: " + consoleOOM + ")");
  if (code === -3) throw new Stop("exception", what + "\n" + py.d.error);
  if (code === -4) throw new Stop("reset", what);
  return code;
}

let restarts = 0; // this console's restarts (restartVM)
let restartDue = false; // the app asked for one: no more ticks of this VM (run() leaves its loop)
function tick() {
  if (restartDue) return;
  if (LINK) linkIn();
  before();
  const live = check(py.step(TICK_MS), "in App.tick() on " + phase + "/" + screenName);
  after();
  if (LINK) linkOut();
  record(live, py.d.top);
  if (LINK && py.d.restarting()) restartDue = true;
  const was = screenName;
  screenName = py.screen();
  ticks++;
  if (ticks % 500 === 0 || was !== screenName)
    out({ ev: "progress", ticks, phase, screen: screenName, live: live - base });
  if (ticks > MAX_TICKS) throw new Stop("stuck", "more than " + MAX_TICKS + " ticks");
}

function status() {
  before();
  const s = py.status();
  after();
  if (typeof s === "string" && s[0] === "!") check(Number(s.slice(1)), "in App.status() on " + screenName);
  return JSON.parse(s);
}

// --- buttons ------------------------------------------------------------------
// tools/boards/pico.toml: PISTI_BUTTONS = "UP:GP10,DOWN:GP11,LEFT:GP12,RIGHT:GP13,A:GP14,B:GP15"
const KEY = { UP: 0, DOWN: 1, LEFT: 2, RIGHT: 3, A: 4, B: 5 };

function tap(name, holdTicks = 5) {
  py.press(KEY[name], true);
  for (let i = 0; i < holdTicks; i++) tick();
  py.press(KEY[name], false);
  tick();
  tick();
}

// --- the player -----------------------------------------------------------------
const texts = {};
function t(key) {
  if (!(key in texts)) texts[key] = py.text(key);
  return texts[key];
}
function forgetTexts() { for (const k of Object.keys(texts)) delete texts[k]; }

function moveTo(st, key) {
  // UP/DOWN in a list menu until the cursor is on `key`; false when there
  const want = st.menu.indexOf(key);
  if (want < 0) throw new Stop("stuck", "no row " + key + " in " + JSON.stringify(st.menu));
  const at = st.menu.indexOf(st.cursor);
  if (at === want) return false;
  tap(want > at ? "DOWN" : "UP");
  return true;
}

function newGameWants(spec) {
  const w = {
    game: t(spec.game),
    players: String(spec.players),
    target: "101",
    level: t("lv_usta"),
    mode: t(spec.rated ? "rated" : "practice"),
  };
  if (spec.consoles) w.consoles = String(spec.consoles); // the Host screen's Consoles row (a ring)
  for (let i = 1; i < 4; i++) w["seat" + i] = t("lv_usta");
  return w;
}

// One decision on a menu-like screen toward `goal`; returns true when done.
function rowValue(st, key) {
  // status()["values"] when the app gives it (a dict, or a list along "menu"),
  // else the screen's row object (ListMenu.item(key).value)
  const vs = st.values;
  if (Array.isArray(vs)) return vs[st.menu.indexOf(key)];
  if (vs && typeof vs === "object") return vs[key];
  return py.value(key);
}

function setRows(st, wants) {
  for (const key of st.menu) {
    if (!(key in wants)) continue;
    const v = rowValue(st, key);
    if (v === null || v === undefined || v === wants[key]) continue;
    if (!moveTo(st, key)) tap("RIGHT");
    return true; // one step taken
  }
  return false;
}

const SPEC = {
  link_pisti2: { game: "pisti", players: 2 }, link_yedili4: { game: "yedili", players: 4 },
  ring_pisti4: { game: "pisti", players: 4, consoles: 4 }, ring_yedili3: { game: "yedili", players: 3, consoles: 3 },
  ring_yedili4: { game: "yedili", players: 4, consoles: 4 },
  pisti2: { game: "pisti", players: 2 }, pisti4: { game: "pisti", players: 4 },
  yedili2: { game: "yedili", players: 2 }, yedili3: { game: "yedili", players: 3 },
  yedili4: { game: "yedili", players: 4 },
};

function pistiChoice(st) {
  // take the pile when a card can (a match or a Jack), else the first card
  const pile = st.pile || [];
  const top = pile.length ? pile[pile.length - 1] : null;
  for (const c of st.your_hand) {
    if (top && (c.slice(0, -1) === top.slice(0, -1) || c[0] === "J") && st.legal.includes(c)) return c;
  }
  return st.legal[0];
}

function yediliChoice(st) {
  const legal = st.legal;
  const cards = legal.filter((a) => a !== "draw" && a !== "pass" && !a.startsWith("pick:"));
  const plain = cards.filter((a) => !a.includes(":"));
  if (plain.length) return plain[0];
  if (cards.length) return cards[0];
  if (legal.includes("draw")) return "draw";
  if (legal.includes("pass")) return "pass";
  return legal[0];
}

function playTurn(st) {
  if (st.game === "pisti") {
    const c = pistiChoice(st);
    const want = st.your_hand.indexOf(c);
    if (st.cursor === want) tap("A");
    else tap(((want - st.cursor + st.your_hand.length) % st.your_hand.length) <= st.your_hand.length / 2
      ? "RIGHT" : "LEFT");
    return;
  }
  const f = st.focus;
  if (f === "suit" || f === "pick") { tap("A"); return; }
  const a = yediliChoice(st);
  if (a === "draw" || a === "pass") { tap(f === "action" ? "A" : "UP"); return; }
  if (a.startsWith("pick:")) { tap("A"); return; }
  if (f === "action") { tap("DOWN"); return; }
  const want = st.your_hand.indexOf(a.split(":")[0]);
  if (want < 0) throw new Stop("stuck", "card " + a + " not in " + JSON.stringify(st.your_hand));
  if (st.cursor === want) tap("A");
  else tap(want > st.cursor ? "RIGHT" : "LEFT");
}

// --- link play ------------------------------------------------------------
// The cables (cablesOf): two consoles join their first UARTs (link 1); a
// ring of three or four joins console i's first UART to console i+1's second
// (link 2), the last console's first back to the host's second. Each cable
// is two directions, d = 2c from its end a to its end b and 2c + 1 back.
//
// The consoles tick in lockstep: none starts tick n + 1 before every other
// has done n (their virtual clocks agree, as boards' do), and at the start of
// tick n + 1 a console's UARTs get exactly the bytes the others wrote up to
// the end of their tick n. So a run is the same run however the machine
// schedules the workers: the same bytes reach each console at the same tick.
// The workers share `sab`: LS[k] the ticks console k has done; LS[FIN + k]
// set once it has played its part, LS[DONE + k] once it is gone (no one
// waits for it then); LS[FAILED] the first console that stopped on an error
// (its place + 1: the others stop too, instead of playing on without it);
// for each direction d its bytes in RINGS[d], LS[LATEST + d] how many were
// written, LS[AT + 2d + n % 2] how many by the end of the writer's tick n
// (a writer is never two ticks ahead of a reader, so two slots hold it).
const RING = 1 << 16;
const FIN = 4;
const DONE = 8;
const FAILED = 12;
const LATEST = 16;
const AT = 24;
const HEAD = 256; // bytes of LS: four consoles, eight directions
function cablesOf(n) {
  // [[console, link] at end a, [console, link] at end b] for each cable
  if (n === 2) return [[[0, 1], [1, 1]]];
  return Array.from({ length: n }, (_, i) => [[i, 1], [(i + 1) % n, 2]]);
}
function rolesOf(n) { return n === 2 ? ["host", "guest"] : ["host", "guest1", "guest2", "guest3"].slice(0, n); }
const LS = LINK ? new Int32Array(workerData.sab, 0, HEAD / 4) : null;
const RINGS = [];
const INS = []; // {d, link, from, read}: the directions that end at this console, its UART there, the writer
const OUTS = []; // {d, link}: those that start here
if (LINK) {
  cablesOf(CONSOLES).forEach(([a, b], c) => {
    RINGS.push(new Uint8Array(workerData.sab, HEAD + 2 * c * RING, RING),
      new Uint8Array(workerData.sab, HEAD + (2 * c + 1) * RING, RING));
    if (a[0] === ME) {
      OUTS.push({ d: 2 * c, link: a[1] });
      INS.push({ d: 2 * c + 1, link: a[1], from: b[0], read: 0 });
    }
    if (b[0] === ME) {
      OUTS.push({ d: 2 * c + 1, link: b[1] });
      INS.push({ d: 2 * c, link: b[1], from: a[0], read: 0 });
    }
  });
}
let linkTicks = 0; // the ticks this console has done

function linkIn() {
  for (const dir of INS) {
    const { d, link, from } = dir;
    // what the writer wrote by the end of its tick linkTicks (all it wrote, once it is gone)
    const w = Atomics.load(LS, Atomics.load(LS, DONE + from) ? LATEST + d : AT + 2 * d + linkTicks % 2);
    const r = dir.read;
    if (w === r) continue;
    const buf = Buffer.alloc(w - r);
    for (let i = 0; i < w - r; i++) buf[i] = RINGS[d][(r + i) % RING];
    dir.read = w;
    py.d.uart_in(buf.toString("hex"), link);
  }
}

function linkOut() {
  const mine = ++linkTicks;
  for (const { d, link } of OUTS) {
    const hex = py.d.uart_out(link);
    let w = LS[LATEST + d];
    if (hex) {
      for (const x of Buffer.from(hex, "hex")) RINGS[d][w++ % RING] = x;
      Atomics.store(LS, LATEST + d, w);
    }
    Atomics.store(LS, AT + 2 * d + mine % 2, w);
  }
  Atomics.store(LS, ME, mine);
  Atomics.notify(LS, ME);
  for (let k = 0; k < CONSOLES; k++) {
    if (k === ME) continue;
    for (;;) {
      const f = Atomics.load(LS, FAILED);
      if (f) throw new Stop("peer", rolesOf(CONSOLES)[f - 1] + " stopped");
      const o = Atomics.load(LS, k);
      if (o >= mine || Atomics.load(LS, DONE + k)) break;
      Atomics.wait(LS, k, o, 100);
    }
  }
}

function linkFailed(result) {
  // this console stopped on an error: said at once, and the others stop at their next tick
  if (result.kind !== "peer") {
    out({ ev: "note", text: LINK + " stopped (" + phase + "/" + screenName + "): " + result.kind + ": " +
      String(result.error).slice(-1500) });
    Atomics.compareExchange(LS, FAILED, 0, ME + 1);
  }
}

function linkDone() {
  // gone: no one waits for this console's ticks any more
  if (!LINK) return;
  Atomics.store(LS, DONE + ME, 1);
  Atomics.notify(LS, ME);
}

function allFinished() {
  for (let k = 0; k < CONSOLES; k++) if (!Atomics.load(LS, FIN + k) && !Atomics.load(LS, DONE + k)) return false;
  return true;
}

function linkFinish() {
  // played to the end: keep ticking in step (the others' last acks, the ring's frames passed on)
  // until every console has
  Atomics.store(LS, FIN + ME, 1);
  waited = 0;
  while (!allFinished()) idle(1);
}

// One console of a link match, by its buttons: the host sets the New game
// rows (practice, Usta bots) and hosts from Link play (its Host screen shows
// those rows: A offers); the guest joins and
// takes the offer (A); both play their own seat until the match ends.
// The board's supervisor.reload() (pisti_app.run: a link game starts on a fresh
// heap, and so does the main menu after one): code.py again in a new VM, the
// nvm kept, booted as after a reload. The other console's VM runs on; what
// it sends meanwhile is lost, as on a cable to a rebooting board.
async function restartVM() {
  restartDue = false;
  restarts++;
  out({ ev: "note", text: LINK + " restarts (" + phase + "/" + screenName + ")" });
  powerCut();
  await powerOn();
  py.d.reloaded();
  before();
  check(py.boot(), "booting after the restart");
  after();
  screenName = py.screen();
}

async function playLink(item) {
  const spec = SPEC[item.mode];
  const host = item.link === "host";
  const wants = newGameWants({ ...spec, rated: false });
  let rowsSet = !host;
  waited = 0;
  for (;;) {
    if (restartDue) await restartVM();
    const st = status();
    const s = st.screen;
    if (s === "menu") {
      if (modes[item.mode].matches > 0) { phase = "menus"; return; }
      if (!rowsSet) { if (!moveTo(st, "new_game")) tap("A"); } else if (!moveTo(st, "link_play")) tap("A");
    } else if (s === "new_game") {
      if (!setRows(st, wants)) { rowsSet = true; tap("B"); }
    } else if (s === "link" && st.menu) {
      if (!moveTo(st, host ? "link_host" : "link_join")) { if (!host) phase = item.mode; tap("A"); }
    } else if (s === "host") {
      // the Host screen: the New game rows (set already), A offers its game
      if (!setRows(st, wants)) { phase = item.mode; tap("A"); }
    } else if (s === "link") {
      idle(1); // waiting for the other consoles (Join listening, the ring's table set)
    } else if (s === "confirm") {
      waited = 0;
      tap("A"); // a guest: the offer (in a ring the whole table), joined; any console: a notice, OK
    } else if (s === "table") {
      if (phase !== item.mode) phase = item.mode;
      if (!item.seen) {
        item.seen = true;
        if (st.game !== spec.game || st.players !== spec.players)
          throw new Stop("stuck", "the link game is " + st.game + " " + st.players + "p, not " + item.mode);
        modes[item.mode].game = st.game + st.players; // the game this console sat down to
        out({ ev: "note", text: item.link + " at the " + item.mode + " table" });
      }
      if (st.legal.length) { waited = 0; playTurn(st); } else idle(1);
    } else if (s === "hand_end") {
      waited = 0;
      tap("A");
    } else if (s === "match_end") {
      if (!item.done) {
        item.done = true;
        modes[item.mode].matches++;
        modes[item.mode].totals = st.totals; // (seat by seat from this console's own person)
        menuTag = item.mode + ">";
        out({ ev: "match", mode: item.mode, totals: st.totals, ticks });
      }
      tap("B");
      idle(20);
    } else if (s === "splash") {
      idle(1);
    } else {
      tap("B");
    }
  }
}

// The main thread of a link run: for each link mode, its consoles in
// workers of their own (this file again: two, or a ring's three or four),
// then one result: each console's peak and matches, the game it sat down
// to and its match's totals.
async function linkMain() {
  const t0 = Date.now();
  const res = { ev: "result", ok: true, cap: CAP, ticks: 0, menu_peak: 0, menu_boot: 0, game_peak: 0, peak: 0,
    modes: {}, rows: [] };
  for (const m of MODES) {
    const n = SPEC[m].consoles || 2;
    const roles = rolesOf(n);
    const sab = new SharedArrayBuffer(HEAD + 2 * cablesOf(n).length * RING);
    const wargv = argv.slice();
    wargv[wargv.indexOf("--modes") + 1] = m;
    const all = await Promise.all(roles.map((role, index) => new Promise((resolve) => {
      const w = new Worker(fileURLToPath(import.meta.url), { workerData: { role, index, n, sab, argv: wargv } });
      let got = null;
      w.on("message", (r) => { got = r; });
      w.on("error", (e) => { got = { ok: false, kind: "js", error: String((e && e.stack) || e) }; });
      w.on("exit", () => resolve(got || { ok: false, kind: "crash", error: role + ": the worker exited" }));
    })));
    const entry = { peak: 0, matches: 1 << 30 };
    all.forEach((r, i) => {
      const role = roles[i];
      const mm = (r.modes || {})[m] || { peak: 0, matches: 0 };
      entry[role] = { peak: mm.peak, matches: mm.matches, game: mm.game || null, totals: mm.totals || null };
      entry.peak = Math.max(entry.peak, mm.peak);
      entry.matches = Math.min(entry.matches, mm.matches);
      res.ticks += r.ticks || 0;
      res.menu_peak = Math.max(res.menu_peak, r.menu_peak || 0);
      res.menu_boot = Math.max(res.menu_boot, r.menu_boot || 0);
      res.game_peak = Math.max(res.game_peak, r.game_peak || 0);
      res.peak = Math.max(res.peak, r.peak || 0);
      for (const row of r.rows || []) res.rows.push([role + ":" + row[0], ...row.slice(1)]);
      // (the console that stopped first, not the others it stopped)
      if (!r.ok && (res.ok || (res.kind === "peer" && r.kind !== "peer"))) Object.assign(res, { ok: false,
        kind: r.kind, error: role + ": " + r.error, phase: r.phase, screen: r.screen });
      if (!r.ok && r.kind !== "peer") entry.error = role + ": " + r.kind + ": " + r.error; // (this mode's own)
      if (r.heap_total_start) { res.heap_total_start = r.heap_total_start; res.heap_total_end = r.heap_total_end; }
    });
    res.modes[m] = entry;
  }
  res.seconds = (Date.now() - t0) / 1000;
  out(res);
}

// --- the scenario -----------------------------------------------------------------
const plan = [];
if (LINK) MODES.forEach((m) => plan.push({ mode: m, link: LINK }));
else MODES.forEach((m, i) => {
  plan.push({ mode: m, rated: i === 0, cut: i === 0 });
  if (i === 0) plan.push({ lang: "tr" });
  if (MODES.length >= 3 && i === MODES.length - 2) plan.push({ lang: "en" });
});
if (MODES.length === 1 && !LINK) plan.push({ lang: "en" });
if (!LINK) plan.push({ demo: true });

let waited = 0;
function idle(ticksToWait = 1) {
  for (let i = 0; i < ticksToWait; i++) tick();
  waited += ticksToWait;
  if (waited > 20000) throw new Stop("stuck", "nothing to do for 20000 ticks on " + screenName);
}

async function bootToMenu() {
  phase = "boot";
  screenName = "";
  before();
  check(py.boot(), "booting");
  after();
  out({ ev: "note", text: "boot(): " + (py.d.top - base) + " B allocated in the call (nothing is collected during a call)" });
  screenName = py.screen();
  let n = 0;
  while (screenName !== "menu") {
    tick();
    if (++n > 3000) throw new Stop("stuck", "no main menu after 3000 ticks (" + screenName + ")");
    if (n % 200 === 0) tap("A"); // a splash waiting for a key
  }
  phase = "menus";
  for (let i = 0; i < 100; i++) tick(); // settle at the menu: 1 s
  if (!menuBoot) menuBoot = rows.get("menus\tmenu").max; // the first boot, nvm empty
}

async function playMode(item) {
  const spec = SPEC[item.mode];
  const wants = newGameWants({ ...spec, rated: item.rated });
  let resumed = !item.cut;
  let cutDone = false;
  let handsAtCut = 0;
  waited = 0;
  for (;;) {
    const st = status();
    const s = st.screen;
    if (s === "menu") {
      if (modes[item.mode].matches > 0 && phase === item.mode) { phase = "menus"; return; }
      if (cutDone && !resumed) {
        if (!st.menu.includes("continue")) throw new Stop("stuck", "no Continue after the power cut");
        if (!moveTo(st, "continue")) { phase = item.mode; tap("A"); resumed = true; }
        continue;
      }
      if (!moveTo(st, "new_game")) tap("A");
    } else if (s === "new_game") {
      if (!setRows(st, wants)) {
        if (!moveTo(st, "start")) { phase = item.mode; tap("A"); }
      }
    } else if (s === "table") {
      if (phase !== item.mode) phase = item.mode;
      if (!item.seen) {
        item.seen = true; // the game the menu was set up for?
        const lv = (st.levels || []).slice(1);
        if (st.game !== spec.game || st.players !== spec.players || lv.some((l) => l !== "usta") ||
            st.rated !== !!item.rated)
          throw new Stop("stuck", "the new game screen started " + JSON.stringify(
            { game: st.game, players: st.players, levels: st.levels, rated: st.rated }) + " for " + item.mode);
      }
      if (item.cut && !cutDone && st.hand >= 2 && st.ply >= 6 && st.legal.length) {
        // a power cut mid-match of the rated game: a new VM with the same nvm
        out({ ev: "note", text: "power cut in " + item.mode + " hand " + st.hand + " ply " + st.ply });
        handsAtCut = st.hand;
        cutDone = true;
        powerCut();
        await powerOn();
        forgetTexts();
        menuTag = "cut";
        await bootToMenu();
        continue;
      }
      if (resumed && item.cut && handsAtCut && !item.checked) {
        item.checked = true;
        if (!st.rated || st.hand !== handsAtCut)
          throw new Stop("stuck", "Continue did not resume the rated game: " + JSON.stringify(st).slice(0, 300));
        out({ ev: "note", text: "resumed " + item.mode + " at hand " + st.hand + " ply " + st.ply });
      }
      if (st.legal.length) { waited = 0; playTurn(st); } else idle(1);
    } else if (s === "hand_end") {
      waited = 0;
      tap("A");
    } else if (s === "match_end") {
      if (item.cut && !cutDone) throw new Stop("stuck", "the rated match ended in its first hand: no power cut");
      if (!item.done) {
        item.done = true;
        modes[item.mode].matches++;
        menuTag = item.mode + ">";
        out({ ev: "match", mode: item.mode, totals: st.totals, ticks });
      }
      tap("B"); // the main menu (A would be a rematch)
      idle(20);
    } else if (s === "confirm") {
      tap("A");
    } else if (s === "splash") {
      idle(1);
    } else {
      tap("B");
    }
  }
}

function switchLang(lang) {
  const want = lang === "tr" ? "Türkçe" : "English";
  waited = 0;
  for (let n = 0; n < 200; n++) {
    const st = status();
    if (st.screen === "menu") {
      if (st.lang === lang) { idle(50); return; }
      if (!moveTo(st, "settings")) tap("A");
    } else if (st.screen === "settings") {
      if (rowValue(st, "lang") === want || st.lang === lang) { tap("B"); forgetTexts(); continue; }
      if (!moveTo(st, "lang")) tap("RIGHT");
    } else {
      tap("B");
    }
  }
  throw new Stop("stuck", "could not switch the language to " + lang);
}

// The demo: left alone for 30 s at the main menu it starts by
// itself, plays its first mode (Pişti 2p) to the match end and goes on to
// the next (Pis Yedili 3p), watched to its first hand's end; a key ends it,
// and Watch starts the next modes (Pişti 4p, Pis Yedili 4p), each watched
// to its first hand's end and ended by a key. Counted as "demo".
function watchDemo() {
  const demo = modes.demo;
  let n = 0;
  waited = 0;
  while (screenName === "menu") {
    tick();
    if (++n > 3500) throw new Stop("stuck", "no demo after 35 s alone at the main menu");
  }
  if (n < 2900) throw new Stop("stuck", "the demo started after " + n + " ticks at the main menu, not 30 s");
  phase = "demo";
  menuTag = "demo>";
  for (let round = 0; round < 4; round++) {
    let st = status();
    if (!st.demo || st.screen !== "table") throw new Stop("stuck", "no demo table: " + JSON.stringify(st).slice(0, 300));
    demo.seen.push(st.game + st.players);
    const until = round === 0 ? "its next match" : "a hand end";
    let was = screenName;
    for (n = 0; ; n++) {
      tick();
      if (n > 30000) throw new Stop("stuck", "the demo did not reach " + until);
      if (screenName === was) continue;
      if (screenName === "match_end") demo.matches++;
      if (round === 0 && was === "match_end" && screenName === "table") break; // the next match came by itself
      if (round > 0 && screenName === "hand_end") { for (let i = 0; i < 20; i++) tick(); break; }
      was = screenName;
    }
    if (round === 0) continue; // watched on: the demo went on to its next mode by itself
    tap("B"); // any key: back to the main menu, and nothing else
    idle(5);
    st = status();
    if (st.screen !== "menu" || st.demo) throw new Stop("stuck", "a key did not end the demo: " + JSON.stringify(st).slice(0, 300));
    if (round === 3) break;
    phase = "menus";
    for (n = 0; moveTo(st, "watch"); n++) { st = status(); if (n > 10) throw new Stop("stuck", "no Watch row"); }
    phase = "demo";
    tap("A");
    idle(2);
  }
  phase = "menus";
}

async function calibrateAlone(list) {
  // each module (with what it imports) in a fresh VM, the stand-ins loaded
  const steps = [];
  for (const name of list) {
    mp = await loadVM(heapsize, false);
    await setUp();
    const r = py.load(name);
    if (r < 0) out({ ev: "note", text: "import " + name + " failed: " + r + " " + (py.d.error || "") });
    steps.push([name, py.mem() - base]);
  }
  out({ ev: "calibration", kind: "alone", steps });
}

async function calibrate() {
  // What each piece costs once in the heap: the driver, the stand-ins (C on
  // the device), the device libraries, the project modules one by one in the
  // order the app imports them.
  mp = await loadVM(heapsize, false);
  await setUp(false);
  base = vmStart;
  const steps = [];
  const m0 = py.mem();
  steps.push(["vm_start", vmStart]);
  const list = STANDINS.concat(JSON.parse(opt("--calibrate-modules", "[]")));
  let last = m0;
  for (const name of list) {
    const r = py.load(name);
    if (r < 0) { out({ ev: "note", text: "import " + name + " failed: " + r + " " + (py.d.error || "") }); }
    const m = py.mem();
    steps.push([name, m - last]);
    last = m;
  }
  out({ ev: "calibration", kind: "in_order", steps, total: last - m0 });
  await calibrateAlone(list.filter((m) => !STANDINS.includes(m)));
}

// --- main -------------------------------------------------------------------------
const linked = (m) => m.startsWith("link_") || m.startsWith("ring_");
if (isMainThread && MODES.some(linked)) {
  if (!MODES.every(linked)) {
    out({ ev: "result", ok: false, kind: "js",
      error: "link and ring modes run on their own (a VM a console): --modes link_...,ring_..." });
  } else {
    await linkMain();
  }
  process.exit(0);
}
const t0 = Date.now();
let result = { ok: true };
try {
  if (CAP > 0) heapsize = await heapFor(CAP);
  await powerOn();
  out({ ev: "note", text: "vm: heapsize " + heapsize + (CAP ? " (capped, growth refused)" : "") +
    "; at start " + vmStart + " B in use, with the stand-ins " + base + " B; free then " + py.free() + " B" });
  out({ ev: "base", vm_start: vmStart, base, standins: base - vmStart, free: py.free() });
  totalStart = py.mem() + py.free();
  if (argv.includes("--calibrate")) {
    await calibrate();
  } else {
    await bootToMenu();
    for (const item of plan) {
      if (item.link) await playLink(item);
      else if (item.mode) await playMode(item);
      else if (item.demo) watchDemo();
      else switchLang(item.lang);
      out({ ev: "progress", ticks, phase, screen: screenName, done: item.mode || (item.demo ? "demo" : "lang:" + item.lang) });
    }
    if (LINK) linkFinish();
  }
} catch (e) {
  if (e instanceof Stop) result = { ok: false, kind: e.kind, error: e.text };
  else result = { ok: false, kind: "js", error: String(e && e.stack || e) };
}
if (RECORD) fs.writeFileSync(RECORD, JSON.stringify(recorded));
const table = [];
for (const [k, r] of rows) {
  const [mode, screen] = k.split("\t");
  table.push([mode, screen, r.n, r.min, r.max, r.top]);
}
let total = null;
try { if (py) total = py.mem() + py.free(); } catch (e) { total = null; }
if (LINK && !result.ok) linkFailed(result);
if (LINK) linkDone();
(LINK ? (o) => parentPort.postMessage(o) : out)({
  ev: "result", ...result, cap: CAP, heapsize, heap_total_start: totalStart, heap_total_end: total, ticks,
  seconds: (Date.now() - t0) / 1000, phase, screen: screenName,
  menu_peak: menuPeak, menu_boot: menuBoot, game_peak: gamePeak, peak: allPeak, raw_peak: rawPeak,
  vm_start: vmStart, base, modes, rows: table,
});
