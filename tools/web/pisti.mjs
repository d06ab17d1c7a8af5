// SPDX-FileCopyrightText: 2026 pisti developers
// SPDX-License-Identifier: MIT
// The console in a browser: the firmware (code.py, lib/, pisti_core/,
// assets/, the Adafruit SSD1306 driver) in MicroPython's WebAssembly VM with
// the Pico's heap, over the heap gauge's stand-ins for CircuitPython's C
// modules (tools/memgauge/standins) and web_drive.py / web_screen.py. Used
// by worker.mjs, one Console and one VM in a Web Worker of its own: this
// port's VMs share the realm's proxy table and finalizers, so a second VM
// in the same realm (a calibration VM, a restarted one) has the first one's
// finalizers free references inside it (WebAssembly traps, "memory access
// out of bounds"). A restart is a new worker. Nothing here knows the page.
import { loadMicroPython } from "./micropython/micropython.mjs";

export const PICO_HEAP = 171264; // gc.mem_free() at a fresh REPL on the Pico
const PYSTACK = 512; // words: 2048 B, CircuitPython's default
export const TICKS_PERIOD = 1 << 29;

// Growth refused (heapsize alone is no cap: the port grows its heap itself).
let refuseGrowth = false;
function patchImports(imports) {
  if (refuseGrowth && imports && imports.env && imports.env.emscripten_resize_heap)
    imports.env.emscripten_resize_heap = () => 0;
}
// The VM's linear memory, kept from its instantiation: snapshots (see Console.step).
let lastMemory = null;
function keepMemory(result) {
  const inst = result.instance || result;
  lastMemory = Object.values(inst.exports).find((e) => e instanceof WebAssembly.Memory) || null;
  return result;
}
const realInstantiate = WebAssembly.instantiate;
WebAssembly.instantiate = function (binary, imports) {
  patchImports(imports);
  return realInstantiate.call(this, binary, imports).then(keepMemory);
};
if (WebAssembly.instantiateStreaming) {
  const realStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = function (source, imports) {
    patchImports(imports);
    return realStreaming.call(this, source, imports).then(keepMemory);
  };
}

// The deploy tree: firmware.json ([path, offset, length], ...) over firmware.bin.
export async function loadFiles(base) {
  const [index, blob] = await Promise.all([
    fetch(base + "firmware.json").then((r) => r.json()),
    fetch(base + "firmware.bin").then((r) => r.arrayBuffer()),
  ]);
  const files = [];
  for (const [path, off, len] of index.files) files.push([path, new Uint8Array(blob, off, len)]);
  return { files, config: index };
}

function settingsText(profileText, overrides) {
  // the profile with the overridden keys taken out, the overrides after
  const keys = Object.keys(overrides);
  const kept = profileText.split("\n").filter((line) => {
    const k = line.split("=")[0].trim();
    return !keys.includes(k);
  });
  for (const k of keys) {
    const v = overrides[k];
    kept.push(k + " = " + (typeof v === "number" ? String(v) : JSON.stringify(String(v))));
  }
  return kept.join("\n") + "\n";
}

// The VM collects garbage only when a call returns to JS (it cannot scan its
// wasm stack): within one App.tick() nothing is freed, where the board's
// collector would free the compile garbage of one imported module before
// the next is compiled. So a tick that runs out of memory is taken back and
// tried again with the modules it imported imported first, one call each,
// as the board's collector would have split them (tools/memgauge/gauge.mjs
// does the same with --cap): the VM's memory is copied about once a second,
// the calls since then are logged, and a MemoryError restores the copy,
// replays the log, imports the modules and runs the tick again. Only a tick
// that fails with nothing more to import is out of memory for the page.
const SNAPSHOT_EVERY = 100; // calls
const GC_SHARE = 0.975; // of the heapsize, what the GC's blocks get (its tables take the rest)

export class Console {
  // opts: files, config (firmware.json), profile ("pico" | "featherwing"),
  // overrides {PISTI_...}, cap (bytes free once the stand-ins are loaded),
  // nvm (Uint8Array(4096) or null), onLine(text), onNvm(bytes), seeded (bool)
  constructor(opts) {
    this.o = opts;
    this.mp = null;
    this.f = null;
    this.base = 0;
    this.heapsize = 0;
    this.nvm = opts.nvm ? new Uint8Array(opts.nvm) : new Uint8Array(4096).fill(0xff);
    this.width = 128;
    this.height = opts.profile === "featherwing" ? 32 : 64;
    this.frame = null;
    this.frames = 0;
    this.lastMem = "";
    this.live = 0;
    this.peak = 0;
    this.oomKey = -1; // while the out-of-memory notice waits for OK: its key
    this.error = "";
    this.boots = 0;
    this.retries = 0; // ticks taken back and run again with their imports split off
    this.pending = [];
    this.quiet = false;
  }

  onLine(line) {
    if (!this.quiet) this.pending.push(line);
  }

  flush() {
    for (const line of this.pending) {
      if (line.startsWith("mem ")) this.lastMem = line;
      if (this.o.onLine) this.o.onLine(line);
    }
    this.pending = [];
  }

  async loadVM(heapsize, capped) {
    refuseGrowth = capped;
    const vm = await loadMicroPython({
      heapsize, pystack: PYSTACK, linebuffer: true,
      stdout: (l) => this.onLine(l), stderr: (l) => this.onLine(l),
    });
    refuseGrowth = false;
    vm.memory = lastMemory;
    if (capped) {
      // use up the spare C heap (a new GC area would need about the heap's
      // size), keeping 64 KB for the calls' buffers: as tools/memgauge/gauge.mjs
      const M = vm._module;
      const keep = M._malloc(65536);
      for (let size = 1 << 24; size >= 16; size >>= 1) while (M._malloc(size)) { /* taken */ }
      M._free(keep);
    }
    return vm;
  }

  setUp(vm) {
    const FS = vm.FS;
    for (const [path, data] of this.o.files) {
      const dir = path.slice(0, path.lastIndexOf("/"));
      if (dir) FS.mkdirTree(dir);
      FS.writeFile(path, data);
    }
    const profile = this.o.files.find(([p]) => p === "/web/boards/" + this.o.profile + ".toml");
    const text = new TextDecoder().decode(profile[1]);
    FS.writeFile("/settings.toml", settingsText(text, this.o.overrides || {}));
    FS.writeFile("/nvm.bin", this.nvm);
    const pool = new Uint8Array(4096);
    crypto.getRandomValues(pool);
    FS.writeFile("/web/entropy.bin", pool);
    vm.runPython("import sys\nsys.path.insert(0, '/gauge')\nsys.path.insert(0, '/web')");
    const d = (this.d = vm.pyimport("web_drive")); // kept: its proxy's finalizer must not run
    // each function looked up once: a lookup makes a proxy (a reference kept
    // in the VM), and a snapshot must not be restored under new ones
    const f = {};
    for (const k of ["setup", "boot", "start", "step", "notice", "error", "press", "status", "mem", "free", "load",
                     "collect", "record", "taken", "forget", "ballast", "uart_in", "uart_out", "probe_open",
                     "probe_read"]) f[k] = d[k];
    f.setup(!!this.o.seeded, "/web/entropy.bin", this.width, this.height, this.o.profile === "featherwing");
    // the stand-ins of C modules cost no heap on the board: loaded now, counted from here
    for (const m of this.o.config.standins) {
      if (f.load(m) < 0) throw new Error("importing the stand-in " + m + " failed");
    }
    f.record(); // which modules each call imports (for the retries above)
    f.collect();
    return f;
  }

  // A heapsize whose heap holds the cap once the stand-ins and the driver
  // are in (what is over it is held in a ballast: see load()).
  heapsizeFor(cap) {
    return Math.ceil((cap + this.o.config.overhead) / GC_SHARE);
  }

  // Power on, once a worker: a VM of `heapsize` with the stand-ins loaded,
  // what is free over the cap held in a ballast (web_drive.ballast), so
  // gc.mem_free() is the cap. Returns gc.mem_free(): under the cap, the
  // heapsize was too small (the page starts another worker with a bigger one).
  async load(heapsize) {
    const cap = this.o.cap || PICO_HEAP;
    this.heapsize = heapsize;
    const vm = await this.loadVM(heapsize, true);
    const f = this.setUp(vm);
    this.mp = vm;
    this.f = f;
    for (let i = 0; i < 4; i++) {
      const over = f.free() - cap;
      if (Math.abs(over) < 16 || i === 0 && over < 0) break;
      if (over < 0) { // held too much: again, a little less
        f.ballast(-1);
        f.collect();
        f.ballast(Math.max(0, f.free() - cap - 48));
      } else f.ballast(Math.max(0, over - 32)); // (the bytearray's own block)
      f.collect();
    }
    return f.free();
  }

  // Boot code.py (``reloaded``: the restart after out of memory, straight
  // into the saved game), then, in a call of its own, the game it goes
  // into (PISTI_START, or the saved game): this VM frees the boot's garbage
  // only between calls.
  boot(reloaded = false) {
    this.base = this.f.mem();
    this.cap = this.f.free();
    this.oomKey = -1;
    this.boots++;
    this.snapshot();
    const r = this.call(["boot", reloaded]);
    if (r < 0) return r;
    const g = this.call(["start"]);
    return g < 0 ? g : g | (r & 1);
  }

  snapshot() {
    this.snap = { mem: new Uint8Array(this.mp.memory.buffer).slice(), nvm: this.mp.FS.readFile("/nvm.bin") };
    this.log = [];
  }

  restore() {
    new Uint8Array(this.mp.memory.buffer).set(this.snap.mem);
    this.mp.FS.writeFile("/nvm.bin", this.snap.nvm);
  }

  run(op) {
    const f = this.f;
    if (op[0] === "uart_in") return [f.uart_in(op[1], op[2]), []];
    if (op[0] === "uart_out") return [f.uart_out(), []];
    if (op[0] === "probe_open") return [f.probe_open(op[1]), []];
    if (op[0] === "probe_read") return [f.probe_read(), []];
    const r = op[0] === "boot" ? f.boot(op[1]) : op[0] === "step" ? f.step(op[1])
      : op[0] === "start" ? f.start() : f.press(op[1], op[2]);
    if (r !== -2) {
      if (op[0] !== "press") this.f.forget();
      return [r, []];
    }
    const t = this.f.taken(); // what the call that ran out imported
    return [r, t ? t.split(",") : []];
  }

  call(op) {
    if (op[0] !== "boot" && this.log.length >= SNAPSHOT_EVERY) this.snapshot();
    let [r, names] = this.run(op);
    this.log.push(op);
    const pre = [];
    while (r === -2 && this.mp.memory) {
      const fresh = names.filter((n) => !pre.includes(n));
      if (!fresh.length) break; // nothing more to split off: out of memory
      pre.push(...fresh);
      this.retries++;
      this.pending = [];
      this.restore();
      this.quiet = true;
      for (const past of this.log.slice(0, -1)) this.run(past);
      this.quiet = false;
      for (const n of pre) {
        this.f.load(n); // one call each: its compile garbage goes when it returns
        this.f.forget();
      }
      [r, names] = this.run(op);
    }
    if (pre.length && r !== -2) this.snapshot(); // the imports are in; the log starts again
    return this.result(r);
  }

  result(code) {
    if (code >= 0) {
      if (code & 1) this.readFrame();
      this.checkNvm();
      this.flush();
      return code;
    }
    if (code === -2) { // out of memory (also while booting): the firmware's own notice
      const k = this.f.notice();
      this.flush();
      if (k >= 0) {
        this.oomKey = k;
        this.readFrame();
        this.checkNvm();
        return -2;
      }
      this.error = k === -2 ? "Out of memory, and the firmware's out-of-memory notice did not fit either " +
        "(a heap of " + this.cap.toLocaleString("en") + " B; the Pico has 171,264 B). Reload the page to start " +
        "again: the saves are kept." : this.f.error();
      return -3;
    }
    this.flush();
    this.error = code === -3 ? this.f.error() : code === -4 ? "microcontroller.reset()" : "error " + code;
    return code;
  }

  // One App.tick() after `ms` of time; the result's bits: 1 a new frame, 2 idle.
  step(ms) {
    this.live = this.f.mem() - this.base;
    if (this.live > this.peak) this.peak = this.live;
    return this.call(["step", ms]);
  }

  press(k, down) {
    if (!this.f) return;
    this.f.press(k, down);
    this.log.push(["press", k, down]);
  }

  // Link play (?link=1, ?cable=): bytes from another console into this one's
  // UART on `port` (1 the first cable's, 2 the second's; a hex string), and
  // what this one's UARTs sent since the last call ([first's hex, second's
  // hex], "" for none). Logged as the presses are: a tick taken back and run
  // again replays them (what was sent then is sent again in the replay, and
  // dropped).
  uartIn(hex, port) {
    if (!this.f || !hex) return;
    this.f.uart_in(hex, port);
    this.log.push(["uart_in", hex, port]);
  }

  uartOut() {
    if (!this.f) return ["", ""];
    const hex = this.f.uart_out();
    this.log.push(["uart_out"]);
    if (!hex) return ["", ""];
    const [a, b] = hex.split(",");
    return [a, b];
  }

  // A test hook: both link UARTs opened as the firmware opens a ring's (unless open), then for a
  // `tag`, `tag`+"1" sent on the first and `tag`+"2" on the second ("" or the error's text); then what they heard, as
  // [first's text, second's text], both closed (web_drive.probe_open, probe_read).
  probeOpen(tag) {
    const r = this.f.probe_open(tag);
    this.log.push(["probe_open", tag]);
    return r;
  }

  probeRead() {
    const r = this.f.probe_read();
    this.log.push(["probe_read"]);
    return r ? r.split(",") : ["", ""];
  }

  status() {
    const s = this.f.status();
    if (s[0] === "!") return { error: this.f.error() };
    return JSON.parse(s);
  }

  readFrame() {
    this.frame = this.mp.FS.readFile("/frame.bin");
    this.frames++;
  }

  checkNvm() {
    const now = this.mp.FS.readFile("/nvm.bin");
    const old = this.nvm;
    for (let i = 0; i < 4096; i++) {
      if (now[i] !== old[i]) {
        this.nvm = new Uint8Array(now);
        if (this.o.onNvm) this.o.onNvm(this.nvm);
        return true;
      }
    }
    return false;
  }
}
