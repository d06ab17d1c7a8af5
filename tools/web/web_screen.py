# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# The browser page's display: what CircuitPython's displayio core does in C
# at a refresh, for the heap gauge's stand-ins (tools/memgauge/standins):
# the root group drawn into one byte a pixel (0 dark, 1 lit), which the page
# reads from the file /frame.bin. Groups place their layers as in C (a
# layer's x, y in its parent's scale, pixels scale x scale), TileGrids in
# order over each other, palette colours to 1 bit as the SSD1306's grayscale
# conversion (lit at luma 128 and up), transparent indices left as they are,
# hidden layers skipped, flip_x / flip_y. Nothing shown is dark.
import displayio

_buf = None
_zero = None
_W = [0, 0]


def _lut(pal):
    # per value: 0 dark, 1 lit, 2 transparent
    c = getattr(pal, "_c", None)
    if c is None:
        return b"\x00\x01"
    n = len(c) >> 2
    out = bytearray(n)
    for v in range(n):
        if c[4 * v + 3]:
            out[v] = 2
        elif (c[4 * v] * 77 + c[4 * v + 1] * 150 + c[4 * v + 2] * 29) >> 8 >= 128:
            out[v] = 1
    return out


def _tiles(tg, x0, y0, s, fb, W, H):
    bm = tg.bitmap
    lut = _lut(tg.pixel_shader)
    nl = len(lut)
    tw = tg.tile_width
    th = tg.tile_height
    gw = tg.width
    per_row = bm.width // tw
    bpp = bm._bpp
    stride = bm._stride
    data = bm._buf
    mask = (1 << bpp) - 1
    fx = tg.flip_x
    fy = tg.flip_y
    tiles = tg._t
    wide = tg._n > 256
    for cy in range(tg.height):
        for py in range(th):
            sy = y0 + (cy * th + py) * s
            if sy + s <= 0 or sy >= H:
                continue
            for cx in range(gw):
                i = cy * gw + cx
                t = tiles[2 * i] | tiles[2 * i + 1] << 8 if wide else tiles[i]
                bx0 = (t % per_row) * tw
                by = (t // per_row) * th + (th - 1 - py if fy else py)
                rowbits = by * stride * 8
                sx = x0 + cx * tw * s
                for px in range(tw):
                    if sx + s > 0 and sx < W:
                        bx = bx0 + (tw - 1 - px if fx else px)
                        p = rowbits + bx * bpp
                        if bpp >= 8:
                            v = data[p >> 3]
                        else:
                            v = (data[p >> 3] >> (p & 7)) & mask
                        o = lut[v] if v < nl else 0
                        if o != 2:
                            if s == 1:
                                fb[sy * W + sx] = o
                            else:
                                for dy in range(s):
                                    yy = sy + dy
                                    if 0 <= yy < H:
                                        for dx in range(s):
                                            xx = sx + dx
                                            if 0 <= xx < W:
                                                fb[yy * W + xx] = o
                    sx += s


def _group(g, ox, oy, s, fb, W, H):
    if g.hidden:
        return
    ox += g.x * s
    oy += g.y * s
    s *= g._g_scale
    for layer in g._g_items:
        if isinstance(layer, displayio.Group):
            _group(layer, ox, oy, s, fb, W, H)
        elif not layer.hidden:
            _tiles(layer, ox + layer.x * s, oy + layer.y * s, s, fb, W, H)


def prepare(W, H):
    """The frame buffer, made before the heap is counted (the C core draws
    from a buffer on its stack: no heap on the board)."""
    global _buf, _zero
    if _buf is None or _W[0] != W or _W[1] != H:
        _buf = bytearray(W * H)
        _zero = bytes(W * H)
        _W[0] = W
        _W[1] = H


def render(display):
    """Draw ``display``'s root group; write the frame to /frame.bin."""
    W = display.width
    H = display.height
    prepare(W, H)
    fb = _buf
    fb[:] = _zero
    root = display.root_group
    if root is not None:
        _group(root, 0, 0, 1, fb, W, H)
    with open("/frame.bin", "wb") as f:
        f.write(fb)
