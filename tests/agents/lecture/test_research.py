"""Research sources: BM25 over the bundled corpus, Tavily with a key, and the choice between them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from agents.lecture import research
from agents.lecture.research import (
    DEFAULT_CORPUS_DIR,
    CorpusResearch,
    ResearchError,
    TavilyResearch,
    read_corpus,
    research_source,
    tokenize,
)
from agents.lecture.services import LectureServices

FAKE_KEY = "tvly-test-key-0123456789"


class FakeTavilyTool:
    """Stands in for langchain_tavily.TavilySearch: returns or raises what it is given."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.queries: list[dict[str, str]] = []

    def invoke(self, payload: dict[str, str]) -> Any:
        self.queries.append(payload)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize(
    ("query", "expected_file"),
    [
        ("프로젝터 없는 강의실 운영", "ko-classroom-without-projector.md"),
        ("점심시간과 휴식 배치", "ko-breaks-and-lunch.md"),
        ("노트북 1인 1대 실습 환경", "ko-one-laptop-per-learner.md"),
        ("prompt writing: role, task, context and format", "en-prompt-writing-basics.md"),
        ("keeping company data private when using AI tools", "en-ai-privacy-at-work.md"),
    ],
)
def test_bm25_ranks_the_relevant_corpus_document_first(query: str, expected_file: str) -> None:
    results = CorpusResearch().search(query, k=3)
    assert results, query
    assert results[0]["source"] == f"data/corpus/{expected_file}"
    assert results[0]["title"] and results[0]["text"]


def test_korean_tokens_include_bigrams_so_particles_still_match() -> None:
    tokens = tokenize("프로젝터가 없는 The classroom")
    assert {"프로젝터가", "프로", "로젝", "젝터"} <= set(tokens)
    assert "the" not in tokens and "classroom" in tokens


def test_a_query_sharing_no_word_with_the_corpus_finds_nothing() -> None:
    assert CorpusResearch().search("zzzqqq xxyyzz", k=3) == []
    assert CorpusResearch().search("프롬프트", k=0) == []


def test_the_index_is_built_once_per_folder(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Coffee breaks\n\nBreaks keep adults alert.", encoding="utf-8")
    (tmp_path / "b.md").write_text("# Lunch\n\nLunch lasts an hour.", encoding="utf-8")
    source = CorpusResearch(tmp_path)
    first = source.search("coffee breaks", k=5)
    assert [doc["title"] for doc in first] == ["Coffee breaks"]
    assert research._corpus_index(tmp_path) is research._corpus_index(tmp_path)
    (tmp_path / "c.md").write_text("# Coffee again\n\nMore coffee breaks.", encoding="utf-8")
    assert [doc["title"] for doc in source.search("coffee breaks", k=5)] == ["Coffee breaks"]


def test_an_empty_corpus_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ResearchError, match="no .md files"):
        CorpusResearch(tmp_path).search("anything", k=3)


def test_the_bundled_corpus_is_thirty_short_titled_documents_in_two_languages() -> None:
    documents = read_corpus(DEFAULT_CORPUS_DIR)
    korean = [doc for doc in documents if re.search(r"[가-힣]", doc["title"])]
    assert len(documents) >= 28
    assert abs(len(korean) - len(documents) / 2) <= 3
    for path in sorted(DEFAULT_CORPUS_DIR.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        assert text.startswith("# "), path.name
        assert 150 <= len(text.split()) <= 400, path.name


def test_no_key_means_the_corpus() -> None:
    assert isinstance(research_source(None), CorpusResearch)
    assert LectureServices.from_values({"TAVILY_API_KEY": "   "}).tavily_key is None  # blank is no key
    assert "Bundled corpus (30 documents" in research_source(None).describe()


def test_a_key_means_tavily_and_the_key_is_never_shown() -> None:
    source = LectureServices.from_values({"TAVILY_API_KEY": FAKE_KEY}).research_source()
    assert isinstance(source, TavilyResearch)
    assert "Tavily" in source.describe()
    assert FAKE_KEY not in source.describe() and FAKE_KEY not in repr(source)


def test_tavily_results_become_documents() -> None:
    tool = FakeTavilyTool(
        {"results": [{"title": "Prompt tips", "url": "https://example.test/p", "content": "Say the format."}] * 4}
    )
    results = TavilyResearch(FAKE_KEY, tool=tool).search("prompt tips", k=2)
    assert tool.queries == [{"query": "prompt tips"}]
    assert results == [{"title": "Prompt tips", "text": "Say the format.", "source": "https://example.test/p"}] * 2


@pytest.mark.parametrize("answer", [ConnectionError(f"boom {FAKE_KEY}"), {"error": ValueError("quota")}])
def test_a_failed_web_search_falls_back_to_the_corpus(answer: Any, caplog: pytest.LogCaptureFixture) -> None:
    source = TavilyResearch(FAKE_KEY, tool=FakeTavilyTool(answer), fallback=CorpusResearch())
    results = source.search("프로젝터 없는 강의실 운영", k=2)
    assert results[0]["source"].endswith("ko-classroom-without-projector.md")
    assert FAKE_KEY not in caplog.text


def test_a_failed_web_search_without_fallback_raises_without_the_key() -> None:
    source = TavilyResearch(FAKE_KEY, tool=FakeTavilyTool(ConnectionError(f"bad key {FAKE_KEY}")))
    with pytest.raises(ResearchError) as raised:
        source.search("anything")
    assert FAKE_KEY not in str(raised.value)
