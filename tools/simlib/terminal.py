# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The interactive terminal front end: the OLED as text, keys as buttons.

The terminal is put in cbreak mode (no echo, keys arrive at once) on the
alternate screen; :meth:`Terminal.stop` puts everything back, also after a
crash or Ctrl-C. Terminals report no key-up, so every key is a tap of
``hold_ms``; capital letters are long presses of ``long_ms``. Keys pressed
faster than the taps play are queued (a few at most, so auto-repeat does
not run ahead).
"""

import collections
import os
import select
import signal
import sys

from .render import framed, render, text_size
from .session import SimQuit

_ARROWS = {b"A": "UP", b"B": "DOWN", b"C": "RIGHT", b"D": "LEFT"}
QUIT = "quit"
GAP_MS = 40
MAX_QUEUE = 8


def parse_input(data):
    """Terminal bytes -> key tokens: 'UP' 'DOWN' 'LEFT' 'RIGHT' 'ENTER' 'SPACE'
    'BACKSPACE' 'ESC' or the character typed. Unknown escape sequences are dropped."""
    tokens = []
    i, n = 0, len(data)
    while i < n:
        byte = data[i:i + 1]
        if byte == b"\x1b":
            if i + 1 >= n:
                tokens.append("ESC")
                i += 1
                continue
            intro = data[i + 1:i + 2]
            if intro == b"O" and i + 2 < n:  # SS3 arrows (application cursor mode)
                arrow = _ARROWS.get(data[i + 2:i + 3])
                if arrow:
                    tokens.append(arrow)
                i += 3
                continue
            if intro == b"[":  # CSI: parameters, then a final byte @..~
                j = i + 2
                while j < n and not 0x40 <= data[j] <= 0x7E:
                    j += 1
                arrow = _ARROWS.get(data[j:j + 1])
                if arrow:
                    tokens.append(arrow)  # also Shift/Ctrl+arrow (ESC [ 1 ; 2 A)
                i = j + 1
                continue
            tokens.append("ESC")  # ESC then an ordinary key (Alt+key): both count
            i += 1
            continue
        if byte in (b"\r", b"\n"):
            tokens.append("ENTER")
        elif byte == b" ":
            tokens.append("SPACE")
        elif byte in (b"\x7f", b"\x08"):
            tokens.append("BACKSPACE")
        elif byte == b"\x03":
            tokens.append(QUIT)
        else:
            try:
                char = data[i:].decode("utf-8")[0]
            except UnicodeDecodeError:
                char = None
            if char is not None:
                tokens.append(char)
                i += len(char.encode("utf-8"))
                continue
        i += 1
    return tokens


def terminal_keymap(buttons):
    """{token: (button, long)} or {token: QUIT} for a board's ``buttons``.

    Pico (UP DOWN LEFT RIGHT A B): arrows; z, a, Enter, Space = A; x, b, Esc,
    Backspace = B; Z, A = long A; X, B = long B. FeatherWing (A B C): a b c;
    up/left = A, down/right = C, Enter/Space = B (select), Esc/Backspace =
    long B (back). Capital letters are long presses. q quits.
    """
    keymap = {}
    for name in buttons:
        if len(name) == 1 and name.isalpha():
            keymap[name.lower()] = (name, False)
            keymap[name.upper()] = (name, True)
    arrows = ("UP", "DOWN", "LEFT", "RIGHT")
    if all(a in buttons for a in arrows):
        for a in arrows:
            keymap[a] = (a, False)
        if "A" in buttons:
            for token in ("z", "ENTER", "SPACE"):
                keymap[token] = ("A", False)
            keymap["Z"] = ("A", True)
        if "B" in buttons:
            for token in ("x", "ESC", "BACKSPACE"):
                keymap[token] = ("B", False)
            keymap["X"] = ("B", True)
    elif all(b in buttons for b in ("A", "B", "C")):
        for token in ("UP", "LEFT"):
            keymap[token] = ("A", False)
        for token in ("DOWN", "RIGHT"):
            keymap[token] = ("C", False)
        for token in ("ENTER", "SPACE"):
            keymap[token] = ("B", False)
        for token in ("ESC", "BACKSPACE"):
            keymap[token] = ("B", True)
    keymap["q"] = QUIT
    keymap["Q"] = QUIT
    return keymap


def help_line(buttons):
    """The one-line key help shown under the screen."""
    if all(a in buttons for a in ("UP", "DOWN", "LEFT", "RIGHT")):
        return ("arrows move | z a Enter Space = A (ok) | x b Esc Bksp = B (back) | "
                "X = long B (menu) | Z = long A | q quit")
    return ("a up left = A (prev) | c down right = C (next) | b Enter Space = B (ok) | "
            "Esc Bksp B = long B (back) | q quit")


def wrap_help(text, columns):
    """The help's `` | ``-separated items packed into lines of at most
    ``columns`` characters (an item longer than that is cut)."""
    lines = []
    for item in text.split(" | "):
        item = item[:max(columns, 1)]
        if lines and len(lines[-1]) + 3 + len(item) <= columns:
            lines[-1] += " | " + item
        else:
            lines.append(item)
    return lines


def summary(status):
    """A short line from app.status()."""
    if not status:
        return "booting"
    parts = []
    for key in ("game", "players", "screen", "hand", "ply"):
        value = status.get(key)
        if value is not None:
            parts.append("%s %s" % (key, value))
    totals = status.get("totals")
    if totals:
        parts.append("totals %s" % " ".join(str(t) for t in totals))
    message = status.get("message")
    if message:
        parts.append(str(message))
    return "  ".join(parts)


def compose(rows, cells, width, help_text, info="", console="", color=True):
    """The whole terminal picture as a list of lines (no cursor movement)."""
    lines = render(rows, cells)
    columns = text_size(len(rows[0]) if rows else width, len(rows), cells)[0]
    if color:
        lines = ["\x1b[97;40m" + line + "\x1b[0m" for line in lines]
    out = framed(lines, columns)
    out.extend(help_text.split("\n"))
    out.append(info)
    if console:
        out.append("serial> " + console)
    return out


class Terminal:
    """Plays the firmware in this terminal (real time)."""

    def __init__(self, buttons, *, cells="auto", hold_ms=60, long_ms=1000, stdin=None, stdout=None, color=True):
        from .session import Console

        self.buttons = buttons
        self.keymap = terminal_keymap(buttons)
        self.help = help_line(buttons)
        self.cells = cells
        self.hold_ms = hold_ms
        self.long_ms = long_ms
        self.color = color
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.console = Console(echo=None)
        self.queue = collections.deque()
        self.holding = None
        self.release_at = 0
        self.next_ok = 0
        self._in_fd = None
        self._out_fd = None
        self._own_fd = None
        self._saved_tty = None
        self._saved_term = None
        self._drawn = None
        self._size = None
        self._size_at = -1000
        self._screen_cells = None

    # -- terminal set-up ------------------------------------------------------------
    def start(self, session):
        """cbreak mode, alternate screen, hidden cursor."""
        import termios
        import tty

        self._in_fd = self.stdin.fileno()
        try:
            self._out_fd = self.stdout.fileno()
        except (AttributeError, OSError, ValueError):
            self._out_fd = None
        if self._out_fd is None or not os.isatty(self._out_fd):
            # stdout is redirected (e.g. --status > file): draw on the terminal itself
            self._out_fd = self._own_fd = os.open("/dev/tty", os.O_WRONLY)
        self._saved_tty = termios.tcgetattr(self._in_fd)
        tty.setcbreak(self._in_fd)

        def on_term(signum, frame):
            raise SimQuit("terminated")

        self._saved_term = signal.signal(signal.SIGTERM, on_term)
        self._write("\x1b[?1049h\x1b[?25l\x1b[2J")

    def stop(self, session):
        """Everything back as it was."""
        import termios

        if self._saved_tty is not None:
            self._write("\x1b[0m\x1b[?25h\x1b[?1049l")
            termios.tcsetattr(self._in_fd, termios.TCSADRAIN, self._saved_tty)
            self._saved_tty = None
        if self._saved_term is not None:
            signal.signal(signal.SIGTERM, self._saved_term)
            self._saved_term = None
        if self._own_fd is not None:
            os.close(self._own_fd)
            self._own_fd = None
        if session.rig is not None:
            session.rig.keys.release_all()

    def _write(self, text):
        data = text.encode("utf-8")
        while data:
            done = os.write(self._out_fd, data)
            data = data[done:]

    # -- the loop ---------------------------------------------------------------------
    def sleep(self, session, seconds):
        """Wait for a key or the end of the sleep, whichever comes first."""
        ready, _, _ = select.select([self._in_fd], [], [], max(0.0, seconds))
        if ready:
            data = os.read(self._in_fd, 1024)
            if not data:
                raise SimQuit("end of input")
            self.feed(parse_input(data))

    def feed(self, tokens):
        """Queue the taps for key ``tokens``; raise SimQuit for q."""
        for token in tokens:
            action = self.keymap.get(token)
            if action is None:
                continue
            if action == QUIT:
                raise SimQuit("quit")
            if len(self.queue) < MAX_QUEUE:
                button, long_press = action
                self.queue.append((button, self.long_ms if long_press else self.hold_ms))

    def update(self, session, now):
        """Play queued taps, redraw when something changed."""
        keys = session.rig.keys
        if self.holding is not None and now >= self.release_at:
            keys.release(self.holding)
            self.holding = None
            self.next_ok = now + GAP_MS
        if self.holding is None and self.queue and now >= self.next_ok:
            button, hold = self.queue.popleft()
            keys.press(button)
            self.holding = button
            self.release_at = now + hold
        if now - self._size_at >= 250:
            self._size_at = now
            try:
                size = os.get_terminal_size(self._out_fd)
            except OSError:
                size = os.terminal_size((80, 24))
            if size != self._size:
                self._size = size
                self._drawn = None
                self._write("\x1b[2J")
        key = (session.frame_serial, self.console.serial, self.holding)
        if key != self._drawn:
            self._drawn = key
            self.draw(session)

    def choose_cells(self, width, height):
        """half when the frame fits the terminal, else braille."""
        if self.cells != "auto":
            return self.cells
        columns, lines = self._size or (80, 24)
        need_cols, need_lines = text_size(width, height, "half")
        if columns >= need_cols + 2 and lines >= need_lines + 4:
            return "half"
        return "braille"

    def draw(self, session):
        """Paint the frame, the help line and a status line."""
        rows = session.rows()
        oled = session.rig.oled
        cells = self.choose_cells(oled.width, oled.height)
        try:
            info = summary(session.app_status())
        except Exception as exc:
            info = "status() failed: %s" % exc
        if self.holding:
            info = "[%s] %s" % (self.holding, info)
        columns = (self._size or (80, 24))[0]
        help_text = self.help
        if self.cells == "auto" and cells == "braille":  # the terminal is too small for half blocks
            need_cols, need_lines = text_size(oled.width, oled.height, "half")
            help_text += " | a %dx%d terminal (or --window) shows the larger picture" % (
                need_cols + 2, need_lines + 4)
        help_text = "\n".join(wrap_help(help_text, columns))
        lines = compose(rows, cells, oled.width, help_text, info, self.console.last, self.color)
        lines = [line if len(line) <= columns or "\x1b" in line else line[:columns] for line in lines]
        self._write("\x1b[H" + "\x1b[K\r\n".join(lines) + "\x1b[K\x1b[J")

