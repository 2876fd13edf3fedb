"""Choosing the lecture planner's chat model from the settings.

With ``GOOGLE_API_KEY`` (or ``GEMINI_API_KEY``) set, the model is a chain of
Gemini models (``HITL_GEMINI_MODELS``, comma separated, first = primary):
each is wrapped in LangChain's ``with_retry`` (exponential backoff with jitter,
only on errors a retry can fix: rate limits, server errors, timeouts), and the
wrapped models are chained with ``with_fallbacks`` so that a model that keeps
failing hands the request to the next. The Google SDK's own retries are turned
off (``max_retries=1``) so that one policy, ours, decides.

Without a key, the model is :class:`~agents.lecture.model.chat.EmbeddedChatModel`
(``HITL_MODEL_LATENCY`` sets its simulated latency).

Keys go into the Gemini client only (as ``SecretStr``); the returned objects' reprs never show them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from langchain_core.exceptions import ModelError
from langchain_core.language_models import BaseChatModel

from agents.lecture.brains import ChatModel
from agents.lecture.model.chat import EmbeddedChatModel
from agents.lecture.services import DEFAULT_GEMINI_MODELS, DEFAULT_LATENCY
from agents.lecture.services import KEY_NAMES as KEY_NAMES
from agents.lecture.services import gemini_model_names as gemini_model_names
from agents.settings_values import Secret

GEMINI_TEMPERATURE = 0.3  # low: the planner needs parseable JSON more than variety


@dataclass(frozen=True)
class RetryPolicy:
    """How each model of the chain retries (LangChain ``with_retry`` parameters).

    Attributes:
        attempts: Tries per model, the first included.
        initial: First backoff wait, in seconds.
        maximum: Longest single wait, in seconds.
        jitter: Random extra wait, up to this many seconds.
        exp_base: Growth factor of the waits.
    """

    attempts: int = 4
    initial: float = 2.0
    maximum: float = 30.0
    jitter: float = 1.0
    exp_base: float = 2.0


def is_retryable(error: BaseException) -> bool:
    """True for errors that a later identical request may not hit.

    LangChain's model errors say so themselves (``is_retryable``: rate limit
    429, server 5xx, connection, timeout); a raw SDK error is judged by its
    HTTP code.
    """
    if isinstance(error, ModelError):
        return bool(error.is_retryable)
    code = getattr(error, "code", None) or getattr(error, "status_code", None)
    return code == 429 or (isinstance(code, int) and code >= 500)


def with_rate_limit_retry(
    model: ChatModel,
    policy: RetryPolicy = RetryPolicy(),
    retry_if: Callable[[BaseException], bool] = is_retryable,
) -> ChatModel:
    """Wraps a model in ``with_retry`` with exponential backoff and jitter."""
    return model.with_retry(
        retry_if_exception_type=retry_if,
        wait_exponential_jitter=True,
        exponential_jitter_params={
            "initial": policy.initial,
            "max": policy.maximum,
            "jitter": policy.jitter,
            "exp_base": policy.exp_base,
        },
        stop_after_attempt=policy.attempts,
    )


def fallback_chain(models: Sequence[ChatModel], policy: RetryPolicy = RetryPolicy()) -> ChatModel:
    """Retries each model per the policy, then falls back to the next model.

    Raises:
        ValueError: No models.
    """
    if not models:
        raise ValueError("a fallback chain needs at least one model")
    wrapped = [with_rate_limit_retry(model, policy) for model in models]
    if len(wrapped) == 1:
        return wrapped[0]
    return wrapped[0].with_fallbacks(wrapped[1:])


def build_gemini_models(names: Sequence[str], api_key: Secret) -> list[BaseChatModel]:
    """One ``ChatGoogleGenerativeAI`` per model name (no network until invoked)."""
    from langchain_google_genai import ChatGoogleGenerativeAI  # heavy import; only with a key

    return [
        ChatGoogleGenerativeAI(model=name, api_key=api_key.reveal(), temperature=GEMINI_TEMPERATURE, max_retries=1)
        for name in names
    ]


def chat_model(
    key: Secret | None,
    models: Sequence[str] = DEFAULT_GEMINI_MODELS,
    latency: float = DEFAULT_LATENCY,
    retry_policy: RetryPolicy = RetryPolicy(),
) -> ChatModel:
    """The planner's model: the Gemini chain with a key, the embedded model without.

    Args:
        key: The Gemini key (``GOOGLE_API_KEY`` or ``GEMINI_API_KEY``), or None.
        models: The Gemini models of the chain, first = primary.
        latency: The embedded model's simulated seconds per call.
        retry_policy: Backoff of each Gemini model (tests pass tiny waits).

    Returns:
        A runnable that takes messages and returns a message, like a chat model.
    """
    if key is None:
        return EmbeddedChatModel(latency=latency)
    return fallback_chain(build_gemini_models(models, key), retry_policy)
