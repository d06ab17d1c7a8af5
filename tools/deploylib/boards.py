# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Which board profile (tools/boards/*.toml) a CircuitPython Board ID takes.

Board ids as in CircuitPython's ports/*/boards/ (boot_out.txt's
``Board ID:`` line). ``pico``: the Pico family, whose GP4/GP5 and GP10-GP16
the reference wiring uses. ``featherwing``: the RP2040 and RP2350 Feathers
(the firmware is built for the RP2040's heap and 4 KB nvm) that take the OLED
FeatherWing 128x32 (board.SDA/SCL, D9/D6/D5) with no screen or DVI of their
own. Any other board (an ESP32-S3, a Feather with a TFT) is not known: deploy
says so and uses the --profile given, else pico.
"""

PROFILE_OF_BOARD = {
    "raspberry_pi_pico": "pico",
    "raspberry_pi_pico_w": "pico",
    "raspberry_pi_pico2": "pico",
    "raspberry_pi_pico2_w": "pico",
    "adafruit_feather_rp2040": "featherwing",
    "adafruit_feather_rp2040_adalogger": "featherwing",
    "adafruit_feather_rp2040_can": "featherwing",
    "adafruit_feather_rp2040_prop_maker": "featherwing",
    "adafruit_feather_rp2040_rfm": "featherwing",
    "adafruit_feather_rp2040_scorpio": "featherwing",
    "adafruit_feather_rp2040_usb_host": "featherwing",
    "adafruit_feather_rp2350": "featherwing",
    "adafruit_feather_rp2350_adalogger": "featherwing",
}


def profile_for(board_id: str) -> str | None:
    """The profile a board takes, or None when the board is not known."""
    return PROFILE_OF_BOARD.get(board_id)
