"""The embedded chat model: a deterministic, offline stand-in for Gemini.

One concern per module:

* :mod:`~agents.lecture.model.chat`: :class:`EmbeddedChatModel` (the LangChain
  chat model), reading the job from the prompt, the simulated latency;
* :mod:`~agents.lecture.model.writer`: the plan, research summaries and the
  Markdown draft;
* :mod:`~agents.lecture.model.reviewers`: the ``content``, ``time_allocation``
  and ``difficulty`` checks of a draft;
* :mod:`~agents.lecture.model.schedule`: laying out a day's schedule and
  reading schedule tables back from Markdown (and the demo's first-draft flaw);
* :mod:`~agents.lecture.model.words`: reading the lecture's free text (its
  duration: :mod:`agents.lecture.duration`, which the request's check reads too);
* :mod:`~agents.lecture.model.strings`: every sentence the model writes, per language.
"""

from agents.lecture.model.chat import EmbeddedChatModel

__all__ = ["EmbeddedChatModel"]
