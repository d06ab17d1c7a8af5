# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""SSD1306 OLED controller emulator, fed with the bytes of I2C writes.

It decodes what the real ``adafruit_displayio_ssd1306`` driver sends through
the real ``i2cdisplaybus.I2CDisplayBus``: each write starts with a control
byte, ``0x80`` (one command byte follows, then another control byte),
``0x00`` (the rest are command bytes), ``0x40`` (the rest are display data)
or ``0xC0`` (one data byte, then another control byte). Commands are decoded
as a byte stream (parameters may arrive in separate control pairs).

The controller holds 128 x 64 pixels of GDDRAM in 8 pages; byte
``page * 128 + column`` holds 8 vertical pixels, bit 0 on top. Horizontal,
vertical and page addressing modes, the 0x21 / 0x22 windows and the page
mode 0xB0-0xB7 / 0x00-0x1F pointers are honoured.

The panel is ``width`` x ``height`` (128x64 or 128x32). ``pixel(x, y)`` is
what RAM shows at panel position (x, y) with the controller's mapping
(segment remap 0xA0/0xA1, COM scan direction 0xC0/0xC8, multiplex 0xA8,
display offset 0xD3, start line 0x40-0x7F): with the Adafruit driver's
settings (A1, C8, offset 0, start 0) pixel (x, y) is bit y%8 of RAM byte
(y//8)*128 + x. Rows beyond the multiplex ratio are not driven (dark).
``lit(x, y)`` adds what the viewer sees: display off (0xAE), inverse (0xA7)
and entire-display-on (0xA5). ``problems()`` lists settings that would not
work on the real panel (wrong multiplex or COM pins for its height, charge
pump off while on).

Byte counts are the bytes after the I2C address byte (control bytes
included), so a full 128x64 frame from the driver is 6 + 6 + 1025 = 1037
bytes in 3 writes. A frame is one ``display.refresh()`` that sent anything
(the rig wraps Blinka's refresh to mark them).
"""

import threading

RAM_COLUMNS = 128
RAM_PAGES = 8
RAM_ROWS = RAM_PAGES * 8
PANELS = ((128, 64), (128, 32))

# Commands that take parameters: command -> number of parameter bytes.
_PARAMS = {
    0x20: 1,  # memory addressing mode
    0x21: 2,  # column window
    0x22: 2,  # page window
    0x26: 6,  # horizontal scroll setup (right)
    0x27: 6,  # horizontal scroll setup (left)
    0x29: 5,  # vertical and horizontal scroll setup
    0x2A: 5,
    0x81: 1,  # contrast
    0x8D: 1,  # charge pump
    0xA3: 2,  # vertical scroll area
    0xA8: 1,  # multiplex ratio
    0xAD: 1,  # internal IREF (SSD1306B)
    0xD3: 1,  # display offset
    0xD5: 1,  # clock divide / oscillator
    0xD9: 1,  # pre-charge period
    0xDA: 1,  # COM pins configuration
    0xDB: 1,  # VCOMH deselect level
}
HORIZONTAL, VERTICAL, PAGE = 0, 1, 2

_TEXT_CELLS = (" ", "\u2580", "\u2584", "\u2588")  # ' ', '▀', '▄', '█'


class Ssd1306:
    """One SSD1306 controller with a ``width`` x ``height`` panel."""

    def __init__(self, width=128, height=64, *, address=0x3C):
        if (width, height) not in PANELS:
            raise ValueError(
                "unsupported panel %dx%d; supported: %s"
                % (width, height, ", ".join("%dx%d" % p for p in PANELS))
            )
        self.width = width
        self.height = height
        self.address = address
        self.connected = True  # False: the device NACKs (as if unplugged)
        self.on_frame = None  # callable(oled) after each frame, if set
        self._lock = threading.RLock()
        self.ram = bytearray(RAM_COLUMNS * RAM_PAGES)
        self._reset_registers()
        self.bytes_total = 0
        self.writes_total = 0
        self.refreshes = 0
        self.frames = 0
        self.bytes_last_refresh = 0
        self.writes_last_refresh = 0
        self.bytes_last_frame = 0
        self.writes_last_frame = 0
        self.unknown_commands = []
        self._in_refresh = 0
        self._refresh_bytes = 0
        self._refresh_writes = 0
        # How long the panel has been lit, dimmed (contrast 0) and off, on the
        # rig's clock (``clock``: a function giving ms; set by the rig).
        self.clock = None
        self._screen_ms = {"on": 0, "dim": 0, "off": 0}
        self._since = None

    def _panel(self):
        return "off" if not self.display_on else ("dim" if self.contrast == 0 else "on")

    def _account(self):
        # Adds the time since the last change to the state the panel was in.
        if self.clock is None:
            return
        now = self.clock()
        if self._since is not None:
            self._screen_ms[self._panel()] += now - self._since
        self._since = now

    def screen_ms(self):
        """ms the panel was lit ("on"), dimmed to contrast 0 ("dim") and
        switched off ("off", 0xAE) since the rig started (a panel never
        initialised counts as off)."""
        self._account()
        return dict(self._screen_ms)

    def _reset_registers(self):
        # Power-on reset values from the SSD1306 datasheet.
        if getattr(self, "clock", None) is not None:
            self._account()
        self.display_on = False
        self.contrast = 0x7F
        self.inverted = False
        self.entire_on = False
        self.segment_remap = False
        self.com_remap = False
        self.multiplex = 63
        self.display_offset = 0
        self.start_line = 0
        self.com_pins = 0x12
        self.charge_pump = False
        self.clock_div = 0x80
        self.precharge = 0x22
        self.vcomh = 0x20
        self.scrolling = False
        self.addressing_mode = PAGE
        self.column_window = (0, RAM_COLUMNS - 1)
        self.page_window = (0, RAM_PAGES - 1)
        self._column = 0
        self._page = 0
        self._page_column_start = 0
        self._command = None
        self._params = []

    # -- the I2C side --------------------------------------------------------
    def i2c_write(self, data):
        """Take one I2C write transaction (the bytes after the address)."""
        data = bytes(data)
        with self._lock:
            self.bytes_total += len(data)
            self.writes_total += 1
            if self._in_refresh:
                self._refresh_bytes += len(data)
                self._refresh_writes += 1
            i = 0
            n = len(data)
            while i < n:
                control = data[i]
                i += 1
                is_data = bool(control & 0x40)
                if control & 0x80:  # Co = 1: exactly one byte, then a new control byte
                    if i < n:
                        self._take(data[i : i + 1], is_data)
                        i += 1
                else:  # Co = 0: everything left is of one kind
                    self._take(data[i:], is_data)
                    i = n

    def i2c_read(self, count):
        """A read returns the status byte: bit 6 set while the display is off."""
        with self._lock:
            return bytes([0x00 if self.display_on else 0x40]) * count

    def _take(self, chunk, is_data):
        if is_data:
            self._write_ram(chunk)
        else:
            for byte in chunk:
                self._command_byte(byte)

    # -- commands ------------------------------------------------------------
    def _command_byte(self, byte):
        if self._command is not None:
            self._params.append(byte)
            if len(self._params) == _PARAMS[self._command]:
                command, params = self._command, self._params
                self._command, self._params = None, []
                self._execute(command, params)
            return
        if byte in _PARAMS:
            self._command = byte
            self._params = []
            return
        self._execute(byte, ())

    def _execute(self, cmd, p):
        if cmd == 0x20:
            if p[0] & 3 != 3:
                self.addressing_mode = p[0] & 3
        elif cmd == 0x21:
            self.column_window = (p[0] & 0x7F, p[1] & 0x7F)
            self._column = self.column_window[0]
        elif cmd == 0x22:
            self.page_window = (p[0] & 7, p[1] & 7)
            self._page = self.page_window[0]
        elif cmd == 0x81:
            self._account()
            self.contrast = p[0]
        elif cmd == 0x8D:
            self.charge_pump = bool(p[0] & 0x04)
        elif cmd == 0xA8:
            if p[0] & 0x3F >= 15:  # values 0..14 are invalid and ignored
                self.multiplex = p[0] & 0x3F
        elif cmd == 0xD3:
            self.display_offset = p[0] & 0x3F
        elif cmd == 0xD5:
            self.clock_div = p[0]
        elif cmd == 0xD9:
            self.precharge = p[0]
        elif cmd == 0xDA:
            self.com_pins = p[0] & 0x32
        elif cmd == 0xDB:
            self.vcomh = p[0]
        elif cmd in (0x26, 0x27, 0x29, 0x2A, 0xA3, 0xAD, 0xE3):
            pass  # scroll set-up, IREF, NOP: accepted, not emulated
        elif cmd == 0x2E:
            self.scrolling = False
        elif cmd == 0x2F:
            self.scrolling = True
        elif cmd in (0xAE, 0xAF):
            self._account()
            self.display_on = cmd == 0xAF
        elif cmd in (0xA0, 0xA1):
            self.segment_remap = cmd == 0xA1
        elif cmd in (0xA4, 0xA5):
            self.entire_on = cmd == 0xA5
        elif cmd in (0xA6, 0xA7):
            self.inverted = cmd == 0xA7
        elif 0xC0 <= cmd <= 0xCF:
            self.com_remap = bool(cmd & 0x08)
        elif 0x40 <= cmd <= 0x7F:
            self.start_line = cmd & 0x3F
        elif 0xB0 <= cmd <= 0xB7:
            self._page = cmd & 7
        elif cmd <= 0x0F:
            self._page_column_start = (self._page_column_start & 0xF0) | cmd
            self._column = self._page_column_start
        elif cmd <= 0x1F:
            self._page_column_start = (self._page_column_start & 0x0F) | ((cmd & 7) << 4)
            self._column = self._page_column_start
        else:
            self.unknown_commands.append(cmd)

    def _write_ram(self, chunk):
        ram = self.ram
        mode = self.addressing_mode
        col, page = self._column, self._page
        c0, c1 = self.column_window
        p0, p1 = self.page_window
        for byte in chunk:
            ram[page * RAM_COLUMNS + col] = byte
            if mode == HORIZONTAL:
                col += 1
                if col > c1:
                    col = c0
                    page = p0 if page >= p1 else page + 1
            elif mode == VERTICAL:
                page += 1
                if page > p1:
                    page = p0
                    col = c0 if col >= c1 else col + 1
            else:
                col += 1
                if col >= RAM_COLUMNS:
                    col = self._page_column_start
        self._column, self._page = col, page

    # -- frames (marked by the rig around Blinka's refresh) ------------------
    def begin_refresh(self):
        """Start counting the bytes of one display refresh."""
        with self._lock:
            if self._in_refresh == 0:
                self._refresh_bytes = 0
                self._refresh_writes = 0
            self._in_refresh += 1

    def end_refresh(self):
        """Close the refresh; it is a frame if it sent anything."""
        callback = None
        with self._lock:
            self._in_refresh -= 1
            if self._in_refresh:
                return
            self.refreshes += 1
            self.bytes_last_refresh = self._refresh_bytes
            self.writes_last_refresh = self._refresh_writes
            if self._refresh_bytes:
                self.frames += 1
                self.bytes_last_frame = self._refresh_bytes
                self.writes_last_frame = self._refresh_writes
                callback = self.on_frame
        if callback is not None:
            callback(self)

    @property
    def frame_count(self):
        """Frames so far (refreshes that sent at least one byte)."""
        return self.frames

    def reset_counters(self):
        """Zero the byte, write, refresh and frame counters."""
        with self._lock:
            self.bytes_total = self.writes_total = 0
            self.refreshes = self.frames = 0
            self.bytes_last_refresh = self.writes_last_refresh = 0
            self.bytes_last_frame = self.writes_last_frame = 0

    # -- what the panel shows ------------------------------------------------
    def _ram_row(self, y):
        if y > self.multiplex:
            return None
        row = y if self.com_remap else self.multiplex - y
        return (row + self.display_offset + self.start_line) % RAM_ROWS

    def pixel(self, x, y):
        """1 if RAM has panel pixel (x, y) set (before invert/off), else 0."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError("pixel (%d, %d) outside %dx%d" % (x, y, self.width, self.height))
        with self._lock:
            row = self._ram_row(y)
            if row is None:
                return 0
            col = x if self.segment_remap else RAM_COLUMNS - 1 - x
            return (self.ram[(row >> 3) * RAM_COLUMNS + col] >> (row & 7)) & 1

    def lit(self, x, y):
        """1 if the viewer sees pixel (x, y) lit (honours off/invert/all-on)."""
        if not self.display_on:
            return 0
        if self._ram_row(y) is None:
            return 0
        if self.entire_on:
            return 1
        return self.pixel(x, y) ^ (1 if self.inverted else 0)

    @property
    def framebuffer(self):
        """Panel pixels as bytes, page layout: (x, y) is bit y%8 of byte (y//8)*width + x."""
        w, h = self.width, self.height
        with self._lock:
            standard = (
                self.segment_remap
                and self.com_remap
                and self.display_offset == 0
                and self.start_line == 0
                and self.multiplex >= h - 1
            )
            if standard and w == RAM_COLUMNS:
                return bytes(self.ram[: w * h // 8])
            out = bytearray(w * h // 8)
            ram = self.ram
            for y in range(h):
                row = self._ram_row(y)
                if row is None:
                    continue
                bit = 1 << (y & 7)
                base = (y >> 3) * w
                src = (row >> 3) * RAM_COLUMNS
                shift = row & 7
                for x in range(w):
                    col = x if self.segment_remap else RAM_COLUMNS - 1 - x
                    if (ram[src + col] >> shift) & 1:
                        out[base + x] |= bit
            return bytes(out)

    def rows(self, lit=False):
        """The panel as a list of ``height`` lists of 0/1 (``lit``: as seen)."""
        w, h = self.width, self.height
        with self._lock:
            fb = self.framebuffer
            on, all_on, invert = self.display_on, self.entire_on, self.inverted
            driven = [self._ram_row(y) is not None for y in range(h)]
        out = []
        for y in range(h):
            base, shift = (y >> 3) * w, y & 7
            row = [(fb[base + x] >> shift) & 1 for x in range(w)]
            if lit:
                if not on or not driven[y]:
                    row = [0] * w
                elif all_on:
                    row = [1] * w
                elif invert:
                    row = [v ^ 1 for v in row]
            out.append(row)
        return out

    def count_set(self):
        """How many panel pixels are set in RAM."""
        return sum(bin(b).count("1") for b in self.framebuffer)

    def to_text(self, lit=True):
        """The panel as text, 2 pixel rows per line with half-block characters."""
        rows = self.rows(lit=lit)
        lines = []
        for y in range(0, self.height, 2):
            top, bottom = rows[y], rows[y + 1]
            lines.append("".join(_TEXT_CELLS[t | (b << 1)] for t, b in zip(top, bottom, strict=True)))
        return "\n".join(lines)

    def to_image(self, scale=4, lit=True):
        """A Pillow image, white pixels on black like the OLED, ``scale`` x bigger."""
        from PIL import Image

        if not isinstance(scale, int) or scale < 1:
            raise ValueError("scale must be a positive int")
        rows = self.rows(lit=lit)
        data = bytes(255 if v else 0 for row in rows for v in row)
        image = Image.frombytes("L", (self.width, self.height), data)
        if scale != 1:
            image = image.resize((self.width * scale, self.height * scale), Image.NEAREST)
        return image

    def save_png(self, path, scale=4, lit=True):
        """Write ``to_image(scale)`` to ``path`` as PNG; return the path."""
        self.to_image(scale=scale, lit=lit).save(path, format="PNG")
        return path

    def problems(self):
        """Settings that would not show a correct picture on the real panel."""
        out = []
        if self.writes_total == 0:
            return out
        if self.multiplex != self.height - 1:
            out.append(
                "multiplex ratio %d rows (0xA8 0x%02X) on a %d-row panel"
                % (self.multiplex + 1, self.multiplex, self.height)
            )
        want = 0x12 if self.height == 64 else 0x02
        if self.com_pins != want:
            out.append(
                "COM pins 0x%02X on a %dx%d panel (needs 0x%02X)"
                % (self.com_pins, self.width, self.height, want)
            )
        if self.display_on and not self.charge_pump:
            out.append("display on with the charge pump off (0x8D 0x14 missing): panel stays dark")
        if self.unknown_commands:
            out.append("unknown commands: %s" % " ".join("%02X" % c for c in self.unknown_commands))
        return out

    def __repr__(self):
        return "<Ssd1306 %dx%d at 0x%02X %s, %d frames, %d bytes>" % (
            self.width,
            self.height,
            self.address,
            "on" if self.display_on else "off",
            self.frames,
            self.bytes_total,
        )
