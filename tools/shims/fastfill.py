# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The simulator's display fill, vectorised (numpy), for the desktop only.

Blinka's displayio draws a TileGrid onto a mono OLED pixel by pixel in
Python (``displayio._tilegrid._fill_pixels_packed``): about 45% of a
fuzz run's time. The rig (``tools.shims.install``) puts in its place, while
it is installed, the same arithmetic over
whole arrays: the same tile lookup, the same mask (a pixel a layer above
set is skipped), the same byte packing, the same answer (whether a
transparent pixel was left). tests/test_fastfill.py checks it against
Blinka's own function on random grids and areas. Without numpy (the
play-only setup) nothing is replaced.
"""

try:
    import numpy as np
except ImportError:  # tools/setup.sh --play installs no numpy: Blinka's loop stays
    np = None


def _words(buf):
    view = memoryview(buf)
    return np.frombuffer(view, dtype="<u%d" % view.itemsize) if view.itemsize > 1 else np.frombuffer(view, np.uint8)


def fill_pixels_packed(buffer, mask, colors, opaque, geometry, tilegrid, bitmap, pack):
    """``_fill_pixels_packed`` over arrays (arguments and result as Blinka's)."""
    depth, pixels_per_byte, reverse_in_byte, share_row, area_width = pack
    start, x_stride, y_stride, x_shift, y_shift = geometry[:5]
    start_x, end_x, start_y, end_y = geometry[5:]
    if end_x <= start_x or end_y <= start_y:
        return True
    scale = tilegrid._absolute_transform.scale
    tile_w, tile_h = tilegrid._tile_width, tilegrid._tile_height
    across = tilegrid._bitmap_width_in_tiles
    ys = np.arange(start_y, end_y, dtype=np.int64)
    xs = np.arange(start_x, end_x, dtype=np.int64)
    offset = (start + (ys - start_y + y_shift) * y_stride)[:, None] + ((xs - start_x + x_shift) * x_stride)[None, :]
    offset = offset.ravel()
    masks = _words(mask)
    free = ((masks[offset >> 5] >> (offset & 31).astype(masks.dtype)) & 1) == 0
    local_y, local_x = ys // scale, xs // scale
    row = (local_y // tile_h + tilegrid._top_left_y) % tilegrid._height_in_tiles
    col = (local_x // tile_w + tilegrid._top_left_x) % tilegrid._width_in_tiles
    where = (row * tilegrid._width_in_tiles)[:, None] + col[None, :]
    tile = np.asarray(tilegrid._tiles, dtype=np.int64)[where.ravel()]
    tile_x = (tile % across) * tile_w + np.tile(local_x % tile_w, len(ys))
    tile_y = (tile // across) * tile_h + np.repeat(local_y % tile_h, len(xs))
    inside = (tile_x < bitmap._bmp_width) & (tile_y < bitmap._bmp_height)
    outside = not inside.all()
    if outside:  # (a tile number past the bitmap: value 0, as Blinka's loop)
        tile_x, tile_y = np.where(inside, tile_x, 0), np.where(inside, tile_y, 0)
    bits = bitmap._bits_per_value
    words = bitmap._data
    if bits == 8:
        data = np.frombuffer(memoryview(words).cast("B"), np.uint8)
        pixel = data[tile_y * (bitmap._stride * words.itemsize) + tile_x].astype(np.int64)
    else:
        data = _words(words).astype(np.int64)
        word = data[tile_y * bitmap._stride + (tile_x >> bitmap._x_shift)]
        pixel = (word >> (32 - ((tile_x & bitmap._x_mask) + 1) * bits)) & bitmap._bitmask
    if outside:
        pixel = np.where(inside, pixel, 0)
    shown = np.asarray(opaque, dtype=bool)[pixel]
    covered = not np.any(free & ~shown)
    todo = free & shown
    if not todo.any():
        return covered
    off, pixel = offset[todo], pixel[todo]
    # Each pixel's bit is its own (the offsets differ), so a word's new bits are their sum.
    masks |= np.bincount(off >> 5, weights=np.left_shift(1, off & 31), minlength=len(masks)).astype(masks.dtype)
    packed = off
    if not share_row:
        row, col = off // area_width, off % area_width
        packed = col * pixels_per_byte + (row // pixels_per_byte) * pixels_per_byte * area_width + row % pixels_per_byte
    shift = (packed % pixels_per_byte) * depth
    if reverse_in_byte:
        shift = (pixels_per_byte - 1) * depth - shift
    out = np.frombuffer(buffer, np.uint8)
    value = np.asarray(colors, dtype=np.int64)[pixel] << shift
    # Pixels sharing a byte sit at different shifts: their bits are disjoint, so a byte's are their sum.
    out |= np.bincount(packed // pixels_per_byte, weights=value, minlength=len(out)).astype(np.uint8)
    return covered
