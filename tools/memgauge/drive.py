# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# The heap gauge's Python side, inside MicroPython's WebAssembly VM: gauge.mjs
# calls these one at a time, so the collector runs between calls (it only runs
# when control is back in JS). Small on purpose: it is heap too.
import gc
import sys

import micropython

import keypad
import supervisor

app = None
error = ""
top = 0  # gc.mem_alloc() at the end of the last call: nothing is freed during a call


def _fail(e):
    # -2: out of memory (nothing formatted: that could need memory too)
    global error
    if isinstance(e, MemoryError):
        return -2
    try:
        import io
        s = io.StringIO()
        sys.print_exception(e, s)
        error = s.getvalue()
    except MemoryError:
        return -2
    if type(e).__name__ == "ResetError":  # microcontroller.reset()
        return -4
    return -3


def boot():
    """What the device does at power on: run /code.py as __main__, except
    that pisti_app.run() returns after boot() instead of ticking forever."""
    global app
    try:
        import pisti_app
        pisti_app.run = _run
        import pisti_app.util
        pisti_app.util.restarts = _restarts
        with open("/code.py") as f:
            src = f.read()
        exec(compile(src, "code.py", "exec"), {"__name__": "__main__", "__file__": "/code.py"})
        del src
        app = pisti_app.current
        global top
        top = gc.mem_alloc()
        gc.collect()
        return 0
    except BaseException as e:
        return _fail(e)


def _run():
    # pisti_app.run() without its loop: the boot, resumed after a restart as there
    import pisti_app
    return pisti_app.boot(pisti_app._reloaded())


def _restarts():
    # The gauge restarts where the board does (a link game's start, the main
    # menu after one): a new VM on the same nvm bytes (gauge.mjs, restartVM).
    return True


def restarting():
    """1 when the app asked run() for a restart (the board's supervisor.reload())."""
    return 1 if app is not None and app.restart else 0


def reloaded():
    """This VM's boot is the restart's: code.py runs again after supervisor.reload()."""
    supervisor.runtime.run_reason = supervisor.RunReason.SUPERVISOR_RELOAD


def step(ms):
    """The live heap (collected at the last return to JS), then one
    App.tick() and ``ms`` of virtual time (run() sleeps 10 ms a tick)."""
    live = gc.mem_alloc()
    qstrs()
    try:
        app.tick()
    except BaseException as e:
        return _fail(e)
    supervisor.advance(ms)
    global top
    top = gc.mem_alloc()
    qstrs()
    gc.collect()  # runs on the way back to JS
    return live


def qstrs():
    """Print the interned names' pool figures (gauge.mjs reads the line)."""
    micropython.qstr_info()


def screen():
    return app.screen.name


def _status():
    # What the scenario reads, from the screen's own status() and the
    # session: not App.status(), whose module a board never loads (its
    # field names would be interned here and not on the Pico).
    scr = app.screen
    st = {"legal": [], "your_hand": []}
    scr.status(st)
    st["screen"] = scr.name
    st["demo"] = app.demo is not None
    s = app.session
    if s is not None:
        st["game"] = s.game
        st["players"] = s.players
        st["levels"] = list(s.levels)
        st["rated"] = s.rated
        st["hand"] = s.hand_no
        st["totals"] = list(s.match.totals)
        h = s.match.hand
        if h is not None:
            st["ply"] = h.ply
    from pisti_app.texts import strings
    st["lang"] = strings.lang()
    return st


def status():
    import json  # (before the snapshot: the driver's own, kept)
    had = list(sys.modules)
    try:
        s = json.dumps(_status())
    except BaseException as e:
        s = "!%d" % _fail(e)
    # What only this question imported goes again: a board that nobody asks
    # never loads it (the legal moves as text, pisti_core.yedili_text).
    from pisti_app.util import drop_module
    for m in list(sys.modules):
        if m not in had:
            drop_module(m)
    gc.collect()
    return s


def value(key):
    """The value text shown on the menu row ``key`` (status() lists the rows
    but not their values)."""
    try:
        it = app.screen.item(key)
        return it.value if it is not None else None
    except AttributeError:
        return None


def text(key):
    from pisti_app.texts.strings import t
    return t(key)


def press(k, down):
    keypad.press(k, down)


def mem():
    return gc.mem_alloc()


def free():
    # the port adds the 128 MiB it could still grow by (gc_get_max_new_split)
    f = gc.mem_free()
    return f - 0x8000000 if f >= 0x8000000 else f


def load(name):
    try:
        __import__(name)
    except BaseException as e:
        return _fail(e)
    gc.collect()
    return 0


def collect():
    gc.collect()  # runs on the way back to JS


# -- imports, one JS call each -------------------------------------------------
# On the device the collector runs whenever the heap fills, so the compile
# garbage of one module is gone before the next is compiled; here nothing is
# collected until the call returns. An uncapped run records which modules each
# call imported (record()); a capped run imports them beforehand, one per call.
_orig = None
_new = []


def _hook(name, g=None, loc=None, fromlist=(), level=0):
    mods = sys.modules
    full = name
    if level:
        p = g["__name__"] if "__path__" in g else g["__name__"].rpartition(".")[0]
        for _ in range(level - 1):
            p = p.rpartition(".")[0]
        full = p + "." + name if name else p
    cands = None
    if full not in mods or isinstance(fromlist, tuple):
        cands = []
        i = 0
        while i >= 0:
            i = full.find(".", i + 1)
            c = full if i < 0 else full[:i]
            if c not in mods:
                cands.append(c)
        for f in fromlist if isinstance(fromlist, tuple) else ():
            if f != "*" and full + "." + f not in mods:
                cands.append(full + "." + f)
    r = _orig(name, g, loc, fromlist, level)
    if cands:
        for c in cands:
            if c in mods and c not in _new:
                _new.append(c)
    return r


def record():
    global _orig
    import builtins
    _orig = builtins.__import__
    builtins.__import__ = _hook


def taken():
    if not _new:
        return ""
    s = ",".join(_new)
    del _new[:]
    return s


# -- link play: the cables between consoles' VMs -----------------
# gauge.mjs moves the bytes as hex text, one call a link each way a tick;
# the collector runs on the way back, as after step().

def link_seed(s):
    """Each console its own random bytes (the stand-in os.urandom)."""
    import os_urandom
    os_urandom.seed(s)


def link_cables(first, second):
    """Which of this console's links have a cable (1) or none (0): two
    consoles join their first UARTs, a ring of three or four both
    (the stand-in busio.UART)."""
    import busio
    busio.cables(first, second)


def uart_in(hexed, link=1):
    import binascii
    import busio
    busio.arrive(binascii.unhexlify(hexed), link)
    gc.collect()


def uart_out(link=1):
    import binascii
    import busio
    b = busio.sent(link)
    s = binascii.hexlify(b).decode() if b else ""
    gc.collect()
    return s
