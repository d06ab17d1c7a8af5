# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.nvlog`
==================

The console's saves (settings, ranking, the game in progress) as an
append-only log in ``microcontroller.nvm``, kind to the flash and safe
across power cuts. Works over any bytearray-like nvm; no hardware imports.

Why a log. On the RP2040 a write into bytes that are all 0xFF is only
programmed; any other write erases and rewrites the whole 4 KB sector, which
lasts about 100,000 erases. So every save is one record appended, with one
slice assignment, into the erased tail; only when the tail is too short is
the log compacted: one whole-sector write of a fresh image.

Layout (all integers big-endian)::

    0  "PsT" + layout version (1)
    4  records, then 0xFF up to the end

    record = tag, [length], payload, check (2)
    tag    = kind << 4 | code   code 0..12: the payload length itself,
                                13: one length byte follows (0..254),
                                14: two 7-bit length bytes follow
    check  = CRC-16/CCITT-FALSE of tag, length and payload, high byte
             then low byte & 0x7F: a record never ends in 0xFF.

Kinds: 1 settings, 2 ranking (latest wins), 3 game start (a new game
header, no actions yet), 4 game actions (appended), 5 game end,
6 game image (header length, header, actions: the whole game in one
record, written only by compaction), 7 meta (generation: compactions so
far; it closes every image, so its absence means a cut image), 8 the
statistics (latest wins; added later in layout 1: a build without it
reads a log holding one as damaged from there on).

Power cuts. A write programs its bytes in address order, so a cut leaves a
record whose last byte is still 0xFF: its check fails and it is ignored
(the state before the write). The scanner steps over a failed record by its
length (or over its tag and length bytes if the length was never written),
and the writer appends after the same point, so no erase is needed.
Anything else that does not parse is damage: what came before it is kept
and the next save compacts.

Compaction writes magic, ranking, statistics, settings, game image, meta,
in that order, so the ranking is the first thing programmed after the erase. A cut
after the erase and before the ranking record's last byte loses the
ranking: ``4 + Store.record_size(len(ranking))`` cut points per compaction (68
for a 60-byte ranking), against about 2,800 (Pişti) to 4,000 (Pis Yedili)
cut points a match. No layout in one sector avoids that: the erase clears
every byte at once and ``nvm`` has no second sector for a copy.
``tools/nvm_report.py`` measures it over whole matches. ``reserve`` makes
a game that starts when none is in progress (a match's first deal) compact
first when less than that is free: fewer games caught by a compaction, a
few more erases (and ranking exposures).

RAM: one 4 KB copy of the nvm while loading, one 4 KB image while
compacting (never both), each allocated for that moment only; payloads
are small ``bytes``. With ``buf`` (a bytearray as long as the nvm) both
use it instead. The app gives none: 4 KB held through every game cost
more than the moments it is needed, which it chooses (a boot, a match's
first deal, the heap tidy).
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from pisti_core.crc import crc16

_MAGIC = b"PsT\x01"
_VERSION = const(1)
_SETTINGS = const(1)
_RANKING = const(2)
_START = const(3)
_ACTIONS = const(4)
_END = const(5)
_GAME = const(6)
_META = const(7)
_STATS = const(8)
_MAX_BLOB = const(254)
_META_LEN = const(5)  # tag, generation (2), check (2)


def _blob(data, what):
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("%s must be bytes, not %s" % (what, type(data).__name__))
    data = bytes(data)
    if len(data) > _MAX_BLOB:
        raise ValueError("%s is %d bytes; at most %d fit a record" % (what, len(data), _MAX_BLOB))
    return data


class Store:
    """The save log over ``nvm`` (``microcontroller.nvm`` or any bytearray).

    Call :meth:`load` once, then read the state and save with the put and
    game methods; each save is in the nvm when the method returns. Payloads
    are opaque bytes (the app encodes them), at most 254 bytes a call. The
    store owns the whole nvm: nothing else may write it. ``buf``: an
    optional bytearray of the nvm's length for loading and compacting.

    State: ``settings``, ``ranking``, ``stats``, ``game_header`` (bytes or None) and
    ``game_actions`` (a bytearray of every action byte of the game in
    progress, in order; replaced, not extended, by start_game/end_game).
    After load: ``status`` ('ok', 'recovered', 'reset'), ``notice`` (one
    line, '' when ok), ``blank`` (the nvm was erased: a new device, or a
    cut right after a compaction's erase), ``generation`` (compactions of
    this log so far). Counters: ``erases_caused`` and ``compactions`` by
    this object, ``free`` bytes before the next compaction, and
    ``image_layout``: (ranking end, settings end, game end, image end)
    offsets of the last image written.
    """

    def __init__(self, nvm, reserve=0, buf=None):
        self._nvm = nvm
        self.reserve = reserve
        self._size = len(nvm)
        if not 64 <= self._size <= 16384:
            raise ValueError("nvm of %d bytes: the save log needs 64 to 16384" % self._size)
        if buf is not None and len(buf) != self._size:
            raise ValueError("buf of %d bytes: it must be as long as the nvm (%d)" % (len(buf), self._size))
        self._buf = buf
        self.tail = None  # None until load(): where the next record goes
        self.erases_caused = 0
        self.compactions = 0
        self.image_layout = None
        self.clear()

    def clear(self):
        self.settings = None
        self.ranking = None
        self.stats = None
        self.game_header = None
        self.game_actions = bytearray()
        self.generation = 0
        self.status = "ok"
        self.notice = ""
        self.blank = False
        self.dirty = False  # bytes past tail are not all 0xFF: compact next
        self.sealed = False  # image lacks its meta record: add one next

    # -- records ---------------------------------------------------------------
    # Written by the saves below and by the compaction (pisti_core.nvpack,
    # which is given the store and imports nothing of this module).
    @staticmethod
    def record_size(n):
        """Bytes a record with an ``n``-byte payload takes in the log."""
        return (1 if n <= 12 else 2 if n <= _MAX_BLOB else 3) + n + 2

    @staticmethod
    def record_head(buf, p, kind, n):
        """Write the tag and length of a ``kind`` record with an ``n``-byte
        payload at ``buf[p]``; returns where its payload goes."""
        if n <= 12:
            buf[p] = kind << 4 | n
            return p + 1
        if n <= _MAX_BLOB:
            buf[p] = kind << 4 | 13
            buf[p + 1] = n
            return p + 2
        buf[p] = kind << 4 | 14
        buf[p + 1] = n >> 7
        buf[p + 2] = n & 127
        return p + 3

    @staticmethod
    def record_check(buf, start, p):
        """Write the check of the record at ``buf[start:p]`` (tag to payload)
        at ``buf[p]``; returns the record's end."""
        c = crc16(buf, start, p)
        buf[p] = c >> 8
        buf[p + 1] = c & 0x7F
        return p + 2

    @staticmethod
    def record(buf, p, kind, payload):
        """Write a ``kind`` record of ``payload`` at ``buf[p]``; returns its end."""
        start = p
        n = len(payload)
        p = Store.record_head(buf, p, kind, n)
        buf[p:p + n] = payload
        return Store.record_check(buf, start, p + n)

    @property
    def free(self):
        """Bytes left for appended records before the next compaction."""
        p = self.tail or 0
        pre = 4 + _META_LEN if p == 0 else _META_LEN if self.sealed else 0
        return 0 if self.dirty else self._size - p - pre

    def load(self):
        """Read the nvm; returns 'ok', 'recovered' or 'reset' (also ``status``).
        The reading is in :mod:`pisti_core.nvload`, which a console needs
        only at boot (and may forget after)."""
        from pisti_core.nvload import load
        return load(self)

    # -- saving ----------------------------------------------------------------
    def put_settings(self, data):
        """Save the settings blob (at most 254 bytes); same bytes: no write."""
        data = _blob(data, "settings")
        if data != self.settings:
            self._save(_SETTINGS, data, data, self.ranking, self.game_header,
                       self.game_actions, b"")
            self.settings = data

    def put_ranking(self, data):
        """Save the ranking blob (at most 254 bytes); same bytes: no write."""
        data = _blob(data, "ranking")
        if data != self.ranking:
            self._save(_RANKING, data, self.settings, data, self.game_header,
                       self.game_actions, b"")
            self.ranking = data

    def put_stats(self, data):
        """Save the statistics blob (at most 254 bytes); same bytes: no write."""
        data = _blob(data, "stats")
        if data != self.stats:
            self._save(_STATS, data, self.settings, self.ranking, self.game_header,
                       self.game_actions, b"", data)
            self.stats = data

    def start_game(self, header):
        """Save a new game in progress: its header (at most 254 bytes), no
        actions. With none in progress and fewer than ``reserve`` bytes free
        the log is compacted first (an image without a game: none is at
        risk), so that the game rarely meets a compaction."""
        header = _blob(header, "game header")
        if self.game_header is None and self.free < self.reserve:
            self.compact()
        self._save(_START, header, self.settings, self.ranking, header, b"", b"")
        self.game_header = header
        self.game_actions = bytearray()

    def add_actions(self, data):
        """Append action bytes (1..254) to the game in progress."""
        data = _blob(data, "actions")
        if not data:
            raise ValueError("add_actions needs at least one byte")
        if self.game_header is None:
            raise ValueError("add_actions: no game in progress (call start_game first)")
        self._save(_ACTIONS, data, self.settings, self.ranking, self.game_header,
                   self.game_actions, data)
        self.game_actions += data

    def end_game(self):
        """Clear the game in progress (no write when there is none)."""
        if self.game_header is not None:
            self._save(_END, b"", self.settings, self.ranking, None, b"", b"")
            self.game_header = None
            self.game_actions = bytearray()

    def compact(self):
        """Rewrite the log as a fresh image now (one sector erase)."""
        self._save(None, b"", self.settings, self.ranking, self.game_header,
                   self.game_actions, b"")

    def _save(self, kind, payload, s, r, h, a, b, t=None):
        # Append one record; when it does not fit, write the image of the new
        # state (s, r, h, a + b; statistics t, None: as they are) instead. Either
        # is one nvm write.
        p = self.tail
        if p is None:
            raise RuntimeError("Store.load() must run before saving")
        pre = 4 + _META_LEN if p == 0 else _META_LEN if self.sealed else 0
        n = pre + self.record_size(len(payload))
        if kind is None or self.dirty or p + n > self._size:
            self._compact(s, r, h, a, b, self.stats if t is None else t)
            return
        buf = bytearray(n)
        q = 0
        if p == 0:
            buf[0:4] = _MAGIC
            q = 4
        if pre:
            g = self.generation
            q = self.record(buf, q, _META, bytes((g >> 8, g & 255)))
        self.record(buf, q, kind, payload)
        self.write_at(p, buf)
        self.tail = p + n
        self.sealed = False
        self.blank = False

    def _compact(self, s, r, h, a, b, t):
        # Rare (a boot or a match's first deal short of the reserve, a log
        # full mid-game): its code is in a module of its own, compiled for
        # the moment and forgotten after it; it writes with this store's
        # record methods.
        import sys
        try:
            from pisti_core.nvpack import compact
            compact(self, s, r, h, a, b, t)
        finally:
            sys.modules.pop("pisti_core.nvpack", None)
            import pisti_core
            if hasattr(pisti_core, "nvpack"):
                delattr(pisti_core, "nvpack")

    def write_at(self, p, buf):
        try:
            self._nvm[p:p + len(buf)] = buf
        except BaseException:
            self.dirty = True  # unknown bytes may have been programmed
            raise
