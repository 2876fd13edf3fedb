"""Which chat model and research source the lecture planner uses, chosen by the settings.

Gemini with ``GOOGLE_API_KEY`` (or ``GEMINI_API_KEY``), else the embedded
model (:mod:`agents.lecture.llm`); Tavily with ``TAVILY_API_KEY``, else the
bundled corpus (:mod:`agents.lecture.research`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from agents.lecture import llm, research
from agents.lecture.brains import ChatModel
from agents.lecture.model import DEFAULT_LATENCY, parse_latency
from agents.lecture.research import ResearchSource
from agents.settings import Secret, secret_setting


@dataclass(frozen=True)
class LectureServices:
    """Which model and research source the graph uses; the default is the embedded model and the corpus.

    Frozen and hashable, so the runtime caches one compiled graph per configuration; the keys are
    :class:`~agents.settings.Secret` values, so no ``repr`` shows them.

    Attributes:
        gemini_key: The Gemini key, or None for the embedded model.
        gemini_models: The Gemini chain, first = primary (``HITL_GEMINI_MODELS``).
        model_latency: The embedded model's simulated seconds per call (``HITL_MODEL_LATENCY``).
        tavily_key: The Tavily key, or None for the bundled corpus.
    """

    gemini_key: Secret | None = None
    gemini_models: tuple[str, ...] = llm.DEFAULT_GEMINI_MODELS
    model_latency: float = DEFAULT_LATENCY
    tavily_key: Secret | None = None

    @classmethod
    def from_values(cls, values: Mapping[str, str]) -> LectureServices:
        """Reads the model and research settings; a bad latency is refused, naming the setting."""
        return cls(
            gemini_key=secret_setting(values, *llm.KEY_NAMES),
            gemini_models=llm.gemini_model_names(values),
            model_latency=parse_latency(values),
            tavily_key=secret_setting(values, research.TAVILY_KEY_NAME),
        )

    def chat_model(self) -> ChatModel:
        """Gemini with a key, the embedded model without."""
        return llm.chat_model(self.gemini_key, self.gemini_models, self.model_latency)

    def research_source(self) -> ResearchSource:
        """Tavily with a key, the bundled corpus without."""
        return research.research_source(self.tavily_key)

    def describe_model(self) -> str:
        """Names the model (never a key)."""
        return llm.describe_model(self.gemini_key, self.gemini_models, self.model_latency)

    def describe_research(self) -> str:
        """Names the research source (never a key)."""
        return self.research_source().describe()
