"""How the refund state machines run their random operation sequences (one set of Hypothesis settings)."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase
from hypothesis import settings as hypothesis_settings


def sequence_settings(max_examples: int, steps: int) -> hypothesis_settings:
    """``max_examples`` sequences of up to ``steps`` operations, the same on every run (derandomized, no
    example database), shrunk when one fails; slow steps (kills, subprocesses) are no health problem."""
    return hypothesis_settings(
        max_examples=max_examples,
        stateful_step_count=steps,
        deadline=None,
        derandomize=True,
        database=None,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
        print_blob=False,
    )
