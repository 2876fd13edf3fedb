"""Start a run and answer its first question at once (``run <agent> --answer``): a refused answer changes nothing.

:func:`agents.runs.start_run` writes the run's checkpoints before its question exists, so the answer is
checked first, as far as the request fixes it: its shape (the agent's ``check_resume``) and the agent's
answer rules on the values the run starts from (``check_answer``: a refund's edit above the requested
amount). What only the run makes is checked when the question is asked, by
:func:`agents.runs.resume_thread`: which pause the run reached (the lecture planner's options) and what it
wrote there (the plan an edit names). A refusal there deletes the thread this call started, so the file
holds nothing of the request. An agent that starts over (the robot) replaced its thread's earlier run when
it started; none of its answer rules needs the run.

The command line is this module's caller, and it acts as the local operator.
"""

from __future__ import annotations

from typing import Any

from agents import runs
from agents.db import Store
from agents.deletion import take_back_start
from agents.errors import InputError, PermissionDenied, UserError
from agents.registry import get_agent
from agents.settings import Settings
from agents.spec import validate_fields
from agents.validation import validate_language


def start_and_answer(
    store: Store,
    settings: Settings,
    agent: str,
    values: dict[str, Any],
    answer: Any,
    *,
    thread_id: str | None = None,
    lang: str | None = None,
) -> runs.RunResult:
    """Starts ``agent`` and gives ``answer`` to the question it asks; a run that asks nothing ignores it.

    Raises:
        InputError: The start values or the answer are refused; nothing of this call stays in the file.
        PermissionDenied: As :func:`agents.runs.resume_thread`; nothing of this call stays in the file.
    """
    spec = get_agent(agent)
    checked = spec.ask.check_resume(answer)
    start = spec.run.make_input(validate_fields(spec.run.start_fields, values), validate_language(lang))
    spec.ask.check_answer(start, checked)  # the rules that need only what the run starts from
    started = runs.start_run(store, settings, agent, values, thread_id=thread_id, lang=lang)
    if started.status != "waiting":
        return started
    try:
        return runs.resume_thread(store, settings, started.thread_id, answer, expected_head=started.head_checkpoint_id)
    except (InputError, PermissionDenied):
        if not spec.run.fresh_start:  # the thread is this call's own: a start refuses a thread that exists
            _undo_start(store, started)
        raise


def _undo_start(store: Store, started: runs.RunResult) -> None:
    """Deletes the thread ``started`` made, unless another request acted on it since (it then stays)."""
    if started.head_checkpoint_id is None:
        return
    try:
        take_back_start(store, started.thread_id, started.head_checkpoint_id)
    except UserError:
        pass
