"""Run, resume, update and delete threads: the one code path for forms and CLI.

Deleting is :func:`agents.deletion.delete_thread`, re-exported here as ``delete_thread``. By concern:
:mod:`~agents.runs.core` (results, run config, the graph driver), :mod:`~agents.runs.start` (start,
continue, re-run), :mod:`~agents.runs.resume` (answers) and :mod:`~agents.runs.update` (update, fork,
restore); their public names are importable from here.

Every operation that changes a thread can name the head checkpoint the user
saw (``expected_head``). The check and the change happen under one per-thread
lock (:func:`~agents.leases.thread_guard`), so of two tabs or two approvers
acting on the same view, exactly one takes effect and the other gets
:class:`~agents.errors.StaleFormError`.
"""

from agents.deletion import delete_thread as delete_thread  # the write path's delete, kept in its own module
from agents.runs.core import NO_OPTIONS as NO_OPTIONS
from agents.runs.core import STREAM_MODES as STREAM_MODES
from agents.runs.core import UNCHECKED as UNCHECKED
from agents.runs.core import ChunkCallback as ChunkCallback
from agents.runs.core import EventCallback as EventCallback
from agents.runs.core import RunOptions as RunOptions
from agents.runs.core import RunResult as RunResult
from agents.runs.core import current_result as current_result
from agents.runs.core import run_config as run_config
from agents.runs.core import thread_history as thread_history
from agents.runs.core import thread_snapshot as thread_snapshot
from agents.runs.core import waiting_count as waiting_count
from agents.runs.resume import EVERY as EVERY
from agents.runs.resume import FailedRunAnswer as FailedRunAnswer
from agents.runs.resume import answer_each as answer_each
from agents.runs.resume import resume_from_fields as resume_from_fields
from agents.runs.resume import resume_interrupts as resume_interrupts
from agents.runs.resume import resume_thread as resume_thread
from agents.runs.start import continue_thread as continue_thread
from agents.runs.start import start_run as start_run
from agents.runs.update import restore_checkpoint as restore_checkpoint
from agents.runs.update import update_thread as update_thread
