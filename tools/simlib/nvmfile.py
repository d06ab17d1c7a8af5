# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Where the simulator keeps a console's saves: the file behind its
``microcontroller.nvm`` (the game kept to Continue, the settings, the
statistics, the rankings).

A console played by hand (the terminal, the window) keeps its flash in the
user's data folder, ``$XDG_DATA_HOME/pisti`` (``~/.local/share/pisti`` when
the variable is unset), one file a console: ``sim-PROFILE.nvm`` alone,
``sim-PROFILE-link-a.nvm`` and ``-link-b`` for the two consoles of ``--link``,
``sim-PROFILE-tcp-PORT-listen.nvm`` and ``-connect`` for the two processes of
``--link HOST:PORT``. :func:`claim` holds a file for one process (an advisory
lock), so two simulators never write one flash: a default file in use gives
way to ``sim-PROFILE-2.nvm`` and so on.
"""

import errno
import os

try:
    import fcntl
except ImportError:  # no advisory locks (Windows): every claim succeeds
    fcntl = None

SPARES = 9  # a default file in use: its -2 .. -9 twins are tried


class InUse(Exception):
    """Another simulator has the file open."""


def data_dir(environ=None):
    """The folder of the simulator's saves: ``$XDG_DATA_HOME/pisti`` (an
    absolute path only, as the XDG spec says), else ``~/.local/share/pisti``."""
    base = (os.environ if environ is None else environ).get("XDG_DATA_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "pisti")


def default_path(profile, console=None, environ=None):
    """The saves file of a console of board ``profile``; ``console`` tells
    consoles of one run apart (``"link-a"``, ``"tcp-7777-listen"``, ...)."""
    name = "sim-%s%s.nvm" % (profile, "-" + console if console else "")
    return os.path.join(data_dir(environ), name)


class Claim:
    """A saves file held by this process until :meth:`close`."""

    def __init__(self, path, handle):
        self.path = path
        self._handle = handle

    def close(self):
        """Let the file go."""
        if self._handle is not None:
            os.close(self._handle)  # (closing the descriptor drops its lock)
            self._handle = None


def _lock(path):
    """A descriptor of ``path`` (created when missing) holding its lock; raises InUse."""
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    if fcntl is None:
        return handle
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
            os.close(handle)
            raise InUse("%s: another simulator has this file open" % path) from None
        # a file system without locks: the file is used unguarded
    return handle


def claim(path, spares=False):
    """Hold ``path`` for this process; with ``spares`` (a default file) a
    file in use gives way to its ``-2`` .. ``-9`` twins, whose folder is made
    when missing. Raises InUse (or OSError when the folder cannot be made)."""
    if spares:
        os.makedirs(os.path.dirname(path), exist_ok=True)
    stem, ext = os.path.splitext(path)
    tries = [path] + (["%s-%d%s" % (stem, n, ext) for n in range(2, SPARES + 1)] if spares else [])
    for candidate in tries:
        try:
            return Claim(candidate, _lock(candidate))
        except InUse:
            if candidate == tries[-1]:
                raise
    raise InUse(path)  # (not reached: the loop returns or raises)
