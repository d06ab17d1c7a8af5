# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""A link cable over TCP: ``sim.py --link HOST:PORT`` (two processes) and
``sim.py --link HOST:PORT --consoles N --seat I`` (a ring of N processes).

:class:`TcpEnd` stands in for ``busio.UART`` (as the ends of
``tools/shims/uart.py``'s virtual cable do): ``write`` returns at once,
``in_waiting`` counts bytes arrived, ``read(n)`` returns at most ``n`` of them
(None when there are none), and no more than ``size`` bytes (the UART's
``receiver_buffer_size``) wait at a time: the rest stays in the socket, as the
bytes of a full buffer would be lost on the wire (here TCP keeps them; the link
protocol copes with either). The bytes are the UART's bytes: the protocol
above (frames, acks, resends, L-5's digests) is the same.

Who listens: the first process started on HOST:PORT finds nobody there and
listens; the second connects. A peer that goes away is a pulled cable
(L-7): the listener takes the next connection, the connector tries again
every second (a console booting again after a power cut, L-9, finds its
partner where it was). :meth:`TcpEnd.state` says which of these it is now,
and ``on_change`` (a function of that text) hears each change.

A ring of three or four processes (:func:`ring_addresses`): each process
has two connections, one for each UART. Process ``I`` listens on
``PORT+I`` for its second UART and connects to ``HOST:PORT+(I+1)%N`` for
its first, so that console ``I``'s first UART is joined to console
``I+1``'s second (the wiring of ``tools/shims/uart.py``'s ring). There the
roles are fixed (``role="listen"`` or ``"connect"``), not first come first
served. The listener binds ``HOST`` when it is a loopback address (every
process on one machine: nothing else can connect), else every interface
(processes on several machines, each given the next seat's machine as HOST).
"""

import errno
import ipaddress
import socket
import time

RETRY_S = 1.0
POLL_S = 0.25


def parse_address(text):
    """``HOST:PORT`` -> (host, port); ValueError-free: raises the simulator's UsageError."""
    from .script import UsageError

    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError("--link %s: give HOST:PORT, e.g. --link 127.0.0.1:7777 (or --link alone for two "
                         "consoles in this process)" % text)
    return host, int(port)


def ring_addresses(address, seat, count):
    """((host, port) the first UART connects to, (host, port) the second
    listens on) of seat ``seat`` in a ring of ``count`` processes started
    with ``address``: PORT+(seat+1)%count and PORT+seat."""
    host, port = address
    return (host, port + (seat + 1) % count), (listen_host(host), port + seat)


def listen_host(host):
    """Where a ring's listener binds: ``host`` when it is a loopback
    address (``localhost``, ``127.0.0.1``), else every interface."""
    if host == "localhost":
        return host
    try:
        return host if ipaddress.ip_address(host).is_loopback else ""
    except ValueError:  # a host name: another machine's
        return ""


class TcpEnd:
    """One console's UART, its bytes over a TCP connection to another console.

    ``role`` None: connect if someone listens on ``address``, else listen
    there (two processes); ``"listen"``: listen (OSError when the port is
    taken); ``"connect"``: connect, trying again every second until someone
    listens (a ring's fixed roles)."""

    def __init__(self, address, size=256, clock=time.monotonic, role=None):
        self.address = address
        self.size = size
        self.baudrate = 115200
        self.timeout = 0
        self.clock = clock
        self.rx = bytearray()
        self.sock = None
        self.listener = None
        self.role = None  # "listen" or "connect"
        self.next_try = 0.0
        self.written = 0
        self.connections = 0
        self.on_change = None  # called with state() when a connection is made or lost
        self.next_poll = 0.0
        self.fixed = role is not None  # a ring's end: its role does not change
        if role == "listen":
            self._listen()
        elif role == "connect":
            self.role = "connect"
            self._connect()
        elif role is None:
            self._start()
        else:
            raise ValueError("role is 'listen', 'connect' or None, not %r" % (role,))

    def state(self):
        """Where the link stands, as the simulator's status line says it."""
        where = "%s:%d" % self.address
        if self.sock is not None:
            return ("connected on " if self.role == "listen" else "connected to ") + where
        lost = "the other console left; " if self.connections else ""
        if self.role == "listen":
            return lost + "listening on " + where
        return lost + ("reconnecting to " if self.connections else "connecting to ") + where

    def _changed(self):
        if self.on_change is not None:
            self.on_change(self.state())

    def _start(self):
        if self._connect():
            self.role = "connect"
            return
        try:
            self._listen()
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            # taken but not answering yet (the other side is starting): connect later
            self.role = "connect"

    def _listen(self):
        """Listen on the address (OSError when it cannot)."""
        lst = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            lst.bind(self.address)
        except OSError:
            lst.close()
            raise
        lst.listen(1)
        lst.setblocking(False)
        self.listener = lst
        self.role = "listen"

    def _connect(self):
        try:
            sock = socket.create_connection(self.address, timeout=0.5)
        except OSError:
            return False
        self._use(sock)
        return True

    def _use(self, sock):
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = sock
        self.connections += 1
        self._changed()

    def _link(self):
        """The connection, made or taken when there is none."""
        if self.sock is not None:
            return self.sock
        now = self.clock()
        if self.listener is not None:
            try:
                sock, _ = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return None
            self._use(sock)
        elif now >= self.next_try:
            self.next_try = now + RETRY_S
            self._connect()
        return self.sock

    def _drop(self):
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
            self.sock = None
            self.next_try = self.clock() + RETRY_S
            self._changed()

    def poll(self):
        """Between the firmware's reads (a few times a second at most): take
        a connection waiting to be accepted and notice one the other side
        closed, so that state() is right while the firmware leaves the UART
        alone (in the menus). Tries to connect stay the firmware's, but for
        a ring's connector (``role="connect"``): its neighbour may start
        after it, and the ring is whole in the menus only if it tries again."""
        now = self.clock()
        if now < self.next_poll:
            return
        self.next_poll = now + POLL_S
        if self.sock is None:
            if self.listener is not None or self.fixed:
                self._link()
            return
        self._recv(self.sock, 1, socket.MSG_PEEK)

    def _recv(self, sock, n, flags=0):
        """Up to ``n`` bytes from ``sock``, or None when none are there; the
        connection is dropped (a pulled cable) when the other side closed it."""
        try:
            data = sock.recv(n, flags)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError:
            self._drop()
            return None
        if not data:  # the other side closed: a pulled cable
            self._drop()
            return None
        return data

    def _pull(self):
        sock = self._link()
        room = self.size - len(self.rx)
        if sock is None or room <= 0:
            return
        data = self._recv(sock, room)
        if data is not None:
            self.rx.extend(data)

    def write(self, buf):
        """Send ``buf``; returns its length (bytes with no connection are lost, as on a loose cable)."""
        data = bytes(buf)
        self.written += len(data)
        sock = self._link()
        if sock is not None:
            try:
                sock.sendall(data)
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                self._drop()
        return len(data)

    @property
    def in_waiting(self):
        """Bytes that have arrived and wait to be read."""
        self._pull()
        return len(self.rx)

    def read(self, n=None):
        """Up to ``n`` arrived bytes (all when None); None when there are none."""
        self._pull()
        if not self.rx:
            return None
        if n is None or n > len(self.rx):
            n = len(self.rx)
        out = bytes(self.rx[:n])
        del self.rx[:n]
        return out

    def reset_input_buffer(self):
        """Forget what has arrived."""
        self._pull()
        self.rx = bytearray()

    def deinit(self):
        """Release the UART: the connection stays for the next link game."""

    def close(self):
        """Close the sockets (the simulator's end)."""
        self.on_change = None  # (its own end: no news for the status line)
        self._drop()
        if self.listener is not None:
            self.listener.close()
            self.listener = None
