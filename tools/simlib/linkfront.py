# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Front ends for two to four linked consoles (``sim.py --link [--consoles
N]``): headless key scripts (one for each console), the terminal (two
screens side by side, each console its own keys; three or four in a 2x2
grid, keys to the console in focus) and the pygame window (likewise).

Keys of two linked consoles in the terminal and the window (the help line
under the screens lists them): console A (left) moves with W A S D, F is its
A button and G its B; console B (right) moves with the arrows, Enter (or L)
is its A and Backspace (or K) its B. A capital letter is a long press (G a
long B, the game menu). On a FeatherWing console (A B C): A's are F G H,
B's are J K L (each left to right: A, B, C). q quits both.

Three or four consoles share one keyboard: the keys are the one-console
terminal's (or window's) and go to the console in focus, marked with ``▶``
in the grid; Tab moves the focus on (A, B, C, D, A, ...) and the digits 1
to 4 pick a console. q quits them all.
"""

import collections
import os
import select
import sys

from .headless import ScriptDone, ScriptDriver
from .pair import NAMES, PairFront
from .render import framed, render, text_size
from .session import IDLE_MS, WAIT_MS, SimQuit
from .terminal import GAP_MS, MAX_QUEUE, QUIT, help_line, parse_input, summary, terminal_keymap, wrap_help

ARROWS = ("UP", "DOWN", "LEFT", "RIGHT")
TAB = "\t"  # the terminal's token for Tab: the focus moves to the next console of a ring


class PairHeadless(PairFront):
    """No screen: console A plays ``steps[0]``, console B ``steps[1]`` and so
    on (key scripts, :func:`tools.simlib.script.parse_keys`), each on its own
    clock (they run in step); the run ends once every script is done and
    every screen has settled."""

    def __init__(self, steps, *, wait_ms=WAIT_MS, idle_ms=IDLE_MS):
        self.drivers = [ScriptDriver(s, wait_ms=wait_ms, idle_ms=idle_ms) for s in steps]
        self.done = [False] * len(steps)

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


def ring_keymap(buttons):
    """{terminal token: (button, long)} of a console in a ring of three or
    four (keys go to the console in focus): the one-console terminal's keys
    (:func:`tools.simlib.terminal.terminal_keymap`), q aside (it quits all)."""
    return {token: action for token, action in terminal_keymap(buttons).items() if action != QUIT}


def ring_help(buttons, focus, count):
    """The key help under a ring's grid: how the focus moves, then the keys
    of the console in focus (``buttons``, console ``focus``)."""
    return "Tab or 1-%d: next console (keys go to %s, marked \u25b6) | %s" % (count, NAMES[focus],
                                                                            help_line(buttons))


def focus_key(token, focus, count):
    """The console in focus after key ``token`` (Tab: the next one; a digit
    1..``count``: that console), or None when the key does not move it."""
    if token == TAB:
        return (focus + 1) % count
    if len(token) == 1 and "1" <= token <= str(count):
        return int(token) - 1
    return None


class PairTerminal(PairFront):
    """The consoles in this terminal (real time): two side by side, each with
    keys of its own; three or four in a 2x2 grid, the keys going to the
    console in focus (Tab moves it on)."""

    def __init__(self, buttons, *, cells="auto", hold_ms=60, long_ms=1000, stdin=None, stdout=None, color=True):
        from .session import Console

        count = len(buttons)
        self.buttons = buttons
        self.ring = count > 2
        self.focus = 0  # (a ring's) console the keys go to
        if self.ring:
            self.keymaps = [ring_keymap(b) for b in buttons]
            self.help = ring_help(buttons[0], 0, count)
        else:
            self.keymaps = [pair_keymap(buttons[0], 0), pair_keymap(buttons[1], 1)]
            self.help = pair_help(buttons[0], buttons[1])
        self.cells = cells
        self.hold_ms = hold_ms
        self.long_ms = long_ms
        self.color = color
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.consoles = [Console(echo=None) for _ in buttons]
        self.queues = [collections.deque() for _ in buttons]
        self.holding = [None] * count
        self.release_at = [0] * count
        self.next_ok = [0] * count
        self.info = ["booting"] * count
        self.pictures = [None] * count  # (rows, width, height) of each console's last frame
        self.last = count - 1  # the console whose turn waits for keys and draws
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
        """The last console's sleep waits for a key (or the tick's end); the others' are free."""
        if index != self.last:
            return
        fd = self._tty._in_fd
        ready, _, _ = select.select([fd], [], [], max(0.0, seconds))
        if ready:
            data = os.read(fd, 1024)
            if not data:
                raise SimQuit("end of input")
            self.feed(parse_input(data))

    def feed(self, tokens):
        """Queue each console's taps (a ring's: the console in focus, Tab
        and 1-4 move the focus); q quits."""
        count = len(self.buttons)
        for token in tokens:
            if token in ("q", "Q", QUIT):
                raise SimQuit("quit")
            targets = range(count)
            if self.ring:
                focus = focus_key(token, self.focus, count)
                if focus is not None:
                    self.focus = focus
                    self.help = ring_help(self.buttons[focus], focus, count)
                    continue
                targets = (self.focus,)
            for i in targets:
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
        if index == self.last:
            self.redraw(now)
        return False

    def redraw(self, now):
        """Paint the screens when something changed."""
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
            c.serial for c in self.consoles) + (self.focus,)
        if key == self._drawn or None in self.pictures:
            return
        self._drawn = key
        columns, lines_avail = self._size or (80, 24)
        serial = [c.last for c in self.consoles]
        if self.ring:
            lines = compose_grid(self.pictures, self.cells, columns, lines_avail, self.help, self.info, serial,
                                 self.focus, self.color)
        else:
            lines = compose_pair(self.pictures, self.cells, columns, lines_avail, self.help, self.info, serial,
                                 self.color)
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


GRID_EXTRA_LINES = 3  # under the grid: the serial line of the console in focus, two lines of key help


def grid_cell(pictures, cells):
    """(columns, lines) inside a cell of the grid: the largest screen's."""
    sizes = [text_size(p[1], p[2], cells) for p in pictures]
    return max(w for w, _ in sizes), max(h for _, h in sizes)


def grid_size(pictures, cells):
    """(columns, lines) of the 2x2 grid of ``pictures`` in ``cells``: two
    cells across and two down, in one frame whose lines they share."""
    width, height = grid_cell(pictures, cells)
    return 2 * width + 3, 2 * height + 3


def choose_grid_cells(cells, pictures, columns, lines):
    """half when the 2x2 grid of half blocks fits the terminal, with the
    lines under it, else braille (2x4 pixels a character: four 128x64
    screens in 131 columns and 35 lines)."""
    if cells != "auto":
        return cells
    need_cols, need_lines = grid_size(pictures, "half")
    return "half" if columns >= need_cols and lines >= need_lines + GRID_EXTRA_LINES else "braille"


def _label(text, width):
    """``text`` on a frame's line of ``width`` columns: cut, or filled with the line."""
    text = text[:width]
    return text + "\u2500" * (width - len(text))


def compose_grid(pictures, cells, columns, lines_avail, help_text, info, serial, focus, color=True):
    """Three or four consoles' frames in a 2x2 grid (A B over C D; with
    three the fourth cell is empty), in one frame: each cell's name and
    status line on the frame's line above it, ``▶`` before the console in
    focus; under the grid that console's last serial line and the key help."""
    cells = choose_grid_cells(cells, pictures, columns, lines_avail)
    width, height = grid_cell(pictures, cells)
    bodies, labels = [], []
    for i in range(4):
        if i < len(pictures):
            rows = pictures[i][0]
            body = [line + " " * (width - len(line)) for line in render(rows, cells)]
            body += [" " * width] * (height - len(body))
            if color:
                body = ["\x1b[97;40m" + line + "\x1b[0m" for line in body]
            mark = "\u2500\u25b6 " if i == focus else "\u2500\u2500 "
            labels.append(_label("%s%s: %s " % (mark, NAMES[i], info[i]), width))
        else:
            body = [" " * width] * height
            labels.append(_label("", width))
        bodies.append(body)
    out = ["\u250c" + labels[0] + "\u252c" + labels[1] + "\u2510"]
    out += ["\u2502" + a + "\u2502" + b + "\u2502" for a, b in zip(bodies[0], bodies[1], strict=True)]
    out.append("\u251c" + labels[2] + "\u253c" + labels[3] + "\u2524")
    out += ["\u2502" + a + "\u2502" + b + "\u2502" for a, b in zip(bodies[2], bodies[3], strict=True)]
    out.append("\u2514" + "\u2500" * width + "\u2534" + "\u2500" * width + "\u2518")
    if serial[focus]:
        out.append(("%s serial> %s" % (NAMES[focus], serial[focus]))[:columns])
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


def ring_window_keymap(buttons):
    """{pygame key code: button} of a console in a ring (keys go to the
    console in focus): the one-console window's keys, q aside."""
    from .window import window_keymap

    return {key: button for key, button in window_keymap(buttons).items() if button != QUIT}


class PairWindow(PairFront):
    """The consoles in one pygame window: two side by side, each with keys
    of its own; three or four in a 2x2 grid, the keys going to the console
    in focus (Tab moves it on, 1-4 pick one). Key down presses a console's
    button, key up releases it (so holding is a long press). With key
    scripts (``--keys``, ``--keys2``, ...) the run is on the virtual clock."""

    GAP = 12
    LABEL = 18  # a ring's status line above each screen, pixels

    def __init__(self, buttons, *, zoom=4, steps=None, wait_ms=WAIT_MS, idle_ms=IDLE_MS):
        count = len(buttons)
        self.buttons = buttons
        self.zoom = zoom
        self.ring = count > 2
        self.focus = 0
        self.help = ring_help(buttons[0], 0, count) if self.ring else pair_help(buttons[0], buttons[1])
        self.keymaps = None
        self.owner = {}  # a ring's key held down -> the console it went to (its key up goes there too)
        self.drivers = [None] * count
        self.done = [steps is None] * count
        if steps is not None:
            self.drivers = [ScriptDriver(s, wait_ms=wait_ms, idle_ms=idle_ms) for s in steps]
        self.unattended = steps is not None
        self.down = [{} for _ in buttons]
        self.info = ["booting"] * count
        self.last = count - 1
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
        oleds = [s.rig.oled for s in pair.sessions]
        if self.ring:
            self.keymaps = [ring_window_keymap(b) for b in self.buttons]
            cell_w = max(o.width for o in oleds) * self.zoom
            cell_h = max(o.height for o in oleds) * self.zoom + self.LABEL
            width = 2 * cell_w + self.GAP
            height = 2 * cell_h + self.GAP + BAR
            caption = "pisti: %d linked consoles in a ring (A B over C D; Tab moves the keys on)" % len(oleds)
        else:
            self.keymaps = [pair_window_keymap(self.buttons[0], 0), pair_window_keymap(self.buttons[1], 1)]
            width = sum(o.width for o in oleds) * self.zoom + self.GAP
            height = max(o.height for o in oleds) * self.zoom + BAR + 20
            caption = "pisti: two linked consoles (A left, B right)"
        self.surface = pg.display.set_mode((width, height))
        pg.display.set_caption(caption)
        self.font = pg.font.Font(None, 18)

    def sleep(self, index, session, seconds):
        """Virtual time for each console; in real time only the last one's sleep waits."""
        if not (session.realtime and index != self.last):
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

    def _key(self, i, down, key, button):
        """Key ``key`` down or up on console ``i``'s ``button``: pressed at the
        first key holding it, released when the last one goes up."""
        holders = self.down[i].setdefault(button, set())
        if down:
            holders.add(key)
            self._pending.append((i, True, button))
        else:
            holders.discard(key)
            if not holders:
                del self.down[i][button]
                self._pending.append((i, False, button))

    def _ring_key(self, event):
        """A ring's key: Tab and 1-4 move the focus, the rest press the
        console in focus (a key up goes where its key down went)."""
        pg = self.pg
        count = len(self.buttons)
        if event.type == pg.KEYDOWN:
            token = TAB if event.key == pg.K_TAB else (chr(event.key) if 0 <= event.key < 128 else "")
            focus = focus_key(token, self.focus, count) if token else None
            if focus is not None:
                self.focus = focus
                self.help = ring_help(self.buttons[focus], focus, count)
                return
            button = self.keymaps[self.focus].get(event.key)
            if button is not None:
                self.owner[event.key] = self.focus
                self._key(self.focus, True, event.key, button)
            return
        i = self.owner.pop(event.key, None)
        button = self.keymaps[i].get(event.key) if i is not None else None
        if button is not None:
            self._key(i, False, event.key, button)

    def between(self, pair):
        """Events (keys to each console) and drawing, in the main thread."""
        pg = self.pg
        for event in pg.event.get():
            if event.type == pg.QUIT:
                raise SimQuit("window closed")
            if event.type == getattr(pg, "WINDOWFOCUSLOST", None):
                for i in range(len(self.buttons)):
                    for button in list(self.down[i]):
                        self._pending.append((i, False, button))
                    self.down[i].clear()
                self.owner.clear()
                continue
            if event.type not in (pg.KEYDOWN, pg.KEYUP):
                continue
            if event.key == pg.K_q:
                raise SimQuit("quit")
            if self.ring:
                self._ring_key(event)
                continue
            for i in (0, 1):
                button = self.keymaps[i].get(event.key)
                if button is not None:
                    self._key(i, event.type == pg.KEYDOWN, event.key, button)
        key = tuple(s.frame_serial for s in pair.sessions) + tuple(self.info) + tuple(
            tuple(sorted(d)) for d in self.down) + (self.focus,)
        if key != self._drawn:
            self._drawn = key
            self.draw(pair)

    def _line(self, i):
        """Console ``i``'s status line: its held buttons and its screen."""
        return "%s: " % NAMES[i] + " ".join("[%s]" % b for b in sorted(self.down[i])) + " " + self.info[i]

    def draw(self, pair):
        """The panels, scaled, with their status lines, and the key help."""
        pg = self.pg
        self.surface.fill((40, 40, 40))
        if self.ring:
            bottom = self._draw_grid(pair)
            lines = wrap_help(self.help, 140)
        else:
            bottom = self._draw_side_by_side(pair)
            lines = [self._line(0), self._line(1)] + wrap_help(self.help, 140)
        for index, text in enumerate(lines):
            picture = self.font.render(text, True, (200, 200, 200))
            self.surface.blit(picture, (6, bottom + 4 + index * 15))
        pg.display.flip()

    def _panel(self, session):
        """A console's panel as a pygame surface, scaled."""
        pg = self.pg
        oled = session.rig.oled
        image = oled.to_image(scale=1).convert("RGB")
        frame = pg.image.frombytes(image.tobytes(), image.size, "RGB")
        return pg.transform.scale(frame, (oled.width * self.zoom, oled.height * self.zoom))

    def _draw_side_by_side(self, pair):
        x = 0
        bottom = 0
        for session in pair.sessions:
            panel = self._panel(session)
            self.surface.blit(panel, (x, 0))
            x += panel.get_width() + self.GAP
            bottom = max(bottom, panel.get_height())
        return bottom

    def _draw_grid(self, pair):
        """A ring's 2x2 grid: each console's status line above its panel, a
        frame round the console in focus; returns the grid's bottom."""
        pg = self.pg
        oleds = [s.rig.oled for s in pair.sessions]
        cell_w = max(o.width for o in oleds) * self.zoom
        cell_h = max(o.height for o in oleds) * self.zoom + self.LABEL
        for i, session in enumerate(pair.sessions):
            x = (i % 2) * (cell_w + self.GAP)
            y = (i // 2) * (cell_h + self.GAP)
            mark = "\u25b6 " if i == self.focus else ""
            colour = (255, 255, 160) if i == self.focus else (200, 200, 200)
            self.surface.blit(self.font.render(mark + self._line(i), True, colour), (x + 2, y + 2))
            panel = self._panel(session)
            self.surface.blit(panel, (x, y + self.LABEL))
            if i == self.focus:
                pg.draw.rect(self.surface, colour, pg.Rect(x, y + self.LABEL, panel.get_width(), panel.get_height()),
                             1)
        return 2 * cell_h + self.GAP
