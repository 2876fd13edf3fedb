"""Pausing Python's cyclic garbage collector around a block that builds many objects at once.

A 10,000-checkpoint thread turns into tens of thousands of row tuples, points, hover lines and
Plotly properties. Every 700 new container objects set off a collection, and now and then one walks
every live object of the process (a dashboard server holds many). Those collections find little to
free in such a block: what it builds stays alive until the block returns it, and what it drops is
freed by reference counting at once.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pauses the cyclic collector, if it runs, for the block; it runs again after, however the block ends.

    Reference counting still frees everything the block drops at once; only cycles (a Plotly figure
    and its traces point at each other) wait for the next collection after the block, as they would
    have waited for the next one inside it. A block inside another paused block leaves the pause to it.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
