"""How a LangGraph checkpoint id is made, read back from the id itself.

LangGraph names each checkpoint with ``uuid6(clock_seq=step)``
(``langgraph.checkpoint.base.id``): a 36-character id in five groups.

* The first three groups are the time the checkpoint was taken: 100 ns ticks since
  1582-10-15, most significant first, with the version digit ``6`` as the third
  group's first character. Ids therefore sort as their times do, which is how the
  latest checkpoint is found (newest first, take the first).
* The fourth group is the RFC 4122 variant bits (``10``) over the step's low 14
  bits: ``8000`` is step 0, ``8001`` step 1, ``bfff`` step -1 (the input).
* The fifth group is 48 random bits; the UI's short id is its first 8 characters.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from agents import readmodel
from agents.errors import short_id

_UUID = re.compile(r"^([0-9a-f]{8}-[0-9a-f]{4}-6[0-9a-f]{3})-([0-9a-f]{4})-([0-9a-f]{12})$")
_STEP_BITS = 0x3FFF  # the clock sequence's 14 bits under the two variant bits
_STEP_SIGN = 0x2000


@dataclass(frozen=True)
class IdParts:
    """The three parts of a checkpoint id and what they encode."""

    time_groups: str
    step_group: str
    tail: str
    taken_at: dt.datetime
    step: int
    short: str


def id_parts(checkpoint_id: str) -> IdParts | None:
    """The parts of a LangGraph (uuid6) checkpoint id; None for an id of another shape."""
    found = _UUID.match(checkpoint_id)
    if found is None:
        return None
    time_groups, step_group, tail = found.groups()
    step = int(step_group, 16) & _STEP_BITS
    if step & _STEP_SIGN:  # uuid6 keeps the low 14 bits of a negative step (-1 is 0x3fff)
        step -= _STEP_BITS + 1
    return IdParts(
        time_groups=time_groups,
        step_group=step_group,
        tail=tail,
        taken_at=readmodel.checkpoint_time(checkpoint_id),
        step=step,
        short=short_id(checkpoint_id),
    )


def latest(checkpoint_ids: list[str]) -> str | None:
    """The latest checkpoint: the first id in newest-first (descending) order, as the savers find it."""
    return sorted(checkpoint_ids, reverse=True)[0] if checkpoint_ids else None
