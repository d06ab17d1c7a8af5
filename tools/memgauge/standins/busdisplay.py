# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's busdisplay (C) in the heap gauge: the display
# keeps its root group and counts refreshes (the C one renders from a stack
# buffer: no heap).


class BusDisplay:
    def __init__(self, display_bus, init_sequence, *, width, height, rotation=0,
                 auto_refresh=True, **kwargs):
        self.bus = display_bus
        self.width = width
        self.height = height
        self.rotation = rotation
        self.auto_refresh = auto_refresh
        self._root = None
        self.brightness = 1.0
        self.refreshes = 0

    @property
    def root_group(self):
        return self._root

    @root_group.setter
    def root_group(self, group):
        # as in C: the root is marked in a group, so it cannot be appended elsewhere
        if group is self._root:
            return
        if group is not None and group._g_in:
            raise ValueError("Group already used")
        if self._root is not None:
            self._root._g_in = False
        if group is not None:
            group._g_in = True
        self._root = group

    def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
        self.refreshes += 1
        return True
