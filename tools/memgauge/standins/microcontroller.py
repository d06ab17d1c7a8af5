# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's microcontroller (C) in the heap gauge. nvm is
# flash on the device, not heap: here its 4096 bytes are read from /nvm.bin
# when this module loads (before the gauge starts counting) and every write
# goes through to the file, which the driver keeps across power cuts. As in
# C, nvm[i] allocates nothing and nvm[a:b] a new bytearray.
_PATH = "/nvm.bin"


class _Nvm:
    def __init__(self):
        try:
            with open(_PATH, "rb") as f:
                self._b = bytearray(f.read(4096))
        except OSError:
            self._b = bytearray(b"\xff" * 4096)

    def __len__(self):
        return 4096

    def __getitem__(self, i):
        return self._b[i]

    def __setitem__(self, i, v):
        b = self._b
        if isinstance(i, int):
            b[i] = v
            a = i % 4096
            v = b[a:a + 1]
        else:
            a, e, _ = i.indices(4096)
            if len(v) != e - a:
                raise ValueError("nvm slice assignment must keep its length")
            b[a:e] = v
        with open(_PATH, "r+b") as f:
            f.seek(a)
            f.write(v)


nvm = _Nvm()


class ResetError(Exception):
    pass


def reset():
    raise ResetError()


def on_next_reset(mode):
    pass
