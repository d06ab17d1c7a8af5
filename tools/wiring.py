#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Draw the reference build's wiring diagram (tools/wiring.png) with Pillow.

The pins come from the board profile (tools/boards/pico.toml), so the
picture always matches what the firmware expects:

    python tools/wiring.py            # writes tools/wiring.png
    python tools/wiring.py --out x.png --profile tools/boards/pico.toml
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":  # typed as python tools/wiring.py: the project's .venv
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tools import useenv

    useenv.reexec("PIL")

from PIL import Image, ImageDraw, ImageFont

from tools import settingstoml

PROFILE = ROOT / "tools" / "boards" / "pico.toml"
OUT = ROOT / "tools" / "wiring.png"

# Raspberry Pi Pico / Pico W pinout, seen from above with the USB socket at the top:
# physical pins 1-20 run down the left edge, 40-21 down the right edge.
LEFT_PINS = [
    "GP0", "GP1", "GND", "GP2", "GP3", "GP4", "GP5", "GND", "GP6", "GP7",
    "GP8", "GP9", "GND", "GP10", "GP11", "GP12", "GP13", "GND", "GP14", "GP15",
]
RIGHT_PINS = [  # pin 40 first
    "VBUS", "VSYS", "GND", "3V3_EN", "3V3(OUT)", "ADC_VREF", "GP28", "GND", "GP27", "GP26",
    "RUN", "GP22", "GND", "GP21", "GP20", "GP19", "GP18", "GND", "GP17", "GP16",
]

W, H = 1120, 840
PITCH = 30
Y0 = 190                     # y of pins 1 and 40
PL, PR = 440, 680            # Pico body left and right edges
PAD_L, PAD_R = PL + 14, PR - 14

WHITE = (255, 255, 255)
INK = (30, 30, 30)
GREY = (150, 150, 150)
PCB = (34, 120, 72)
PCB_EDGE = (20, 80, 45)
GOLD = (222, 184, 92)
COLORS = {
    "3V3": (220, 40, 40),
    "GND": (25, 25, 25),
    "SDA": (40, 100, 230),
    "SCL": (235, 180, 0),
    "BUZ": (200, 60, 200),
}
BUTTON_COLORS = [(0, 160, 60), (255, 120, 0), (130, 70, 200), (0, 170, 190), (150, 90, 40), (230, 70, 130)]


def pin_number(name: str) -> int:
    """Physical pin number (1-40) of a Pico pin name such as GP4."""
    if name in LEFT_PINS:
        return LEFT_PINS.index(name) + 1
    if name in RIGHT_PINS:
        return 40 - RIGHT_PINS.index(name)
    raise ValueError(f"{name} is not a Raspberry Pi Pico pin")


def pad(number: int) -> tuple[int, int]:
    """Centre of a pin's pad."""
    if number <= 20:
        return PAD_L, Y0 + (number - 1) * PITCH
    return PAD_R, Y0 + (40 - number) * PITCH


def load_profile(path: Path) -> dict:
    """Pins of the reference build from a board profile."""
    data = settingstoml.values(settingstoml.load(path, strict=True))
    buttons = []
    for item in data["PISTI_BUTTONS"].split(","):
        name, pin = item.strip().split(":")
        buttons.append((name.strip(), pin.strip()))
    return {
        "sda": data["PISTI_I2C_SDA"],
        "scl": data["PISTI_I2C_SCL"],
        "addr": data.get("PISTI_DISPLAY_ADDR", 0x3C),
        "size": (data.get("PISTI_DISPLAY_WIDTH", 128), data.get("PISTI_DISPLAY_HEIGHT", 64)),
        "buttons": buttons,
        "buzzer": data.get("PISTI_BUZZER", ""),
    }


def font(size: int, bold: bool = False):
    """DejaVu Sans when installed, else Pillow's own scalable font."""
    names = ["DejaVuSans-Bold.ttf", "Arial Bold.ttf"] if bold else ["DejaVuSans.ttf", "Arial.ttf"]
    for name in names:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


class Diagram:
    """A canvas with helpers for wires that stay readable where they cross."""

    def __init__(self):
        self.img = Image.new("RGB", (W, H), WHITE)
        self.d = ImageDraw.Draw(self.img)
        self.f_title = font(22, bold=True)
        self.f = font(15)
        self.f_bold = font(15, bold=True)
        self.f_small = font(12)

    def wire(self, points, color, width=4):
        """A polyline with a white halo, so a later wire visibly passes over an earlier one."""
        self.d.line(points, fill=WHITE, width=width + 6, joint="curve")
        self.d.line(points, fill=color, width=width, joint="curve")
        for x, y in (points[0], points[-1]):
            self.d.ellipse((x - 4, y - 4, x + 4, y + 4), fill=color)

    def text(self, xy, text, fnt=None, fill=INK, anchor="la"):
        self.d.text(xy, text, font=fnt or self.f, fill=fill, anchor=anchor)


def draw_pico(dg: Diagram, used: dict[int, tuple]) -> None:
    """The Pico outline with every pin labelled; used pins are coloured."""
    d = dg.d
    top, bottom = Y0 - 45, Y0 + 19 * PITCH + 40
    d.rounded_rectangle((PL, top, PR, bottom), radius=12, fill=PCB, outline=PCB_EDGE, width=3)
    cx = (PL + PR) // 2
    d.rounded_rectangle((cx - 32, top - 22, cx + 32, top + 14), radius=5, fill=(190, 190, 195), outline=GREY)
    dg.text((cx, top + 26), "USB", dg.f_small, WHITE, "mm")
    d.rectangle((cx - 38, Y0 + 7 * PITCH, cx + 38, Y0 + 10 * PITCH), fill=(40, 40, 40))  # the RP2040
    dg.text((cx, Y0 + 8.5 * PITCH), "RP2040", dg.f_small, (200, 200, 200), "mm")
    d.rounded_rectangle((cx - 26, Y0 + 0.5 * PITCH, cx + 26, Y0 + 1.6 * PITCH), radius=4, fill=WHITE, outline=GREY)
    dg.text((cx, Y0 + 1.05 * PITCH), "BOOTSEL", font(10), INK, "mm")
    dg.text((cx, bottom - 14), "Raspberry Pi Pico", dg.f_small, WHITE, "mm")
    dg.text((cx, bottom + 14), "(top view, USB at the top)", dg.f_small, GREY, "mm")
    for number in range(1, 41):
        x, y = pad(number)
        name = LEFT_PINS[number - 1] if number <= 20 else RIGHT_PINS[40 - number]
        color = used.get(number, (None,))[0]
        fill = color if color else (GOLD if name != "GND" else (90, 90, 90))
        d.ellipse((x - 7, y - 7, x + 7, y + 7), fill=fill, outline=WHITE if color else PCB_EDGE, width=2)
        label_font = dg.f_bold if color else dg.f_small
        label_fill = WHITE if color else (200, 225, 205)
        if number <= 20:
            dg.text((x + 13, y), str(number), font(10), (170, 205, 180), "lm")
            dg.text((x + 32, y), name, label_font, label_fill, "lm")
        else:
            dg.text((x - 13, y), str(number), font(10), (170, 205, 180), "rm")
            dg.text((x - 32, y), name, label_font, label_fill, "rm")


def draw_oled(dg: Diagram, prof: dict, box) -> dict[str, tuple[int, int]]:
    """The OLED module, header on its top edge; returns its pin positions."""
    d = dg.d
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=8, fill=(20, 60, 140), outline=(10, 30, 80), width=3)
    d.rectangle((x0 + 18, y0 + 44, x1 - 18, y1 - 16), fill=(5, 5, 10), outline=(70, 70, 90))
    # A hint of the game on the screen.
    sx, sy = x0 + 34, y0 + 62
    for i, card in enumerate(("7", "K", "A")):
        d.rounded_rectangle((sx + i * 30, sy, sx + i * 30 + 24, sy + 34), radius=3, outline=(150, 220, 255), width=2)
        dg.text((sx + i * 30 + 12, sy + 17), card, dg.f_bold, (150, 220, 255), "mm")
    dg.text((x1 - 30, sy + 17), "PİŞTİ", dg.f_bold, (150, 220, 255), "rm")
    w, h = prof["size"]
    dg.text(((x0 + x1) // 2, y1 + 16), f'SSD1306 {w}x{h} OLED, 0.96", I2C 0x{prof["addr"]:02X}', dg.f_small, INK, "mm")
    pins = {}
    names = ["GND", "VCC", "SCL", "SDA"]
    for i, name in enumerate(names):
        x = x0 + 60 + i * 45
        d.rectangle((x - 6, y0 - 8, x + 6, y0 + 4), fill=GOLD, outline=(120, 100, 40))
        dg.text((x, y0 + 18), name, dg.f_bold, WHITE, "mm")
        pins[name] = (x, y0 - 8)
    return pins


def draw_button(dg: Diagram, x: int, y: int) -> None:
    """A tactile push button seen from above (legs left and right)."""
    d = dg.d
    d.rectangle((x - 13, y - 13, x + 13, y + 13), fill=(60, 60, 60), outline=INK, width=2)
    d.ellipse((x - 8, y - 8, x + 8, y + 8), fill=(20, 20, 20), outline=(120, 120, 120), width=2)


def draw_piezo(dg: Diagram, x: int, y: int) -> None:
    d = dg.d
    d.ellipse((x - 32, y - 32, x + 32, y + 32), fill=(25, 25, 25), outline=INK)
    d.ellipse((x - 6, y - 6, x + 6, y + 6), fill=(90, 90, 90))


def render(prof: dict) -> Image.Image:
    """Draw the whole diagram for a profile's pins."""
    dg = Diagram()
    sda, scl = pin_number(prof["sda"]), pin_number(prof["scl"])
    v33, gnd_oled = pin_number("3V3(OUT)"), 8
    gnd_buttons = 18
    buttons = [(name, pin, pin_number(pin)) for name, pin in prof["buttons"]]
    if any(number > 20 for _n, _p, number in buttons) or sda > 20 or scl > 20:
        raise ValueError("this drawing expects the I2C pins and the buttons on the Pico's left edge")
    used = {sda: (COLORS["SDA"],), scl: (COLORS["SCL"],), v33: (COLORS["3V3"],),
            gnd_oled: (COLORS["GND"],), gnd_buttons: (COLORS["GND"],)}
    for i, (_name, _pin, number) in enumerate(buttons):
        used[number] = (BUTTON_COLORS[i % len(BUTTON_COLORS)],)
    buzzer = pin_number(prof["buzzer"]) if prof["buzzer"] else None
    gnd_buzzer = 23
    if buzzer:
        used[buzzer] = (COLORS["BUZ"],)
        used[gnd_buzzer] = (COLORS["GND"],)

    dg.text((24, 18), "pisti reference build: wiring", dg.f_title)
    dg.text((24, 48), "Raspberry Pi Pico (or Pico W) + SSD1306 OLED on I2C + six buttons + optional piezo."
            "  Pin numbers are the Pico's physical pins.", dg.f_small, (80, 80, 80))
    draw_pico(dg, used)

    # OLED: header on its top edge. VCC goes over the top to 3V3(OUT), GND around the left,
    # SCL and SDA come down between the OLED and the Pico.
    pins = draw_oled(dg, prof, (50, 175, 330, 330))
    y_v33 = pad(v33)[1]
    dg.wire([pins["VCC"], (pins["VCC"][0], 92), (PR + 70, 92), (PR + 70, y_v33), pad(v33)], COLORS["3V3"])
    gx = pins["GND"][0]
    dg.wire([pins["GND"], (gx, 140), (24, 140), (24, pad(gnd_oled)[1]), pad(gnd_oled)], COLORS["GND"])
    dg.wire([pins["SCL"], (pins["SCL"][0], 110), (405, 110), (405, pad(scl)[1]), pad(scl)], COLORS["SCL"])
    dg.wire([pins["SDA"], (pins["SDA"][0], 125), (380, 125), (380, pad(sda)[1]), pad(sda)], COLORS["SDA"])
    dg.text((PR + 78, 100), "3V3 (red) to pin 36, 3V3(OUT)", dg.f_small, COLORS["3V3"])

    # Buttons: one leg to the GP pin, the other to a shared GND wire (internal pull-ups).
    rail_x, bx = 200, 260
    ys = [pad(number)[1] for _n, _p, number in buttons]
    y_gnd = pad(gnd_buttons)[1]
    dg.wire([(rail_x, min(ys + [y_gnd])), (rail_x, max(ys + [y_gnd]))], COLORS["GND"])
    dg.wire([(rail_x, y_gnd), pad(gnd_buttons)], COLORS["GND"])
    dg.text((300, y_gnd - 10), "GND", dg.f_bold, INK, "lm")
    for i, (name, pin, number) in enumerate(buttons):
        y = pad(number)[1]
        color = BUTTON_COLORS[i % len(BUTTON_COLORS)]
        dg.wire([(rail_x, y), (bx - 13, y)], COLORS["GND"], width=3)
        dg.wire([(bx + 13, y), pad(number)], color)
        draw_button(dg, bx, y)
        dg.text((rail_x - 14, y), f"{name}", dg.f_bold, INK, "rm")
        dg.text((bx + 24, y - 11), pin, dg.f_small, color, "lm")
    top = min(ys)
    dg.text((24, top - 46), "Buttons: one leg to the pin,", dg.f_small)
    dg.text((24, top - 30), "the other leg to GND", dg.f_small)

    # Piezo: + to the buzzer pin, - to GND.
    if buzzer:
        yb, yg = pad(buzzer)[1], pad(gnd_buzzer)[1]
        px, py = PR + 150, (yb + yg) // 2
        dg.wire([pad(gnd_buzzer), (px - 30, yg)], COLORS["GND"])
        dg.wire([pad(buzzer), (px - 30, yb)], COLORS["BUZ"])
        draw_piezo(dg, px, py)
        dg.text((px - 36, yb + 12), "+", dg.f_bold, COLORS["BUZ"], "mm")
        dg.text((px - 36, yg - 12), "-", dg.f_bold, INK, "mm")
        dg.text((px + 42, py - 10), "passive piezo", dg.f_bold, INK, "lm")
        dg.text((px + 42, py + 10), "(optional)", dg.f_small, GREY, "lm")

    # The connection list, for checking each wire off.
    lx, ly = PR + 120, 160
    rows = [
        ("OLED VCC", "pin 36  3V3(OUT)", COLORS["3V3"]),
        ("OLED GND", f"pin {gnd_oled}  GND", COLORS["GND"]),
        ("OLED SCL", f"pin {scl}  {prof['scl']}", (190, 140, 0)),
        ("OLED SDA", f"pin {sda}  {prof['sda']}", COLORS["SDA"]),
    ]
    for i, (name, pin, _number) in enumerate(buttons):
        rows.append((f"button {name}", f"pin {_number}  {pin}", BUTTON_COLORS[i % len(BUTTON_COLORS)]))
    rows.append(("buttons' other legs", f"pin {gnd_buttons}  GND", COLORS["GND"]))
    if buzzer:
        rows.append(("piezo +", f"pin {buzzer}  {prof['buzzer']}", COLORS["BUZ"]))
        rows.append(("piezo -", f"pin {gnd_buzzer}  GND", COLORS["GND"]))
    box_h = 40 + 24 * len(rows)
    dg.d.rounded_rectangle((lx - 14, ly - 14, W - 20, ly + box_h), radius=8, fill=(246, 246, 246),
                           outline=(210, 210, 210))
    dg.text((lx, ly), "Connections", dg.f_bold)
    for i, (part, pin, color) in enumerate(rows):
        y = ly + 34 + i * 24
        dg.d.line((lx, y, lx + 22, y), fill=color, width=5)
        dg.text((lx + 32, y), part, dg.f_small, INK, "lm")
        dg.text((W - 34, y), pin, dg.f_small, INK, "rm")
    note_y = ly + box_h + 16
    for j, line in enumerate(("Any GND pin will do.", "Buttons need no resistors:",
                              "the firmware turns on the", "internal pull-ups.")):
        dg.text((lx, note_y + j * 18), line, dg.f_small, (90, 90, 90))
    return dg.img


def save(img: Image.Image, out: Path) -> None:
    """Save as a small palette PNG."""
    small = img.quantize(colors=48, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(out, optimize=True)


def main(argv=None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description="Draw the pisti wiring diagram.")
    parser.add_argument("--profile", default=str(PROFILE), help="board profile (default: tools/boards/pico.toml)")
    parser.add_argument("--out", default=str(OUT), help="PNG to write (default: tools/wiring.png)")
    args = parser.parse_args(argv)
    try:
        img = render(load_profile(Path(args.profile)))
    except (OSError, KeyError, ValueError) as exc:
        print(f"error: cannot draw the wiring for {args.profile}: {exc}", file=sys.stderr)
        return 1
    save(img, Path(args.out))
    print(f"wrote {args.out} ({Path(args.out).stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
