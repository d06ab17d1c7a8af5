# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Front ends for two linked consoles (``sim.py --link``): headless key
scripts (one for each console), the terminal (both screens side by side,
each console its own keys) and the pygame window.

Keys of the linked terminal and window (the help line under the screens
lists them): console A (left) moves with W A S D, F is its A button and G
its B; console B (right) moves with the arrows, Enter (or L) is its A and
Backspace (or K) its B. A capital letter is a long press (G a long B, the
game menu). On a FeatherWing console (A B C): A's are F G H, B's are
J K L (each left to right: A, B, C). q quits both.
"""

import collections
import os
import select
import sys

from .headless import ScriptDone, ScriptDriver
from .pair import PairFront
from .render import framed, render, text_size
from .session import IDLE_MS, WAIT_MS, SimQuit
from .terminal import GAP_MS, MAX_QUEUE, QUIT, parse_input, summary, wrap_help

ARROWS = ("UP", "DOWN", "LEFT", "RIGHT")


class PairHeadless(PairFront):
    """No screen: console A plays ``steps[0]``, console B ``steps[1]`` (key
    scripts, :func:`tools.simlib.script.parse_keys`), each on its own clock
    (the two run in step); the run ends once both scripts are done and both
    screens have settled."""

    def __init__(self, steps, *, wait_ms=WAIT_MS, idle_ms=IDLE_MS):
        self.drivers = [ScriptDriver(s, wait_ms=wait_ms, idle_ms=idle_ms) for s in steps]
        self.done = [False, False]

    def update(self, index, session, now):
        if self.done[index]:
            return True
        try:
            self.drivers[index].update(session, now)
        except ScriptDone:
            self.done[index] = True
        return self.done[index]


def pair_keymap(buttons, index):
    """{terminal token: (button, long)} for console ``index`` (0 = A, left)."""
    keymap = {}
    if all(a in buttons for a in ARROWS):
        if index == 0:
            plain = {"w": "UP", "s": "DOWN", "a": "LEFT", "d": "RIGHT", "f": "A", "g": "B"}
        else:
            plain = {"UP": "UP", "DOWN": "DOWN", "LEFT": "LEFT", "RIGHT": "RIGHT", "ENTER": "A", "l": "A",
                     "BACKSPACE": "B", "k": "B"}
    else:
        plain = {"f": "A", "g": "B", "h": "C"} if index == 0 else {"j": "A", "k": "B", "l": "C"}
    for token, button in plain.items():
        if button not in buttons:
            continue
        keymap[token] = (button, False)
        if len(token) == 1 and button in ("A", "B", "C"):
            keymap[token.upper()] = (button, True)
    return keymap


def pair_help(buttons_a, buttons_b):
    """The key help under the two screens."""
    def one(buttons, index):
        if all(a in buttons for a in ARROWS):
            if index == 0:
                return "A (left): w a s d move | f = A (ok) | g = B (back) | G = long B (menu)"
            return "B (right): arrows move | Enter l = A (ok) | Bksp k = B (back) | K = long B (menu)"
        if index == 0:
            return "A (left): f g h = buttons A B C | G = long B (back)"
        return "B (right): j k l = buttons A B C | K = long B (back)"
    return one(buttons_a, 0) + " | " + one(buttons_b, 1) + " | q quit"


class PairTerminal(PairFront):
    """Both consoles in this terminal, side by side (real time)."""

    def __init__(self, buttons, *, cells="auto", hold_ms=60, long_ms=1000, stdin=None, stdout=None, color=True):
        from .session import Console

        self.buttons = buttons
        self.keymaps = [pair_keymap(buttons[0], 0), pair_keymap(buttons[1], 1)]
        self.help = pair_help(buttons[0], buttons[1])
        self.cells = cells
        self.hold_ms = hold_ms
        self.long_ms = long_ms
        self.color = color
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.consoles = [Console(echo=None), Console(echo=None)]
        self.queues = [collections.deque(), collections.deque()]
        self.holding = [None, None]
        self.release_at = [0, 0]
        self.next_ok = [0, 0]
        self.info = ["booting", "booting"]
        self.pictures = [None, None]  # (rows, width, height) of each console's last frame
        self._tty = None
        self._drawn = None
        self._size = None
        self._size_at = -1000

    def start(self, pair):
        from .terminal import Terminal

        self._tty = Terminal(self.buttons[0], stdin=self.stdin, stdout=self.stdout)
        self._tty.start(pair.sessions[0])
        for s, c in zip(pair.sessions, self.consoles, strict=True):
            s.console = c

    def close(self, pair):
        if self._tty is not None:
            self._tty.stop(pair.sessions[0])
            self._tty = None

    def sleep(self, index, session, seconds):
        """Console B's sleep waits for a key (or the tick's end); A's is free."""
        if index == 0:
            return
        fd = self._tty._in_fd
        ready, _, _ = select.select([fd], [], [], max(0.0, seconds))
        if ready:
            data = os.read(fd, 1024)
            if not data:
                raise SimQuit("end of input")
            self.feed(parse_input(data))

    def feed(self, tokens):
        """Queue each console's taps; q quits."""
        for token in tokens:
            if token in ("q", "Q", QUIT):
                raise SimQuit("quit")
            for i in (0, 1):
                action = self.keymaps[i].get(token)
                if action is not None and len(self.queues[i]) < MAX_QUEUE:
                    button, long_press = action
                    self.queues[i].append((button, self.long_ms if long_press else self.hold_ms))

    def update(self, index, session, now):
        keys = session.rig.keys
        if self.holding[index] is not None and now >= self.release_at[index]:
            keys.release(self.holding[index])
            self.holding[index] = None
            self.next_ok[index] = now + GAP_MS
        if self.holding[index] is None and self.queues[index] and now >= self.next_ok[index]:
            button, hold = self.queues[index].popleft()
            keys.press(button)
            self.holding[index] = button
            self.release_at[index] = now + hold
        oled = session.rig.oled
        self.pictures[index] = (session.rows(), oled.width, oled.height, session.frame_serial)
        try:
            info = summary(session.app_status())
        except Exception as exc:
            info = "status() failed: %s" % exc
        self.info[index] = ("[%s] " % self.holding[index] if self.holding[index] else "") + info
        if index == 1:
            self.redraw(now)
        return False

    def redraw(self, now):
        """Paint both screens when something changed."""
        out_fd = self._tty._out_fd
        if now - self._size_at >= 250:
            self._size_at = now
            try:
                size = os.get_terminal_size(out_fd)
            except OSError:
                size = os.terminal_size((80, 24))
            if size != self._size:
                self._size = size
                self._drawn = None
                self._tty._write("\x1b[2J")
        key = tuple(p[3] if p else None for p in self.pictures) + tuple(self.info) + tuple(
            c.serial for c in self.consoles)
        if key == self._drawn or None in self.pictures:
            return
        self._drawn = key
        columns = (self._size or (80, 24))[0]
        lines = compose_pair(self.pictures, self.cells, columns, (self._size or (80, 24))[1], self.help,
                             self.info, [c.last for c in self.consoles], self.color)
        self._tty._write("\x1b[H" + "\x1b[K\r\n".join(lines) + "\x1b[K\x1b[J")


def choose_pair_cells(cells, pictures, columns, lines):
    """half when both frames fit side by side, else braille."""
    if cells != "auto":
        return cells
    need_cols = sum(text_size(p[1], p[2], "half")[0] + 2 for p in pictures) + 2
    need_lines = max(text_size(p[1], p[2], "half")[1] for p in pictures) + 8  # the frames, 2 status, 2 serial, help
    return "half" if columns >= need_cols and lines >= need_lines else "braille"


def compose_pair(pictures, cells, columns, lines_avail, help_text, info, serial, color=True):
    """Both frames side by side, each with its status line; the key help under them."""
    cells = choose_pair_cells(cells, pictures, columns, lines_avail)
    boxes = []
    for rows, width, height, _ in pictures:
        body = render(rows, cells)
        inner = text_size(width, height, cells)[0]
        if color:
            body = ["\x1b[97;40m" + line + "\x1b[0m" for line in body]
        boxes.append((framed(body, inner), inner + 2))
    height = max(len(b[0]) for b in boxes)
    out = []
    for i in range(height):
        parts = []
        for box, w in boxes:
            parts.append(box[i] if i < len(box) else " " * w)
        out.append("  ".join(parts))
    for i, name in enumerate("AB"):
        out.append(("%s: %s" % (name, info[i]))[:columns])
        if serial[i]:
            out.append(("%s serial> %s" % (name, serial[i]))[:columns])
    out.extend(wrap_help(help_text, columns))
    return out


def pair_window_keymap(buttons, index):
    """{pygame key code: button} for console ``index``: the terminal's keys
    (:func:`pair_keymap`), held as long as the key is down."""
    from .window import _pygame

    pg = _pygame()
    named = {"UP": pg.K_UP, "DOWN": pg.K_DOWN, "LEFT": pg.K_LEFT, "RIGHT": pg.K_RIGHT, "ENTER": pg.K_RETURN,
             "BACKSPACE": pg.K_BACKSPACE}
    keymap = {}
    for token, (button, long_press) in pair_keymap(buttons, index).items():
        if long_press:
            continue
        keymap[named[token] if token in named else ord(token)] = button
    return keymap


class PairWindow(PairFront):
    """Both consoles in one pygame window, side by side; key down presses a
    console's button, key up releases it (so holding is a long press). With
    key scripts (``--keys``/``--keys2``) the run is on the virtual clock."""

    GAP = 12

    def __init__(self, buttons, *, zoom=4, steps=None, wait_ms=WAIT_MS, idle_ms=IDLE_MS):
        self.buttons = buttons
        self.zoom = zoom
        self.help = pair_help(buttons[0], buttons[1])
        self.keymaps = None
        self.drivers = [None, None]
        self.done = [steps is None, steps is None]
        if steps is not None:
            self.drivers = [ScriptDriver(s, wait_ms=wait_ms, idle_ms=idle_ms) for s in steps]
        self.unattended = steps is not None
        self.down = [{}, {}]
        self.info = ["booting", "booting"]
        self.pg = None
        self.surface = None
        self.font = None
        self._drawn = None
        self._pending = []  # (console, press?, button) from the events, played in the console's turn

    def start(self, pair):
        from .window import BAR, NoDisplay, _Fd2Aside, _pygame

        pg = self.pg = _pygame()
        try:
            with _Fd2Aside():
                pg.display.init()
                driver = pg.display.get_driver()
        except pg.error as exc:
            raise NoDisplay("cannot open a window: %s" % exc) from None
        if driver in ("offscreen", "dummy") and not self.unattended:
            pg.display.quit()
            raise NoDisplay("no screen for a window (SDL video driver %r): run it on a desktop, "
                            "or play in the terminal (bash tools/play.sh --link)" % driver)
        pg.font.init()
        self.keymaps = [pair_window_keymap(self.buttons[0], 0), pair_window_keymap(self.buttons[1], 1)]
        oleds = [s.rig.oled for s in pair.sessions]
        width = sum(o.width for o in oleds) * self.zoom + self.GAP
        height = max(o.height for o in oleds) * self.zoom + BAR + 20
        self.surface = pg.display.set_mode((width, height))
        pg.display.set_caption("pisti: two linked consoles (A left, B right)")
        self.font = pg.font.Font(None, 18)

    def sleep(self, index, session, seconds):
        """Virtual time for each console; in real time only B's sleep waits."""
        if not (session.realtime and index == 0):
            session.wait(seconds)

    def close(self, pair):
        if self.pg is not None:
            self.pg.display.quit()
            self.pg.font.quit()
            self.pg = None

    def update(self, index, session, now):
        keys = session.rig.keys
        mine = [p for p in self._pending if p[0] == index]
        self._pending = [p for p in self._pending if p[0] != index]
        for _, press, button in mine:
            (keys.press if press else keys.release)(button)
        if self.drivers[index] is not None and not self.done[index]:
            try:
                self.drivers[index].update(session, now)
            except ScriptDone:
                self.done[index] = True
        if session.frame_serial != getattr(self, "_serial%d" % index, None):
            setattr(self, "_serial%d" % index, session.frame_serial)
            try:
                self.info[index] = summary(session.app_status())
            except Exception as exc:
                self.info[index] = "status() failed: %s" % exc
        return self.done[index]

    def between(self, pair):
        """Events (keys to each console) and drawing, in the main thread."""
        pg = self.pg
        for event in pg.event.get():
            if event.type == pg.QUIT:
                raise SimQuit("window closed")
            if event.type == getattr(pg, "WINDOWFOCUSLOST", None):
                for i in (0, 1):
                    for button in list(self.down[i]):
                        self._pending.append((i, False, button))
                    self.down[i].clear()
                continue
            if event.type not in (pg.KEYDOWN, pg.KEYUP):
                continue
            if event.key == pg.K_q:
                raise SimQuit("quit")
            for i in (0, 1):
                button = self.keymaps[i].get(event.key)
                if button is None:
                    continue
                holders = self.down[i].setdefault(button, set())
                if event.type == pg.KEYDOWN:
                    holders.add(event.key)
                    self._pending.append((i, True, button))
                else:
                    holders.discard(event.key)
                    if not holders:
                        del self.down[i][button]
                        self._pending.append((i, False, button))
        key = tuple(s.frame_serial for s in pair.sessions) + tuple(self.info) + tuple(
            tuple(sorted(d)) for d in self.down)
        if key != self._drawn:
            self._drawn = key
            self.draw(pair)

    def draw(self, pair):
        """Both panels, scaled, with their status lines, and the key help."""
        pg = self.pg
        self.surface.fill((40, 40, 40))
        x = 0
        bottom = 0
        for session in pair.sessions:
            oled = session.rig.oled
            image = oled.to_image(scale=1).convert("RGB")
            frame = pg.image.frombytes(image.tobytes(), image.size, "RGB")
            w, h = oled.width * self.zoom, oled.height * self.zoom
            self.surface.blit(pg.transform.scale(frame, (w, h)), (x, 0))
            x += w + self.GAP
            bottom = max(bottom, h)
        lines = ["A: " + " ".join("[%s]" % b for b in sorted(self.down[0])) + " " + self.info[0],
                 "B: " + " ".join("[%s]" % b for b in sorted(self.down[1])) + " " + self.info[1]]
        lines += wrap_help(self.help, 140)
        for index, text in enumerate(lines):
            picture = self.font.render(text, True, (200, 200, 200))
            self.surface.blit(picture, (6, bottom + 4 + index * 15))
        pg.display.flip()
