# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The simulator's vectorised display fill (tools/shims/fastfill.py) draws
exactly what Blinka's own pixel loop draws: the same bytes, the same mask,
the same coverage answer, for random bitmaps, palettes (with transparent
colours), tile grids (tiles, scroll, flips, transposition, scale) and
areas on a 1, 2 or 4 bit display packed either way, over layers that
already set part of the area."""

import array

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tools import shims  # (Blinka in its OS-agnostic mode before displayio)
from tools.shims import fastfill

import displayio
from displayio import _tilegrid
from displayio._area import Area
from displayio._structs import ColorspaceStruct

pytestmark = pytest.mark.skipif(fastfill.np is None, reason="numpy is in tools/requirements.txt")


@st.composite
def scenes(draw):
    bits = draw(st.sampled_from([1, 2, 4, 8]))
    tile_w, tile_h = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    across, down = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    colours = draw(st.integers(1, min(1 << bits, 6)))
    bitmap = displayio.Bitmap(tile_w * across, tile_h * down, 1 << bits)
    for y in range(bitmap.height):
        for x in range(bitmap.width):  # values the palette has (Blinka's generic loop raises past it)
            bitmap[x, y] = draw(st.integers(0, colours - 1)) if draw(st.booleans()) else 0
    palette = displayio.Palette(colours)
    for i in range(colours):
        palette[i] = draw(st.sampled_from([0x000000, 0xFFFFFF, 0x808080, 0x404040]))
        if draw(st.integers(0, 3)) == 0:
            palette.make_transparent(i)
    width, height = draw(st.integers(1, 5)), draw(st.integers(1, 4))
    grid = displayio.TileGrid(bitmap, pixel_shader=palette, width=width, height=height, tile_width=tile_w,
                              tile_height=tile_h, x=draw(st.integers(-8, 24)), y=draw(st.integers(-8, 16)))
    for i in range(width * height):
        grid[i] = draw(st.integers(0, across * down - 1))
    grid.flip_x, grid.flip_y, grid.transpose_xy = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
    group = displayio.Group(scale=draw(st.integers(1, 3)))
    group.append(grid)
    depth = draw(st.sampled_from([1, 2, 4]))
    space = ColorspaceStruct(depth=depth, grayscale=True, grayscale_bit=8 - depth,
                             pixels_in_byte_share_row=draw(st.booleans()),
                             reverse_pixels_in_byte=draw(st.booleans()))
    x1, y1 = draw(st.integers(0, 40)), draw(st.integers(0, 32))
    area = Area(x1, y1, x1 + draw(st.integers(1, 40)), y1 + 8 * draw(st.integers(1, 3)))
    pixels = (area.x2 - area.x1) * (area.y2 - area.y1)
    mask = [draw(st.integers(0, 2**32 - 1)) if draw(st.booleans()) else 0 for _ in range(pixels // 32 + 1)]
    buffer = [draw(st.integers(0, 255)) if draw(st.booleans()) else 0 for _ in range(pixels // 4 + 4)]
    return grid, space, area, mask, buffer


def _fill(fill, scene, calls=None):
    grid, space, area, mask, buffer = scene
    if calls is not None:
        inner = fill

        def fill(*args):
            calls.append(1)
            return inner(*args)

    words = memoryview(bytearray(array.array("I", mask).tobytes())).cast("I")
    out = memoryview(bytearray(array.array("I", buffer).tobytes())).cast("I")
    _tilegrid._fill_pixels_packed = fill
    try:
        covered = grid._fill_area(space, area, words, out)
    finally:
        _tilegrid._fill_pixels_packed = BLINKA
    return covered, bytes(words.cast("B")), bytes(out.cast("B"))


BLINKA = _tilegrid._fill_pixels_packed


@settings(max_examples=200, deadline=None)
@given(scenes())
def test_the_vectorised_fill_draws_what_blinka_draws(scene):
    assert BLINKA is not fastfill.fill_pixels_packed  # no rig is installed here: Blinka's own loop
    calls = []
    fast = _fill(fastfill.fill_pixels_packed, scene, calls)
    assume(calls)  # the area reached the packed loop (small areas take Blinka's generic one)
    assert fast == _fill(BLINKA, scene)


def test_the_rig_puts_it_in_place_and_takes_it_back():
    with shims.install("pico") as _rig:
        assert _tilegrid._fill_pixels_packed is fastfill.fill_pixels_packed
    assert _tilegrid._fill_pixels_packed is BLINKA
