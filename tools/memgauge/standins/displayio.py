# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's displayio (C) in the heap gauge: objects sized
# like the C ones (a Bitmap's pixels in one bytearray, a row padded to 32-bit
# words; a TileGrid's tiles in one bytearray), no rendering.


class Bitmap:
    def __init__(self, width, height, value_count):
        b = 1
        while (1 << b) < value_count:
            b <<= 1
        self.width = width
        self.height = height
        self.bits_per_value = self._bpp = b
        self._stride = ((width * b + 31) >> 5) << 2  # bytes a row
        self._buf = bytearray(self._stride * height)

    def _get(self, x, y):
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError("pixel out of bounds")
        b = self._bpp
        p = y * self._stride * 8 + x * b
        if b >= 8:
            return int.from_bytes(self._buf[p >> 3:(p >> 3) + (b >> 3)], "little")
        return (self._buf[p >> 3] >> (p & 7)) & ((1 << b) - 1)

    def _set(self, x, y, v):
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError("pixel out of bounds")
        b = self._bpp
        p = y * self._stride * 8 + x * b
        buf = self._buf
        if b >= 8:
            buf[p >> 3:(p >> 3) + (b >> 3)] = v.to_bytes(b >> 3, "little")
        else:
            m = ((1 << b) - 1) << (p & 7)
            buf[p >> 3] = (buf[p >> 3] & ~m) | ((v << (p & 7)) & m)

    def __getitem__(self, i):
        if isinstance(i, int):
            return self._get(i % self.width, i // self.width)
        return self._get(i[0], i[1])

    def __setitem__(self, i, v):
        if isinstance(i, int):
            self._set(i % self.width, i // self.width, v)
        else:
            self._set(i[0], i[1], v)

    def fill(self, v):
        b = self._bpp
        if b < 8:
            v &= (1 << b) - 1
            while b < 8:
                v |= v << b
                b <<= 1
        if b == 8:
            buf = self._buf
            for i in range(len(buf)):
                buf[i] = v
        else:
            for y in range(self.height):
                for x in range(self.width):
                    self._set(x, y, v)

    def dirty(self, x1=0, y1=0, x2=-1, y2=-1):
        pass


class Palette:
    def __init__(self, color_count, *, dither=False):
        self._c = bytearray(4 * color_count)  # RGB888 and a transparent flag

    def __len__(self):
        return len(self._c) >> 2

    def __setitem__(self, i, color):
        if not isinstance(color, int):
            color = int.from_bytes(bytes(color[:3]), "big")
        c = self._c
        c[4 * i] = color >> 16 & 255
        c[4 * i + 1] = color >> 8 & 255
        c[4 * i + 2] = color & 255

    def __getitem__(self, i):
        c = self._c
        return c[4 * i] << 16 | c[4 * i + 1] << 8 | c[4 * i + 2]

    def make_transparent(self, i):
        self._c[4 * i + 3] = 1

    def make_opaque(self, i):
        self._c[4 * i + 3] = 0

    def is_transparent(self, i):
        return self._c[4 * i + 3] == 1


class _Layer:
    _g_in = False  # in a group (C: a layer has one parent)


class TileGrid(_Layer):
    # defaults in the class: an instance's dict grows only when they are set
    hidden = False
    flip_x = False
    flip_y = False
    transpose_xy = False

    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0, x=0, y=0):
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self.width = width
        self.height = height
        self.tile_width = tile_width or bitmap.width
        self.tile_height = tile_height or bitmap.height
        if bitmap.width % self.tile_width or bitmap.height % self.tile_height:
            raise ValueError("Tile width and height must exactly divide the bitmap's")
        n = (bitmap.width // self.tile_width) * (bitmap.height // self.tile_height)
        if not 0 <= default_tile < n:
            raise ValueError("default_tile out of range")
        self._n = n
        self._t = bytearray((default_tile,) * (width * height)) if n <= 256 else \
            bytearray(2 * width * height)  # C: uint8 tiles, uint16 past 255
        if n > 256:
            for i in range(width * height):
                self[i] = default_tile
        self.x = x
        self.y = y

    def _i(self, i):
        if not isinstance(i, int):
            i = i[1] * self.width + i[0]
        if not 0 <= i < self.width * self.height:
            raise IndexError("tile index out of bounds")
        return i

    def __getitem__(self, i):
        i = self._i(i)
        t = self._t
        return t[i] if self._n <= 256 else t[2 * i] | t[2 * i + 1] << 8

    def __setitem__(self, i, v):
        i = self._i(i)
        if not 0 <= v < self._n:
            raise ValueError("tile value out of bounds")
        if self._n <= 256:
            self._t[i] = v
        else:
            self._t[2 * i] = v & 255
            self._t[2 * i + 1] = v >> 8

    def contains(self, touch):
        x, y = touch[0] - self.x, touch[1] - self.y
        return 0 <= x < self.width * self.tile_width and 0 <= y < self.height * self.tile_height


class Group(_Layer):
    hidden = False

    def __init__(self, *, scale=1, x=0, y=0):
        if scale < 1:
            raise ValueError("scale must be >= 1")
        self._g_scale = scale  # LabelBase overrides .scale: keep it private here
        self._g_items = []
        self.x = x
        self.y = y

    @property
    def scale(self):
        return self._g_scale

    @scale.setter
    def scale(self, v):
        if v < 1:
            raise ValueError("scale must be >= 1")
        self._g_scale = v

    def _take(self, layer):
        if not isinstance(layer, _Layer):
            raise TypeError("Layer must be a Group or TileGrid subclass")
        if layer._g_in:
            raise ValueError("Layer already in a group")
        layer._g_in = True
        return layer

    def append(self, layer):
        self._g_items.append(self._take(layer))

    def insert(self, i, layer):
        self._g_items.insert(i, self._take(layer))

    def index(self, layer):
        return self._g_items.index(layer)

    def pop(self, i=-1):
        layer = self._g_items.pop(i)
        layer._g_in = False
        return layer

    def remove(self, layer):
        self.pop(self._g_items.index(layer))

    def sort(self, key=None, reverse=False):
        self._g_items.sort(key=key, reverse=reverse)

    def __len__(self):
        return len(self._g_items)

    def __getitem__(self, i):
        return self._g_items[i]

    def __setitem__(self, i, layer):
        self._take(layer)
        self._g_items[i]._g_in = False
        self._g_items[i] = layer

    def __delitem__(self, i):
        self.pop(i)

    def __contains__(self, layer):
        return layer in self._g_items

    def __iter__(self):
        return iter(self._g_items)


def release_displays():
    pass
