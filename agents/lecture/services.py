"""Which chat model and research source the lecture planner uses, chosen by the settings.

Gemini with ``GOOGLE_API_KEY`` (or ``GEMINI_API_KEY``), else the embedded
model (:mod:`agents.lecture.llm`); Tavily with ``TAVILY_API_KEY``, else the
bundled corpus (:mod:`agents.lecture.research`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.lecture import llm, research
from agents.lecture.brains import ChatModel
from agents.lecture.research import ResearchSource
from agents.settings import Settings

#: Settings that choose the model and the research source (keys included, never shown).
SERVICE_SETTINGS = (*llm.KEY_NAMES, llm.MODELS_SETTING, "HITL_MODEL_LATENCY", research.TAVILY_KEY_NAME)


@dataclass(frozen=True)
class LectureServices:
    """Which model and research source the graph uses, read from the settings.

    Hashable, so the store can cache one compiled graph per configuration;
    the values (which may hold keys) stay out of ``repr``.
    """

    values: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    @classmethod
    def from_settings(cls, settings: Settings) -> LectureServices:
        """Keeps the settings that choose the model and the research source."""
        return cls(tuple((name, str(settings.get(name))) for name in SERVICE_SETTINGS if settings.get(name)))

    @property
    def mapping(self) -> dict[str, str]:
        """The values as a settings mapping."""
        return dict(self.values)

    def chat_model(self) -> ChatModel:
        """Gemini with a key, the embedded model without."""
        return llm.chat_model_from_settings(self.mapping)

    def research_source(self) -> ResearchSource:
        """Tavily with a key, the bundled corpus without."""
        return research.research_source_from_settings(self.mapping)

    def describe_model(self) -> str:
        """Names the model (never a key)."""
        return llm.describe_model(self.mapping)

    def describe_research(self) -> str:
        """Names the research source (never a key)."""
        return self.research_source().describe()
