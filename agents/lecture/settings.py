"""The lecture planner's settings, read once into a frozen :class:`LectureSettings`.

* ``HITL_GATE_THRESHOLD``: the gate's pass mark, 0-100 (default 80);
* ``HITL_MAX_ROUNDS``: most drafts per run, 1-10 (default 3);
* ``HITL_PLAN_REVIEW``: ``on`` pauses after ``plan`` for a human plan edit (default off);
* ``HITL_PLANS_DIR``: the folder saved plans are written to (default: ``plans`` beside the SQLite
  file, or ``data/plans`` with PostgreSQL, where each replica keeps its own files);
* the model and research settings of :class:`~agents.lecture.services.LectureServices`
  (the embedded model and the bundled corpus without keys).

A bad value is refused with :class:`~agents.errors.InputError` naming the setting
when the settings are loaded, before anything runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from agents.lecture.services import LectureServices
from agents.settings_values import bool_setting, int_setting, text_setting

THRESHOLD_SETTING = "HITL_GATE_THRESHOLD"
MAX_ROUNDS_SETTING = "HITL_MAX_ROUNDS"
PLAN_REVIEW_SETTING = "HITL_PLAN_REVIEW"
PLANS_DIR_SETTING = "HITL_PLANS_DIR"
DEFAULT_THRESHOLD = 80
DEFAULT_MAX_ROUNDS = 3
MAX_ROUNDS_LIMIT = 10


@dataclass(frozen=True)
class LectureSettings:
    """The lecture planner's settings.

    Attributes:
        threshold: The gate's pass mark (0-100).
        max_rounds: Most drafts per run, the first included (1-10).
        plan_review: Whether the run pauses after ``plan`` for a human plan edit.
        services: The chat model and research source.
        plans_dir: The folder of saved plans, when set; None places them by the database.
    """

    threshold: int = DEFAULT_THRESHOLD
    max_rounds: int = DEFAULT_MAX_ROUNDS
    plan_review: bool = False
    services: LectureServices = field(default_factory=LectureServices)
    plans_dir: str | None = None


def settings_from(values: Mapping[str, str]) -> LectureSettings:
    """Reads the lecture's settings from the raw values; a bad value is refused, naming the setting."""
    return LectureSettings(
        threshold=int_setting(values, THRESHOLD_SETTING, DEFAULT_THRESHOLD, minimum=0, maximum=100),
        max_rounds=int_setting(values, MAX_ROUNDS_SETTING, DEFAULT_MAX_ROUNDS, minimum=1, maximum=MAX_ROUNDS_LIMIT),
        plan_review=bool_setting(values, PLAN_REVIEW_SETTING),
        services=LectureServices.from_values(values),
        plans_dir=text_setting(values, PLANS_DIR_SETTING) or None,
    )


def options_from_settings(settings: LectureSettings) -> dict[str, object]:
    """The graph's build options: gate threshold, round limit, plan review, model, research and the
    plans folder."""
    return {
        "threshold": settings.threshold,
        "max_rounds": settings.max_rounds,
        "plan_review": settings.plan_review,
        "services": settings.services,
        "plans_dir": settings.plans_dir,
    }
