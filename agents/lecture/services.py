"""Which chat model and research source the lecture planner uses, chosen by the settings.

Gemini with ``GOOGLE_API_KEY`` (or ``GEMINI_API_KEY``), else the embedded
model (:mod:`agents.lecture.llm`); Tavily with ``TAVILY_API_KEY``, else the
bundled corpus (:mod:`agents.lecture.research`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agents.lecture import research
from agents.lecture.research import CorpusResearch, ResearchSource, TavilyResearch, read_corpus
from agents.lecture.strings import STRINGS
from agents.settings_values import Secret, float_setting, secret_setting
from agents.texts import Text, text

if TYPE_CHECKING:
    from agents.lecture.brains import ChatModel

KEY_NAMES = ("GOOGLE_API_KEY", "GEMINI_API_KEY")
MODELS_SETTING = "HITL_GEMINI_MODELS"
DEFAULT_GEMINI_MODELS: tuple[str, ...] = ("gemini-2.5-flash", "gemini-2.5-flash-lite")
LATENCY_ENV = "HITL_MODEL_LATENCY"
DEFAULT_LATENCY = 0.3


def gemini_model_names(values: Mapping[str, str]) -> tuple[str, ...]:
    """``HITL_GEMINI_MODELS`` from the setting values: the chain's models, in order, duplicates removed."""
    raw = str(values.get(MODELS_SETTING) or "").strip()
    names = [name.strip() for name in raw.split(",") if name.strip()] if raw else list(DEFAULT_GEMINI_MODELS)
    return tuple(dict.fromkeys(names))


def parse_latency(values: Mapping[str, str]) -> float:
    """``HITL_MODEL_LATENCY`` from the setting values (seconds, default 0.3); a bad value is refused by name."""
    return float_setting(values, LATENCY_ENV, DEFAULT_LATENCY)


@dataclass(frozen=True)
class LectureServices:
    """Which model and research source the graph uses; the default is the embedded model and the corpus.

    Frozen and hashable, so the runtime caches one compiled graph per configuration; the keys are
    :class:`~agents.settings_values.Secret` values, so no ``repr`` shows them.

    Attributes:
        gemini_key: The Gemini key, or None for the embedded model.
        gemini_models: The Gemini chain, first = primary (``HITL_GEMINI_MODELS``).
        model_latency: The embedded model's simulated seconds per call (``HITL_MODEL_LATENCY``).
        tavily_key: The Tavily key, or None for the bundled corpus.
    """

    gemini_key: Secret | None = None
    gemini_models: tuple[str, ...] = DEFAULT_GEMINI_MODELS
    model_latency: float = DEFAULT_LATENCY
    tavily_key: Secret | None = None

    @classmethod
    def from_values(cls, values: Mapping[str, str]) -> LectureServices:
        """Reads the model and research settings; a bad latency is refused, naming the setting."""
        return cls(
            gemini_key=secret_setting(values, *KEY_NAMES),
            gemini_models=gemini_model_names(values),
            model_latency=parse_latency(values),
            tavily_key=secret_setting(values, research.TAVILY_KEY_NAME),
        )

    def chat_model(self) -> ChatModel:
        """Gemini with a key, the embedded model without."""
        from agents.lecture import llm  # LangChain's chat models, only when a model is made (see pyproject.toml)

        return llm.chat_model(self.gemini_key, self.gemini_models, self.model_latency)

    def research_source(self) -> ResearchSource:
        """Tavily with a key, the bundled corpus without."""
        return research.research_source(self.tavily_key)

    def model_text(self) -> Text:
        """The model for people, in the reader's language (never a key)."""
        if self.gemini_key is None:
            return text(STRINGS, "lecture.model.embedded", latency=f"{self.model_latency:g}")
        return text(STRINGS, "lecture.model.gemini", models=" → ".join(self.gemini_models))

    def research_text(self) -> Text | str:
        """The research source for people, in the reader's language where it is one of ours (never a key)."""
        source = self.research_source()
        if isinstance(source, CorpusResearch):
            return text(STRINGS, "lecture.research.corpus", count=len(read_corpus(source.corpus_dir)))
        if isinstance(source, TavilyResearch):
            return text(STRINGS, "lecture.research.tavily")
        return source.describe()
