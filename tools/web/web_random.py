# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# The browser page's `random` when a seed is given (?seed=N, as the
# simulator's --seed): CPython's Mersenne Twister, so the page deals and the
# bots choose exactly as the desktop simulator does for the same seed and
# keys (tests/test_web.py compares their frames). MicroPython's own random
# (and the board's) is another generator. The 32-bit words are kept as two
# 16-bit halves and products split in bytes, so no step makes a big integer:
# this VM's small ints hold 30 bits, and a big one is heap that a call
# cannot free before it returns to JS. Only what the firmware calls:
# seed(int) and randrange(stop) / randrange(start, stop), getrandbits(k).
from array import array

_N = 624
_M = 397
_hi = array("H", bytes(2 * _N))
_lo = array("H", bytes(2 * _N))
_i = [_N + 1]


_r = [0, 0]  # the last result's (high, low) halves: no tuple a step


def _mul(ah, al, bh, b1, b0):
    # _r = (a * b) mod 2**32, b given as its high half and its low half's two bytes
    # (a constant over 2**30 is a big int: every operation on it would allocate)
    p1 = al * b1
    low = al * b0 + ((p1 & 0xFF) << 8)
    h = (p1 >> 8) + (low >> 16)
    h += ah * b0 + ((ah * b1 & 0xFF) << 8)
    h += al * (bh & 0xFF) + ((al * (bh >> 8) & 0xFF) << 8)
    _r[0] = h & 0xFFFF
    _r[1] = low & 0xFFFF


def _add(ah, al, bh, bl):
    # _r = a + b mod 2**32
    low = al + bl
    _r[0] = (ah + bh + (low >> 16)) & 0xFFFF
    _r[1] = low & 0xFFFF


def _mix(i, mh, m1, m0):
    # _r = mt[i] ^ ((mt[i-1] ^ (mt[i-1] >> 30)) * m)
    ph = _hi[i - 1]
    _mul(ph, _lo[i - 1] ^ (ph >> 14), mh, m1, m0)
    _r[0] ^= _hi[i]
    _r[1] ^= _lo[i]


def _init(s):
    _hi[0] = (s >> 16) & 0xFFFF
    _lo[0] = s & 0xFFFF
    for i in range(1, _N):
        ph = _hi[i - 1]
        _mul(ph, _lo[i - 1] ^ (ph >> 14), 0x6C07, 0x89, 0x65)  # 1812433253
        _add(_r[0], _r[1], 0, i)
        _hi[i] = _r[0]
        _lo[i] = _r[1]


def seed(a=0):
    a = abs(a)
    kh = []  # the key's 32-bit words as halves
    kl = []
    while a:
        kh.append((a >> 16) & 0xFFFF)
        kl.append(a & 0xFFFF)
        a >>= 32
    if not kh:
        kh.append(0)
        kl.append(0)
    _init(19650218)
    i = 1
    j = 0
    for _ in range(max(_N, len(kh))):
        _mix(i, 0x19, 0x66, 0x0D)  # 1664525
        _add(_r[0], _r[1], kh[j], kl[j])
        _add(_r[0], _r[1], 0, j)
        _hi[i] = _r[0]
        _lo[i] = _r[1]
        i += 1
        j += 1
        if i >= _N:
            _hi[0] = _hi[_N - 1]
            _lo[0] = _lo[_N - 1]
            i = 1
        if j >= len(kh):
            j = 0
    for _ in range(_N - 1):
        _mix(i, 0x5D58, 0x8B, 0x65)  # 1566083941
        _add(_r[0], _r[1], (-i >> 16) & 0xFFFF, -i & 0xFFFF)
        _hi[i] = _r[0]
        _lo[i] = _r[1]
        i += 1
        if i >= _N:
            _hi[0] = _hi[_N - 1]
            _lo[0] = _lo[_N - 1]
            i = 1
    _hi[0] = 0x8000
    _lo[0] = 0
    _i[0] = _N


def _twist():
    hi, lo = _hi, _lo
    for k in range(_N):
        n = k + 1 if k + 1 < _N else 0
        m = k + _M if k + _M < _N else k + _M - _N
        yh = (hi[k] & 0x8000) | (hi[n] & 0x7FFF)
        yl = lo[n]
        h = hi[m] ^ (yh >> 1)
        lw = lo[m] ^ ((yl >> 1) | ((yh & 1) << 15))
        if yl & 1:
            h ^= 0x9908
            lw ^= 0xB0DF
        hi[k] = h
        lo[k] = lw
    _i[0] = 0


def _next():
    # _r = the next tempered 32-bit output
    if _i[0] >= _N:
        if _i[0] == _N + 1:
            seed(0)
        _twist()
    k = _i[0]
    _i[0] = k + 1
    h = _hi[k]
    lw = _lo[k]
    lw ^= ((lw >> 11) | (h << 5)) & 0xFFFF
    h ^= h >> 11
    nh = ((h << 7) | (lw >> 9)) & 0x9D2C
    lw ^= (lw << 7) & 0x5680
    h ^= nh
    h ^= ((h << 15) | (lw >> 1)) & 0xEFC6
    lw ^= h >> 2
    _r[0] = h
    _r[1] = lw


def getrandbits(k):
    if k <= 0:
        return 0
    if k > 30:
        r = 0
        s = 0
        while k > 0:
            _next()
            w = (_r[0] << 16) | _r[1]
            if k < 32:
                w >>= 32 - k
            r |= w << s
            s += 32
            k -= 32
        return r
    _next()
    if k <= 16:
        return _r[0] >> (16 - k)
    return (_r[0] << (k - 16)) | (_r[1] >> (32 - k))


def _below(n):
    k = 0
    while (1 << k) <= n:
        k += 1  # n.bit_length() (MicroPython has no int.bit_length)
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def randrange(start, stop=None, step=1):
    if stop is None:
        if start <= 0:
            raise ValueError("empty range for randrange()")
        return _below(start)
    if step != 1:
        raise ValueError("step is not supported here")
    if stop <= start:
        raise ValueError("empty range for randrange()")
    return start + _below(stop - start)


def randint(a, b):
    return randrange(a, b + 1)


def choice(seq):
    return seq[_below(len(seq))]
