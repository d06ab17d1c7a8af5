// SPDX-FileCopyrightText: 2026 pisti developers
// SPDX-License-Identifier: MIT
// The page: the OLED on a canvas, the buttons (screen, touch, mouse,
// keyboard), the saves in localStorage, the heap line, one App.tick() per
// timer call. Query parameters:
//   profile=featherwing   the 128x32 three-button board (default pico)
//   seed=N start=pisti:2:usta lang=tr rated=1 delay=MS   as tools/sim.py's options
//   keys=A*3,RIGHT,A      a key script on a virtual clock, as tools/sim.py --keys
//                         (the page stops when it has settled; window.pisti.done)
//   cap=BYTES             the heap (default the Pico's 171,264 B)
import { Console, loadFiles, PICO_HEAP } from "./pisti.mjs";

const T0 = performance.now();
const q = new URLSearchParams(location.search);
const profile = q.get("profile") === "featherwing" ? "featherwing" : "pico";
const BUTTONS = profile === "pico" ? ["UP", "DOWN", "LEFT", "RIGHT", "A", "B"] : ["A", "B", "C"];
const KEYMAP = profile === "pico"
  ? { ArrowUp: "UP", ArrowDown: "DOWN", ArrowLeft: "LEFT", ArrowRight: "RIGHT", z: "A", Z: "A", a: "A",
      A: "A", Enter: "A", " ": "A", x: "B", X: "B", b: "B", B: "B", Escape: "B", Backspace: "B" }
  : { ArrowUp: "A", ArrowLeft: "A", ArrowDown: "C", ArrowRight: "C", a: "A", A: "A", c: "C", C: "C",
      b: "B", B: "B", Enter: "B", " ": "B", Escape: "B", Backspace: "B" };
const SCALE = 4;
const LIT = [232, 246, 255];
const DARK = [3, 4, 5];
const NVM_KEY = "pisti.nvm." + profile;

const $ = (id) => document.getElementById(id);
const canvas = $("screen");
const ctx = canvas.getContext("2d");
const pisti = (window.pisti = {
  state: "loading", done: false, ticks: 0, firstFrameMs: null, error: "", lines: [], boots: 0,
});

function setState(s, text) {
  pisti.state = s;
  $("state").textContent = text;
}

function fail(text) {
  pisti.error = text;
  pisti.done = true;
  setState("error", "the firmware stopped: its traceback is below");
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
function draw(con) {
  const w = con.width;
  const h = con.height;
  if (!image || image.width !== w * SCALE || image.height !== h * SCALE) {
    canvas.width = w * SCALE;
    canvas.height = h * SCALE;
    image = ctx.createImageData(w * SCALE, h * SCALE);
  }
  const px = image.data;
  const fb = con.frame;
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

// --- the console ------------------------------------------------------------------
let con = null;
const held = new Set();
function press(name, down) {
  const k = BUTTONS.indexOf(name);
  if (k < 0 || !con) return;
  if (down === held.has(name)) return;
  if (down) held.add(name);
  else held.delete(name);
  const b = document.querySelector('#pad button[data-key="' + name + '"]');
  if (b) b.classList.toggle("down", down);
  if (pisti.state === "oom") {
    // the notice waits for OK pressed and let go, then the board restarts (supervisor.reload())
    if (k === con.oomKey) {
      if (down) con.oomDown = true;
      else if (con.oomDown) restart();
    }
    return;
  }
  if (pisti.state === "running") con.press(k, down);
}

function overrides() {
  const o = { PISTI_MEMLOG: 1 };
  if (q.get("seed") !== null) o.PISTI_SEED = Number(q.get("seed"));
  if (q.get("start")) o.PISTI_START = q.get("start");
  if (q.get("lang")) o.PISTI_LANG = q.get("lang");
  if (q.get("rated")) o.PISTI_RATED = 1;
  if (q.get("delay") !== null) o.PISTI_DELAY = Number(q.get("delay"));
  return o;
}

function heapLine() {
  if ($("showheap").checked) {
    $("heap").hidden = false;
    $("heapline").textContent = "heap " + con.live.toLocaleString("en") + " / " +
      con.cap.toLocaleString("en") + " B in use between ticks (peak " + con.peak.toLocaleString("en") + ")";
    $("memline").textContent = con.lastMem || "";
  } else $("heap").hidden = true;
}

function handle(r) {
  // a step's or boot's result
  if (r >= 0) {
    if (r & 1) draw(con);
    return r;
  }
  if (r === -2) {
    draw(con); // the firmware's own out-of-memory notice
    con.oomDown = false;
    held.clear();
    setState("oom", "out of memory: the firmware's notice; press " + BUTTONS[con.oomKey] + " to restart");
    return r;
  }
  fail(con.error || "error " + r);
  return r;
}

async function restart() {
  setState("booting", "restarting into the saved game…");
  pisti.boots++;
  const r = handle(await con.power(true));
  if (r >= 0 || r === -2) runRealtime(r);
}

// --- ticking --------------------------------------------------------------------------
let last = 0;
let ticking = false;
function runRealtime(r) {
  if (r === -2) return;
  setState("running", "running: " + (profile === "pico" ? "128x64, six buttons" : "FeatherWing 128x32, three buttons"));
  last = performance.now();
  if (!ticking) {
    ticking = true;
    setTimeout(loop, 0);
  }
}
let carry = 0;
function loop() {
  if (pisti.state !== "running") {
    ticking = false;
    return;
  }
  const t = performance.now();
  carry += t - last;
  last = t;
  const ms = Math.floor(carry);
  carry -= ms;
  const r = handle(con.step(ms));
  pisti.ticks++;
  if (pisti.ticks % 20 === 0) heapLine();
  if (r < 0) {
    ticking = false;
    heapLine();
    return;
  }
  setTimeout(loop, Math.max(0, 10 - (performance.now() - t)));
}

// A key script on a virtual clock: tools/simlib/headless.py's ScriptDriver,
// 10 ms a tick as pisti_app.run() sleeps.
function parseKeys(text) {
  const steps = [];
  for (const item of text.split(",").map((s) => s.trim()).filter((s) => s)) {
    // NAME[:HOLD_MS][*N], or a burst A+LEFT+B (tapped one after another within one tick)
    const m = item.match(/^([A-Za-z]+(?:\+[A-Za-z]+)*)(?::(\d+))?(?:\*(\d+))?$/);
    const name = m ? m[1].toUpperCase() : "";
    if (!m || name.split("+").some((k) => !BUTTONS.includes(k)) || (name.includes("+") && m[2]))
      throw new Error("bad step " + item + " in keys");
    for (let i = 0; i < Number(m[3] || 1); i++) steps.push([name, name.includes("+") ? 0 : Number(m[2] || 60)]);
  }
  return steps;
}
const WAIT_MS = 8000; // the simulator's WAIT_MS and SETTLE_MS (tools/simlib/session.py)
const SETTLE_MS = 250;
function runScript(steps) {
  let now = 0;
  let lastFrame = 0;
  let since = null;
  let holding = null;
  let releaseAt = 0;
  let index = 0;
  let first = true;
  const t0 = performance.now();
  let n = 0;
  setState("script", "playing the key script…");
  const batch = () => {
    for (let i = 0; i < 200; i++) {
      const r = con.step(first ? 0 : 10);
      first = false;
      n++;
      pisti.ticks++;
      if (r < 0) {
        handle(r);
        pisti.scriptTicks = n;
        pisti.done = true;
        return;
      }
      if (r & 1) {
        lastFrame = now;
        pisti.dirty = true;
      }
      now += 10;
      const idle = !!(r & 2);
      if (holding !== null) {
        if (now >= releaseAt) {
          con.press(BUTTONS.indexOf(holding), false);
          holding = null;
          since = now;
        }
        continue;
      }
      if (since === null) since = now;
      if (now - since < WAIT_MS && !(now - Math.max(lastFrame, since) >= SETTLE_MS && idle)) continue;
      if (index >= steps.length) {
        draw(con);
        heapLine();
        pisti.scriptTicks = n;
        pisti.scriptMs = Math.round(performance.now() - t0);
        pisti.done = true;
        setState("done", "key script done (" + steps.length + " presses, " + n + " ticks)");
        return;
      }
      const [name, hold] = steps[index++];
      if (name.includes("+")) { // a burst: every button down and up again before the next tick
        for (const part of name.split("+")) {
          con.press(BUTTONS.indexOf(part), true);
          con.press(BUTTONS.indexOf(part), false);
        }
        since = now;
        continue;
      }
      con.press(BUTTONS.indexOf(name), true);
      holding = name;
      releaseAt = now + hold;
    }
    if (pisti.dirty) {
      pisti.dirty = false;
      draw(con);
    }
    heapLine();
    setTimeout(batch, 0);
  };
  batch();
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
  window.addEventListener("keydown", (e) => {
    const name = KEYMAP[e.key];
    if (!name) return;
    e.preventDefault();
    if (!e.repeat) press(name, true);
  });
  window.addEventListener("keyup", (e) => {
    const name = KEYMAP[e.key];
    if (name) { e.preventDefault(); press(name, false); }
  });
  window.addEventListener("blur", () => { for (const n of [...held]) press(n, false); });
  $("help").textContent = profile === "pico"
    ? "Keys: arrows move, Z / Enter / Space = A (OK, play), X / Esc / Backspace = B (back, pause)."
    : "Keys: A / ← / ↑ and C / → / ↓ move, B / Enter / Space select, a long B goes back.";
  const other = $("other");
  other.href = profile === "pico" ? "?profile=featherwing" : "?";
  other.textContent = profile === "pico" ? "FeatherWing 128x32" : "Pico 128x64";
  $("reset").addEventListener("click", () => {
    if (!confirm("Reset saves? The settings, the rankings and the game kept to Continue are erased " +
                 "(as an erased nvm on the board).")) return;
    localStorage.removeItem(NVM_KEY);
    pisti.state = "reset";
    location.reload();
  });
  $("showheap").addEventListener("change", () => con && heapLine());
}

// --- start ------------------------------------------------------------------------------------
async function main() {
  buildPad();
  canvas.height = (profile === "pico" ? 64 : 32) * SCALE;
  setState("loading", "loading the firmware…");
  const { files, config } = await loadFiles(new URL(".", location.href).href);
  const cap = q.get("cap") ? Number(q.get("cap")) : PICO_HEAP;
  con = new Console({
    files, config, profile, cap, overrides: overrides(), nvm: loadNvm(), seeded: q.get("seed") !== null,
    onNvm: saveNvm,
    onLine: (line) => {
      pisti.lines.push(line);
      if (pisti.lines.length > 400) pisti.lines.splice(0, 100);
      const s = $("serial");
      s.textContent = pisti.lines.slice(-60).join("\n");
    },
  });
  pisti.console = con;
  pisti.status = () => con.status();
  pisti.press = press;
  setState("booting", "booting…");
  const r = handle(await con.power(false));
  pisti.boots = 1;
  pisti.bootMs = Math.round(performance.now() - T0);
  if (r < 0 && r !== -2) return;
  heapLine();
  if (q.get("keys") && r !== -2) runScript(parseKeys(q.get("keys")));
  else runRealtime(r);
}
main().catch((e) => fail(String(e && e.stack || e)));
