"""Model choice from settings: Gemini chain (construction, retry, fallback) or the embedded model."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.exceptions import ModelAuthenticationError, ModelRateLimitError
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from agents.lecture.brains import make_plan
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.lecture.llm import (
    DEFAULT_GEMINI_MODELS,
    RetryPolicy,
    chat_model,
    fallback_chain,
    gemini_model_names,
    is_retryable,
    with_rate_limit_retry,
)
from agents.lecture.model.chat import EmbeddedChatModel
from agents.lecture.services import LectureServices

FAKE_KEY = "AIzaFAKE-test-key-0123456789"
NO_WAIT = RetryPolicy(attempts=3, initial=0, maximum=0, jitter=0)


class ScriptedChatModel(BaseChatModel):
    """Raises the scripted errors in order, then answers ``reply``; counts calls."""

    errors: list[Exception] = Field(default_factory=list)
    reply: str = "ok"
    calls: list[int] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _next(self) -> ChatResult:
        self.calls.append(len(self.calls) + 1)
        if self.errors:
            raise self.errors.pop(0)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=self.reply))])

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any):
        return self._next()

    async def _agenerate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any):
        return self._next()


def rate_limited(times: int) -> list[Exception]:
    return [ModelRateLimitError("429 RESOURCE_EXHAUSTED") for _ in range(times)]


def chain_models(chain: Any) -> list[Any]:
    """The retry-wrapped chat models of a fallback chain, in order."""
    return [step.bound for step in [chain.runnable, *chain.fallbacks]]


# --- choice ------------------------------------------------------------------


def test_without_a_key_the_embedded_model_answers() -> None:
    chosen = LectureServices.from_values({"HITL_MODEL_LATENCY": "0"}).chat_model()
    assert isinstance(chosen, EmbeddedChatModel) and chosen.latency == 0
    assert len(make_plan(chosen, DEFAULT_LECTURE_INPUT)) == 5
    assert LectureServices.from_values({"HITL_MODEL_LATENCY": "0"}).model_text().render("en") == (
        "Embedded offline model (deterministic, simulated latency 0 s)"
    )


def test_an_empty_key_counts_as_no_key() -> None:
    assert isinstance(LectureServices.from_values({"GOOGLE_API_KEY": "  "}).chat_model(), EmbeddedChatModel)


@pytest.mark.parametrize("key_name", ["GOOGLE_API_KEY", "GEMINI_API_KEY"])
def test_a_key_builds_the_default_gemini_chain_without_showing_the_key(key_name: str) -> None:
    settings = {key_name: FAKE_KEY}
    services = LectureServices.from_values(settings)
    chain = chat_model(services.gemini_key, services.gemini_models, retry_policy=NO_WAIT)
    models = chain_models(chain)
    assert [model.model for model in models] == list(DEFAULT_GEMINI_MODELS)
    assert all(model.max_retries == 1 for model in models)  # our retry policy decides, not the SDK's
    assert chain.runnable.max_attempt_number == NO_WAIT.attempts
    shown = services.model_text().render("en")
    assert FAKE_KEY not in repr(chain) and FAKE_KEY not in shown + repr(services)
    assert shown.startswith("Gemini (gemini-2.5-flash → gemini-2.5-flash-lite")


def test_the_model_list_comes_from_the_setting() -> None:
    settings = {"GOOGLE_API_KEY": FAKE_KEY, "HITL_GEMINI_MODELS": " gemini-a, gemini-b ,gemini-a,"}
    assert gemini_model_names(settings) == ("gemini-a", "gemini-b")
    chain = LectureServices.from_values(settings).chat_model()
    assert [model.model for model in chain_models(chain)] == ["gemini-a", "gemini-b"]


# --- retry and fallback ----------------------------------------------------------


def test_rate_limits_are_retried_until_the_model_answers() -> None:
    flaky = ScriptedChatModel(errors=rate_limited(2))
    assert with_rate_limit_retry(flaky, NO_WAIT).invoke("hi").text == "ok"
    assert flaky.calls == [1, 2, 3]


def test_errors_a_retry_cannot_fix_are_not_retried() -> None:
    refused = ScriptedChatModel(errors=[ModelAuthenticationError("401 bad key")])
    with pytest.raises(ModelAuthenticationError):
        with_rate_limit_retry(refused, NO_WAIT).invoke("hi")
    assert refused.calls == [1]


def test_a_model_that_keeps_failing_hands_over_to_the_next() -> None:
    exhausted = ScriptedChatModel(errors=rate_limited(10))
    backup = ScriptedChatModel(reply="from the backup")
    chain = fallback_chain([exhausted, backup], NO_WAIT)
    assert chain.invoke("hi").text == "from the backup"
    assert exhausted.calls == [1, 2, 3] and backup.calls == [1]


def test_async_calls_retry_and_fall_back_too() -> None:
    exhausted = ScriptedChatModel(errors=rate_limited(10))
    flaky_backup = ScriptedChatModel(errors=rate_limited(1), reply="async backup")
    answer = asyncio.run(fallback_chain([exhausted, flaky_backup], NO_WAIT).ainvoke("hi"))
    assert answer.text == "async backup"
    assert len(exhausted.calls) == 3 and flaky_backup.calls == [1, 2]


def test_the_planner_runs_through_a_chain_whose_first_model_fails() -> None:
    chain = fallback_chain([ScriptedChatModel(errors=rate_limited(10)), EmbeddedChatModel(latency=0)], NO_WAIT)
    plan = make_plan(chain, DEFAULT_LECTURE_INPUT)
    assert [subtopic["id"] for subtopic in plan] == ["s1", "s2", "s3", "s4", "s5"]


class HttpError(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(f"HTTP {code}")
        self.code = code


@pytest.mark.parametrize(
    ("error", "retryable"),
    [
        (ModelRateLimitError("429"), True),
        (ModelAuthenticationError("401"), False),
        (HttpError(429), True),
        (HttpError(503), True),
        (HttpError(400), False),
        (ValueError("bad JSON"), False),
    ],
)
def test_which_errors_are_retried(error: Exception, retryable: bool) -> None:
    assert is_retryable(error) is retryable


def test_the_gemini_rate_limit_error_is_retryable() -> None:
    from langchain_google_genai.chat_models import GoogleRateLimitError

    assert is_retryable(GoogleRateLimitError("429 quota"))


def test_fallback_chain_needs_a_model() -> None:
    with pytest.raises(ValueError, match="at least one model"):
        fallback_chain([])
