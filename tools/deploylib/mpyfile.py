# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""What a ``.mpy`` file is: its header (which VM loads it) and the modules it imports.

The header is 4 bytes: ``C`` for CircuitPython (``M`` for MicroPython), the
format version, a feature byte (native architecture << 2 | sub-version) and
the small-int bits. CircuitPython 7 and 8 load format 5, CircuitPython 9
and 10 format 6 (py/persistentcode.c; sub-version 1 in 9.0, 3 from 9.2, only
checked for native code); MicroPython's files are refused with "MicroPython
.mpy file; use CircuitPython mpy-cross" and any other version with
"incompatible .mpy file".

Imports are read from the bytecode (format 6): the qstr table, the object
table, then the raw code tree, each function's prelude and opcodes
(tools/mpy-tool.py of CircuitPython describes the layout). An import inside
a ``try`` that has an ``except`` (its body or its handler) is optional.
"""

from __future__ import annotations

from dataclasses import dataclass

# Static qstrs (py/makeqstrdata.py): a .mpy refers to these by number. The
# only module names among them are built-in ones ("micropython", "builtins").
_STATIC_MODULES = {115: "micropython", 63: "builtins"}

# CircuitPython major version -> the .mpy format version it loads.
FORMATS = {7: 5, 8: 5, 9: 6, 10: 6}

_BC_LOAD_CONST_SMALL_INT = 0x22
_BC_SETUP_EXCEPT = 0x48
_BC_POP_EXCEPT_JUMP = 0x4A
_BC_IMPORT_NAME = 0x1B
_BC_IMPORT_FROM = 0x1C
_SMALL_INT_MULTI = 0x70
_SIGNED_OFFSET = (0x40, 0x42, 0x43, 0x44)  # UNWIND_JUMP, JUMP, POP_JUMP_IF_TRUE/FALSE
_FORMAT_QSTR, _FORMAT_UINT, _FORMAT_OFFSET = 1, 2, 3


class MpyError(ValueError):
    """A file that is not a .mpy this reader understands."""


@dataclass
class Header:
    """The first 4 bytes of a .mpy file."""

    magic: str  # "C" CircuitPython, "M" MicroPython, else not a .mpy
    version: int
    sub_version: int
    arch: int

    @property
    def label(self) -> str:
        """How the format reads in a message: "CircuitPython .mpy v6" etc."""
        vm = {"C": "CircuitPython", "M": "MicroPython"}.get(self.magic)
        if vm is None:
            return "not a .mpy file"
        # The sub-version is only written for native code (0 otherwise).
        return f"{vm} .mpy v{self.version}" + (f".{self.sub_version}" if self.sub_version else "")


def read_header(data: bytes) -> Header:
    """The header of a .mpy file's bytes (a non-.mpy gets magic "?")."""
    if len(data) < 4:
        return Header("?", 0, 0, 0)
    magic = chr(data[0]) if data[0] in (0x43, 0x4D) else "?"
    return Header(magic, data[1], data[2] & 3, (data[2] >> 2) & 0x2F)


def loads_on(header: Header, board_major: int) -> str | None:
    """None when CircuitPython ``board_major`` loads a file with this header, else why not."""
    if header.magic == "M":
        return "it is a MicroPython .mpy file (the board says: use CircuitPython mpy-cross)"
    if header.magic != "C":
        return "it is not a .mpy file"
    want = FORMATS.get(board_major)
    if want is not None and header.version != want:
        return f"CircuitPython {board_major} loads .mpy v{want} only (it says: incompatible .mpy file)"
    return None


def mpy_cross_for(board_major: int) -> str:
    """Which mpy-cross makes files a board of that major version loads."""
    return f"CircuitPython's mpy-cross {board_major}.x (mpy-cross-<os>-{board_major}.x.y from " \
        "https://adafruit-circuit-python.s3.amazonaws.com/index.html?prefix=bin/mpy-cross/)"


class _Reader:
    def __init__(self, data: bytes, pos: int = 0):
        self.data = data
        self.pos = pos

    def byte(self) -> int:
        if self.pos >= len(self.data):
            raise MpyError("truncated .mpy file")
        self.pos += 1
        return self.data[self.pos - 1]

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise MpyError("truncated .mpy file")
        self.pos += n
        return self.data[self.pos - n:self.pos]

    def uint(self) -> int:
        value = 0
        while True:
            b = self.byte()
            value = (value << 7) | (b & 0x7F)
            if not b & 0x80:
                return value


def _qstr(reader: _Reader) -> str:
    n = reader.uint()
    if n & 1:
        return _STATIC_MODULES.get(n >> 1, "")
    text = reader.take(n >> 1).decode("utf-8", "replace")
    reader.byte()
    return text


def _obj(reader: _Reader) -> None:
    kind = reader.byte()
    if kind <= 4:  # fun table, None, False, True, Ellipsis
        return
    if kind == 10:  # tuple
        for _ in range(reader.uint()):
            _obj(reader)
        return
    if kind > 10:
        raise MpyError("corrupt .mpy object table")
    reader.take(reader.uint())
    if kind in (5, 6):  # str, bytes: a null terminator follows
        reader.byte()


def _skip_prelude(code: bytes) -> int:
    """Offset of the first opcode of a bytecode function."""
    r = _Reader(code)
    z = r.byte()
    n_pos = z & 3
    n_kw = 0
    shift = 0
    while z & 0x80:
        z = r.byte()
        n_pos |= (z & 0x4) << shift
        n_kw |= ((z & 0x08) >> 3) << shift
        shift += 1
    n_info = n_cell = 0
    shift = 0
    while True:
        z = r.byte()
        n_info |= ((z & 0x7E) >> 1) << (6 * shift)
        n_cell |= (z & 1) << shift
        shift += 1
        if not z & 0x80:
            break
    return r.pos + n_info + n_cell


def _scan(code: bytes, qstrs: list[str], found: list[tuple[str, int, tuple, bool]]) -> None:
    """Append (module, level, from-names, optional) for each import in one function."""
    ip = _skip_prelude(code)
    guarded: list[tuple[int, int]] = []  # [start, end) of try bodies and handlers
    handlers: list[int] = []
    level = 0
    current = None
    while ip < len(code):
        op = code[ip]
        start = ip
        fmt = (0x000003A4 >> (2 * (op >> 4))) & 3
        ip += 1
        arg = 0
        if fmt in (_FORMAT_QSTR, _FORMAT_UINT):
            arg = code[ip] & 0x7F
            if op == _BC_LOAD_CONST_SMALL_INT and arg & 0x40:
                arg |= -1 << 7
            while code[ip] & 0x80:
                ip += 1
                arg = (arg << 7) | (code[ip] & 0x7F)
            ip += 1
        elif fmt == _FORMAT_OFFSET:
            if code[ip] & 0x80 == 0:
                arg = code[ip] - (0x40 if op in _SIGNED_OFFSET else 0)
                ip += 1
            else:
                arg = (code[ip] & 0x7F | code[ip + 1] << 7) - (0x4000 if op in _SIGNED_OFFSET else 0)
                ip += 2
        if op & 0x9E == 0:
            ip += 1
        if op == _BC_SETUP_EXCEPT:
            guarded.append((ip, ip + arg))
            handlers.append(ip + arg)
        elif op == _BC_POP_EXCEPT_JUMP and handlers and start >= handlers[-1]:
            guarded.append((handlers.pop(), ip + arg))
        elif _SMALL_INT_MULTI <= op < _SMALL_INT_MULTI + 64:
            level = op - _SMALL_INT_MULTI - 16
        elif op == _BC_LOAD_CONST_SMALL_INT:
            level = arg
        elif op == _BC_IMPORT_NAME:
            name = qstrs[arg] if arg < len(qstrs) else ""
            current = [name, level, [], start]
            found.append(current)
        elif op == _BC_IMPORT_FROM and current is not None:
            current[2].append(qstrs[arg] if arg < len(qstrs) else "")
    for i, entry in enumerate(found):
        if isinstance(entry, list):
            name, lvl, names, at = entry
            optional = any(lo <= at < hi for lo, hi in guarded)
            found[i] = (name, lvl, tuple(names), optional)


def _raw_code(reader: _Reader, qstrs: list[str], found: list) -> None:
    kind_len = reader.uint()
    kind = kind_len & 3
    code = reader.take(kind_len >> 3)
    if kind == 0:
        local: list = []
        _scan(code, qstrs, local)
        found.extend(local)
    elif kind == 1:  # native Python: prelude offset
        reader.uint()
    elif kind == 2:  # viper
        flags = reader.uint()
        rodata = reader.uint() if flags & 0x40 else 0
        if flags & 0x80:
            reader.uint()
        reader.take(rodata)
        if flags & 0x20:
            while True:
                op = reader.byte()
                if op == 0xFF:
                    break
                if op & 1:
                    reader.uint()
                if (op >> 1) <= 5 and (op >> 1) & 1:
                    reader.uint()
    else:  # inline assembler
        reader.uint()
        reader.uint()
    if (kind_len >> 2) & 1:
        for _ in range(reader.uint()):
            _raw_code(reader, qstrs, found)


def imports(data: bytes) -> list[tuple[str, int, tuple, bool]]:
    """(module, relative level, names after ``from ... import``, optional) for each import.

    Raises MpyError for a file that is not a format-6 .mpy.
    """
    header = read_header(data)
    if header.magic == "?" or header.version != 6:
        raise MpyError(f"cannot read the imports of a {header.label}")
    reader = _Reader(data, 4)
    if data[2] & 0x40:
        reader.uint()  # architecture flags
    n_qstr = reader.uint()
    n_obj = reader.uint()
    qstrs = [_qstr(reader) for _ in range(n_qstr)]
    for _ in range(n_obj):
        _obj(reader)
    found: list = []
    try:
        _raw_code(reader, qstrs, found)
    except IndexError:
        raise MpyError("truncated .mpy file") from None
    return found
