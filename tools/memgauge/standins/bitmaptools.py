# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's bitmaptools (C) in the heap gauge: same
# semantics, no allocation beyond what the C version does (a row buffer).


def blit(dest, source, x, y, *, x1=0, y1=0, x2=None, y2=None, skip_source_index=None,
         skip_dest_index=None):
    if x2 is None:
        x2 = source.width
    if y2 is None:
        y2 = source.height
    get = source._get
    put = dest._set
    dget = dest._get
    for sy in range(max(y1, 0), min(y2, source.height)):
        dy = y + sy - y1
        if not 0 <= dy < dest.height:
            continue
        for sx in range(max(x1, 0), min(x2, source.width)):
            dx = x + sx - x1
            if 0 <= dx < dest.width:
                v = get(sx, sy)
                if v != skip_source_index and (skip_dest_index is None
                                               or dget(dx, dy) != skip_dest_index):
                    put(dx, dy, v)


def fill_region(dest, x1, y1, x2, y2, value):
    put = dest._set
    for yy in range(max(min(y1, y2), 0), min(max(y1, y2), dest.height)):
        for xx in range(max(min(x1, x2), 0), min(max(x1, x2), dest.width)):
            put(xx, yy, value)


def replace_color(dest, old_color, new_color):
    for yy in range(dest.height):
        for xx in range(dest.width):
            if dest._get(xx, yy) == old_color:
                dest._set(xx, yy, new_color)


def arrayblit(bitmap, data, x1=0, y1=0, x2=None, y2=None, skip_index=None):
    if x2 is None:
        x2 = bitmap.width
    if y2 is None:
        y2 = bitmap.height
    i = 0
    for yy in range(y1, y2):
        for xx in range(x1, x2):
            v = data[i]
            i += 1
            if v != skip_index:
                bitmap._set(xx, yy, v)


def readinto(bitmap, file, bits_per_pixel, element_size=1, reverse_pixels_in_element=False,
             swap_bytes_in_element=False, reverse_rows=False):
    w = bitmap.width
    h = bitmap.height
    bpp = bits_per_pixel
    bits = element_size * 8
    rowsize = (w * bpp + bits - 1) // bits * element_size
    row = bytearray(rowsize)
    mask = (1 << bitmap.bits_per_value) - 1
    per = bits // bpp if bpp < bits else 1
    for r in range(h):
        if file.readinto(row) != rowsize:
            raise EOFError()
        yy = h - 1 - r if reverse_rows else r
        for xx in range(w):
            if bpp >= 8:
                n = bpp >> 3
                b = row[xx * n:xx * n + n]
                v = int.from_bytes(b, "big" if swap_bytes_in_element else "little")
            else:
                e = xx // per  # element, then the pixel inside it
                k = xx % per
                if reverse_pixels_in_element:
                    k = per - 1 - k
                if element_size > 1:
                    ev = int.from_bytes(row[e * element_size:(e + 1) * element_size],
                                        "big" if swap_bytes_in_element else "little")
                else:
                    ev = row[e]
                v = (ev >> (k * bpp)) & ((1 << bpp) - 1)
            bitmap._set(xx, yy, v & mask)
