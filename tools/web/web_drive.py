# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# The browser page's Python side (tools/web/pisti.mjs calls it), over the
# heap gauge's driver and stand-ins (tools/memgauge): code.py booted as on
# the board, one App.tick() per call from JS (this VM collects only when a
# call returns to JS), the frame drawn by web_screen after a refresh, and
# what pisti_app.run() does on a MemoryError: the app dropped, the
# firmware's own notice (pisti_app.oom) shown; the restart is a new VM
# (supervisor.reload() on the board), booted with resume.
import gc
import os
import sys

import supervisor

import memgauge_drive as _d
import web_screen

app = None
_disp = None
_seen = -1
_lost = None  # (hw, three, err) from a MemoryError until the notice is shown


def setup(seeded, entropy, width, height, feather=False):
    """Before the stand-ins' base is read: ``seeded`` -> CPython's random
    (the simulator's sequence for PISTI_SEED); os.urandom from ``entropy``
    (a file of random bytes from the browser's crypto); ``feather``: the
    Feather RP2040's pins as ``board`` (the FeatherWing profile)."""
    if feather:
        import web_board_feather
        sys.modules["board"] = web_board_feather
    if seeded:
        import web_random
        sys.modules["random"] = web_random
    web_screen.prepare(width, height)
    import busio  # the heap gauge's stand-in: each link's UART told apart by its pins; the page's
    busio.cables(1, 1)  # cables carry each link's bytes (uart_in, uart_out), both plugged
    import web_gc
    sys.modules["gc"] = web_gc  # gc.mem_free() as the board reports it
    with open(entropy, "rb") as f:
        pool = bytearray(f.read())
    at = [0]

    def urandom(n):
        # the pool is stirred with the random module once used up (it is big)
        i = at[0]
        if i + n > len(pool):
            import random
            for k in range(len(pool)):
                pool[k] ^= random.getrandbits(8)
            i = 0
        at[0] = i + n
        return bytes(pool[i:i + n])

    os.urandom = urandom


def boot(reloaded=False):
    """Power on (or, ``reloaded``, the restart after out of memory: straight
    back into the saved game): /code.py as __main__, with pisti_app.run()
    returning after its boot(). A game the boot goes into (PISTI_START, or
    the saved game on a restart) is only noted: start() plays it in the next
    call, after this call's garbage is collected (this VM collects only
    between calls; the board's collector frees the boot's garbage as it
    goes)."""
    global app, _disp, _seen, _go, _boot_err, _pending
    _go = _pending = None
    try:
        if reloaded:
            supervisor.runtime.run_reason = supervisor.RunReason.SUPERVISOR_RELOAD
        import pisti_app
        pisti_app.run = _run
        from pisti_app import util
        util.restarts = _restarts
        with open("/code.py") as f:
            src = f.read()
        exec(compile(src, "code.py", "exec"), {"__name__": "__main__", "__file__": "/code.py"})
        del src
        app = _d.app = pisti_app.current
        _disp = app.display
        _seen = -1
        return _frame(0)
    except BaseException as e:
        _go = None
        if isinstance(e, MemoryError):
            _boot_err = e
        return _d._fail(e)  # -2: out of memory (the page tries again, imports split off)


_go = None  # (App's method, args): the game boot() went into, for start()
_pending = None  # the _Booting screen while start()'s first call has freed the menus
_boot_err = None  # a MemoryError of boot(), for notice()


class _Booting:
    """The screen while the game boot() went into waits for start()."""

    name = "booting"
    group = None
    note = None

    def say(self, text, ms=None):
        self.note = (text, ms)

    def close(self):
        pass


_real = {}  # the App's own start_game and continue_game (App's are the deferring ones below)


def _later(a, name, args):
    global _go
    _go = (_real[name], (a,) + args)
    if not a.stack:
        a.stack.append(_Booting())


def _later_start(self, *args):
    _later(self, "start_game", args)


def _later_continue(self, boot=False):
    _later(self, "continue_game", (boot,))


def start():
    """The game boot() or the last tick went into, if any (a call of its
    own: see boot()). Returns as step()."""
    global _go, _pending
    go = _go
    if go is None or app is None:
        _go = None
        return 0
    if _pending is None:
        # First the screens before it close and the menus' modules unload, in a
        # call of their own: this VM frees nothing during a call, where the
        # board's collector frees them while the game's modules compile.
        st = app.stack
        _pending = st[0] if st and isinstance(st[0], _Booting) else _Booting()
        return _guard(_free, None, None)
    pending = _pending
    _go = _pending = None
    return _guard(_start, go, pending if pending.note is not None else None)


def _free(a, b):
    app.release()
    app.drop_menus()
    app.stack.append(_pending)  # (what shows until the game's screen comes)


# the linked games' starts: two consoles' (pisti_app.link.linkmenu), a ring's (pisti_app.link.ringmenu)
_LINKED = ("start_link_game", "start_ring_game")


def _start(go, pending):
    global _strict
    # A linked game's start (see _run) holds the link's modules too: in one call its imports'
    # compile garbage does not fit the Pico's heap here (nothing is freed during a call, where the
    # board's collector frees it as it goes), and a VM at its cap can loop inside WebAssembly
    # instead of raising MemoryError. So each module it would import first stops the call as a
    # MemoryError would: the page takes the call back and runs it again with the modules
    # imported first, one call each (pisti.mjs, Console.call), until none is new.
    # A linked game resumed (Continue, or the boot after a restart) is such a start too.
    name = getattr(go[0], "__name__", None)
    kept = app.kept
    _strict = name in _LINKED or name == "continue_game" and kept is not None and kept.linked
    try:
        go[0](*go[1])
    finally:
        _strict = False
    if pending is not None and pending.note is not None:
        app.screen.say(pending.note[0], pending.note[1])


# pisti_app.link.ringmenu's set-ups: a ring's Host (its ports, RingLock, RingPlay and the link's
# menus in the tick that leaves the Host screen) and Join (both ports and the listener)
_SET_UP = ("host", "listen")


def _strictly(fn, args):
    # ``fn(*args)`` with each firmware module it would import first stopping the tick as a
    # MemoryError would (see _start): all of them in one call does not fit the Pico's heap here
    global _strict
    _strict = True
    try:
        fn(*args)
    finally:
        _strict = False


def _run():
    # code.py's pisti_app.run(): the boot, with the game it goes into left for start();
    # from here on a game is always started in a call of its own (see step())
    import pisti_app
    from pisti_app.app import App
    if App.start_game is not _later_start:
        _real["start_game"] = App.start_game
        _real["continue_game"] = App.continue_game
    App.start_game = _later_start
    App.continue_game = _later_continue
    real_later = App.later

    def later(self, fn, *args):
        # link play: a linked game (_LINKED, at the end of a tick) also starts in a call of its
        # own, once the menus are freed (as start_game's); a ring's Host and any Join (_SET_UP)
        # import the link's modules one call each first (_strictly)
        global _go
        name = getattr(fn, "__name__", None)
        if name in _LINKED:
            _go = (fn, args)
        elif name in _SET_UP and getattr(sys.modules.get("pisti_app.link.ringmenu"), name, None) is fn:
            real_later(self, _strictly, fn, args)
        else:
            real_later(self, fn, *args)

    App.later = later
    pisti_app.boot(pisti_app._reloaded())


def _restarts():
    # pisti_app.util.restarts here: True while the link in play is a ring's (RingPlay). The board
    # restarts (supervisor.reload()) into every link game it starts, for a fresh heap: the page does it
    # for a ring's, whose table does not fit beside the ring's set-up at the Pico's heap in this VM (step
    # returns bit 4; the page boots a new VM on the saves, reloaded). A two-console link game plays in
    # place, and so does the main menu after any link game.
    import pisti_app
    a = pisti_app.current
    p = a.play if a is not None else None
    link = p.link if p is not None else None
    return link is not None and type(link).__name__ == "RingPlay"


def _frame(r):
    global _seen
    n = _disp.refreshes
    if n != _seen:
        _seen = n
        web_screen.render(_disp)
        r |= 1
    return r


def step(ms):
    """``ms`` of time, then one App.tick(), or the game the last tick asked
    for (the menus' Start or Continue) in a call of its own, once that
    tick's garbage is collected. Returns bits: 1 a new frame in
    /frame.bin, 2 app.idle(), 4 the app asks for a restart (a ring game's
    start: _restarts); -2 out of memory (the app is dropped: call
    notice() next), -3 an exception (its traceback in ``error()``), -4
    microcontroller.reset()."""
    supervisor.advance(ms)
    if _go is not None:
        return start()
    return _guard(_tick, None, None)


def _tick(a, b):
    app.tick()


def _guard(fn, a, b):
    global app, _lost
    try:
        fn(a, b)
        r = _frame(0)
        if app.idle():
            r |= 2
        if app.restart:
            r |= 4
    except MemoryError as e:
        # as pisti_app.run(): what the notice needs, the rest of the app goes
        hw = app.hw
        _lost = (hw, app.input.three, e)
        app.stack = []
        app.play = None
        app = _d.app = None
        sys.modules["pisti_app"].current = None  # (no import: the import hook's list may not grow now)
        gc.collect()  # runs on the way back to JS
        return -2
    except BaseException as e:
        return _d._fail(e)
    gc.collect()
    return r


class _Shown(Exception):
    pass


def _wait():
    raise _Shown()


def notice():
    """The firmware's out-of-memory notice (pisti_app.oom.out_of_memory),
    left when it starts waiting for OK (JS waits, then restarts the VM).
    Returns the OK key's number, or < 0 as step()."""
    global _lost, _disp, _boot_err
    try:
        if _lost is None:  # out of memory while booting: the board's hardware built again for the notice
            from pisti_app.hw import Hardware
            hw = Hardware()
            _lost = (hw, "UP" not in hw.key_names, _boot_err)
            _boot_err = None
    except MemoryError:
        return -2
    except BaseException as e:
        return _d._fail(e)
    hw, three, err = _lost
    _lost = None
    q = hw.keys.events
    real = q.get

    def get():
        if not q._q:
            _wait()
        return real()

    q.get = get
    try:
        import pisti_app
        from pisti_app.oom import out_of_memory
        out_of_memory(hw, three, err, pisti_app)
    except _Shown:
        pass
    except MemoryError:
        return -2
    except BaseException as e:
        return _d._fail(e)
    _disp = hw.display
    _frame(0)
    return hw.key_names.index("B" if three else "A")


def error():
    return _d.error


def uart_in(hexed, link):
    """Link play (?link=1, ?cable=): bytes from another console's VM (hex)
    reach this one's busio.UART on ``link`` (1 the first cable's, 2 the
    second's: busio.arrive; its receive buffer, a full one drops the rest as on
    the board)."""
    import binascii
    import busio
    busio.arrive(binascii.unhexlify(hexed), link)
    gc.collect()  # runs on the way back to JS


def uart_out():
    """Link play: what this console's UARTs sent since the last call, as
    ``FIRST,SECOND`` (hex each, either may be empty), or "" for nothing."""
    import binascii
    import busio
    a = busio.sent(1)
    b = busio.sent(2)
    gc.collect()
    if not a and not b:
        return ""
    return binascii.hexlify(a).decode() + "," + binascii.hexlify(b).decode()


_probe = None  # probe_open's two UARTs until probe_read


def probe_open(tag):
    """A test hook (the page's pisti.probe): both link UARTs opened as the firmware opens a
    ring's (pisti_app.link.linkport.open_ring: the pins from settings.toml), unless open already;
    then, for a ``tag``, ``tag`` + "1" written on the first and ``tag`` + "2" on the second (a
    test opens every console's first, then marks them: bytes that come to a UART not yet opened
    are not kept). Returns "" (or the error's text)."""
    global _probe
    if _probe is None:
        from pisti_app.link.linkport import open_ring
        from pisti_app.util import forget
        try:
            _probe = open_ring()
        except BaseException as e:
            return "%s: %s" % (type(e).__name__, e)
        finally:
            forget("pisti_app.link.linkport")
    if tag:
        _probe[0].write((tag + "1").encode())
        _probe[1].write((tag + "2").encode())
    return ""


def probe_read():
    """What probe_open's UARTs heard since, ``FIRST,SECOND`` (text), both then closed."""
    global _probe
    ports = _probe
    _probe = None
    if ports is None:
        return ""
    out = []
    for p in ports:
        b = p.read(p.in_waiting) if p.in_waiting else None
        out.append(b.decode() if b else "")
        p.deinit()
    return ",".join(out)


def press(k, down):
    _d.press(k, down)


def status():
    """For tests: the screen's and the session's state (memgauge_drive's)."""
    import pisti_app
    cur = pisti_app.current
    if cur is not None and not hasattr(cur, "tick"):
        import json
        return json.dumps(cur.status())  # the out-of-memory notice
    return _d.status()


def mem():
    return gc.mem_alloc()


def free():
    return _d.free()


def load(name):
    return _d.load(name)


# -- the modules each call imports, also those whose import ran out of memory
# (the page imports them first, one call each, when it runs the call again).
# The hook is small: one more Python frame an import level, and the board's
# 2 KB pystack has little to spare; names are worked out only when asked.
_orig = None
_imports = []


_strict = False  # a module not yet imported raises MemoryError (see _start)


def _hook(name, g=None, loc=None, fromlist=(), level=0):
    s = _imports
    s.append(name)
    s.append(g)
    s.append(level)
    s.append(fromlist)
    if _strict and _fresh(name, g, level, fromlist):
        raise MemoryError("import %s in a call of its own first" % name)
    return _orig(name, g, loc, fromlist, level)


def _full(name, g, level):
    if not level:
        return name
    p = g["__name__"] if "__path__" in g else g["__name__"].rpartition(".")[0]
    for _ in range(level - 1):
        p = p.rpartition(".")[0]
    return p + "." + name if name else p


def _fresh(name, g, level, fl):
    # whether this import would load a module of the firmware's (or a submodule its ``from``
    # names); the built-in modules are in no sys.modules
    full = _full(name, g, level)
    if not full.startswith("pisti_"):
        return False
    m = sys.modules.get(full)
    if m is None:
        return True
    if isinstance(fl, tuple):
        for f in fl:
            if f != "*" and not hasattr(m, f) and full + "." + f not in sys.modules:
                return True
    return False


def record():
    global _orig
    import builtins
    _orig = builtins.__import__
    builtins.__import__ = _hook


def forget():
    del _imports[:]


def taken():
    """The modules the calls since forget() imported (and submodules their
    ``from`` imports may have meant), parents first, comma separated."""
    out = []
    s = _imports
    for k in range(0, len(s), 4):
        name, g, level, fl = s[k], s[k + 1], s[k + 2], s[k + 3]
        full = _full(name, g, level)
        i = 0
        while i >= 0:
            i = full.find(".", i + 1)
            c = full if i < 0 else full[:i]
            if c not in out:
                out.append(c)
        if isinstance(fl, tuple):
            for f in fl:
                c = full + "." + f
                if f != "*" and c not in out and (c in sys.modules or full in sys.modules and
                                                  not hasattr(sys.modules[full], f)):
                    out.append(c)
    del s[:]
    return ",".join(out)


def collect():
    gc.collect()  # runs on the way back to JS


_ballast = []


def ballast(n):
    """Hold ``n`` more bytes (the heap over the cap, never used: the heap is
    then the cap without a VM of another size); ``n`` < 0: let them all go."""
    if n < 0:
        del _ballast[:]
    elif n > 0:
        _ballast.append(bytearray(n))
