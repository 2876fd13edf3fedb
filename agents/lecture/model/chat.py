"""The embedded chat model: a deterministic, offline stand-in for Gemini.

:class:`EmbeddedChatModel` is a real LangChain chat model (``BaseChatModel``),
so the lecture planner calls it exactly as it calls Gemini: the same prompts
(:mod:`agents.lecture.prompts`), ``invoke``/``ainvoke``, callbacks and tracing.
It reads the job from the ``TASK: ...`` marker of the system message and the
JSON input of the human message, and answers in the input's language (Korean
when Hangul dominates, see :func:`~agents.lecture.prompts.detect_language`):

* ``plan``: 3 to 5 subtopics as JSON, built from the topic, the tools and
  whether the topic is about AI;
* ``research_summary``: a summary plus one key sentence per given document
  (documents in the input's language first), as JSON;
* ``draft``: a Markdown lecture plan with one schedule table per day;
* ``review_content`` / ``review_time_allocation`` / ``review_difficulty``:
  JSON ``{"score": 0-100, "feedback": [...]}`` from real checks of the draft
  text (the schedule is parsed back from the Markdown, not remembered).

Same input, same output: nothing depends on time, randomness or set order.
The simulated latency (the ``latency`` field: ``HITL_MODEL_LATENCY`` seconds as
read by ``agents.lecture.services.parse_latency`` into the lecture's settings, default 0.3) varies
by a deterministic ±20% derived from a hash of the prompt, so parallel tasks
end at different times but a rerun waits the same.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from agents.lecture.model.reviewers import review_content, review_difficulty, review_time_allocation
from agents.lecture.model.writer import write_draft_markdown, write_plan, write_research_summary
from agents.lecture.prompts import (
    TASK_DRAFT,
    TASK_PLAN,
    TASK_RESEARCH,
    Language,
    detect_language,
    extract_json,
    review_task,
    task_of,
)
from agents.lecture.services import DEFAULT_LATENCY
from agents.lecture.services import parse_latency as parse_latency


def _payload_language(payload: Mapping[str, Any]) -> Language:
    lecture = payload.get("lecture") or {}
    sample = " ".join(str(value) for value in lecture.values())
    if not sample.strip() and isinstance(payload.get("subtopic"), Mapping):
        sample = str(payload["subtopic"].get("title", ""))
    return detect_language(sample)


_JSON_JOBS = {
    TASK_PLAN: lambda payload, lang: write_plan(payload["lecture"], lang),
    TASK_RESEARCH: write_research_summary,
    review_task("content"): review_content,
    review_task("time_allocation"): review_time_allocation,
    review_task("difficulty"): review_difficulty,
}


def answer(messages: Sequence[BaseMessage]) -> str:
    """The embedded model's answer to a job's messages (no latency).

    Raises:
        ValueError: The messages carry no known ``TASK:`` marker.
    """
    system = "\n".join(message.text for message in messages if message.type == "system")
    humans = [message.text for message in messages if message.type == "human"]
    task = task_of(system)
    if task is None or not humans or (task not in _JSON_JOBS and task != TASK_DRAFT):
        raise ValueError(
            f"EmbeddedChatModel only does the lecture planner's jobs; no known TASK marker found (got {task!r})"
        )
    payload = extract_json(humans[-1])
    lang = _payload_language(payload)
    if task == TASK_DRAFT:
        return write_draft_markdown(payload, lang)
    return json_dumps(_JSON_JOBS[task](payload, lang))


def json_dumps(value: Any) -> str:
    """JSON as the model writes it: readable, non-ASCII kept, keys sorted."""
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)


class EmbeddedChatModel(BaseChatModel):
    """Deterministic offline chat model for the lecture planner (see module docstring).

    Attributes:
        latency: Simulated seconds per call before jitter (default 0.3). Tests use 0.
        model_name: Shown in traces and in the dashboard.
    """

    latency: float = Field(default=DEFAULT_LATENCY, ge=0)
    model_name: str = "embedded-lecture-planner"

    @property
    def _llm_type(self) -> str:
        return "embedded-lecture-planner"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name, "latency": self.latency}

    def simulated_latency(self, messages: Sequence[BaseMessage]) -> float:
        """Seconds this call waits: the base latency ±20%, fixed by the prompt's hash."""
        base = self.latency
        if base == 0:
            return 0.0
        prompt = "\n".join(message.text for message in messages)
        digest = hashlib.sha256(prompt.encode("utf-8")).digest()
        fraction = int.from_bytes(digest[:8], "big") / 2**64
        return base * (0.8 + 0.4 * fraction)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        text = answer(messages)
        delay = self.simulated_latency(messages)
        if delay:
            time.sleep(delay)  # simulated network time, so parallel timelines overlap
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        text = answer(messages)
        delay = self.simulated_latency(messages)
        if delay:
            await asyncio.sleep(delay)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])
