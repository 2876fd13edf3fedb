"""Research sources for the lecture planner: the bundled corpus or Tavily web search.

:class:`CorpusResearch` ranks the Markdown files of ``data/corpus`` with BM25
(``bm25s``). The index is built once per process and corpus folder, under a
lock, because the research tasks of one run start together in parallel.

Tokenisation (:func:`tokenize`) lowercases, splits on word characters and, for
words containing Hangul, adds the word's character bigrams. Korean glues
particles to nouns ("프로젝터가", "프로젝터는"), so whole-word matching alone
misses most Korean matches; bigrams ("프로", "로젝", "젝터") make them meet.

:class:`TavilyResearch` is used when ``TAVILY_API_KEY`` is set. The key is
handed to the Tavily client only; it never appears in ``describe()``, reprs,
errors or logs. A failed web search falls back to the corpus so that a run
never stops on a flaky network.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypedDict

from agents.settings_values import Secret

logger = logging.getLogger(__name__)

DEFAULT_CORPUS_DIR = Path(__file__).resolve().parents[2] / "data" / "corpus"
TAVILY_KEY_NAME = "TAVILY_API_KEY"
# Results scoring under this share of the best one only share a common word
# with the query; they would add noise to the research summary.
MIN_RELATIVE_SCORE = 0.3

_WORD = re.compile(r"\w+")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
# Function words that match everywhere and only add noise to short queries.
_STOPWORDS = frozenset(
    "a an and are as at be by for from how in into is it of on or that the this to "
    "with what when why your you we our".split()
)


class SourceDocument(TypedDict):
    """One research document: a title, its text and where it came from.

    ``source`` is a repository-relative path for corpus files and a URL for
    web results.
    """

    title: str
    text: str
    source: str


class ResearchSource(Protocol):
    """Anything that finds documents for a query."""

    def search(self, query: str, k: int = 3) -> list[SourceDocument]:
        """Returns at most ``k`` documents, most relevant first."""
        ...

    def describe(self) -> str:
        """Names the source for people (never a key)."""
        ...


class ResearchError(RuntimeError):
    """A research source failed (network, quota, malformed answer)."""


def tokenize(text: str) -> list[str]:
    """Splits text into search tokens for Korean and English alike.

    Returns:
        Lowercased word tokens without English stopwords, plus the character
        bigrams of every word that contains Hangul.
    """
    tokens: list[str] = []
    for word in _WORD.findall(text.lower()):
        if word in _STOPWORDS or (len(word) == 1 and not _HANGUL.search(word)):
            continue
        tokens.append(word)
        if _HANGUL.search(word) and len(word) > 2:
            tokens.extend(word[i : i + 2] for i in range(len(word) - 1))
    return tokens


def read_corpus(corpus_dir: Path) -> list[SourceDocument]:
    """Reads every ``*.md`` file of a folder, sorted by name, title from ``# ``."""
    documents: list[SourceDocument] = []
    for path in sorted(corpus_dir.glob("*.md")):
        text = path.read_text(encoding="utf-8").strip()
        first_line, _, body = text.partition("\n")
        title = first_line.lstrip("#").strip() if first_line.startswith("#") else path.stem
        source = _display_path(path)
        documents.append(SourceDocument(title=title, text=body.strip(), source=source))
    return documents


def _display_path(path: Path) -> str:
    """A path relative to the project root when possible (stable across machines)."""
    try:
        return path.resolve().relative_to(DEFAULT_CORPUS_DIR.parents[1]).as_posix()
    except ValueError:
        return path.as_posix()


@dataclass(frozen=True)
class _CorpusIndex:
    documents: tuple[SourceDocument, ...]
    retriever: Any
    vocabulary: frozenset[str]


_INDEX_CACHE: dict[Path, _CorpusIndex] = {}
_INDEX_LOCK = threading.Lock()


def _corpus_index(corpus_dir: Path) -> _CorpusIndex:
    """Builds (once per process and folder) the BM25 index of a corpus folder."""
    key = corpus_dir.resolve()
    with _INDEX_LOCK:
        cached = _INDEX_CACHE.get(key)
        if cached is not None:
            return cached
        import bm25s  # loaded already, by CorpusResearch()

        documents = read_corpus(key)
        if not documents:
            raise ResearchError(f"the research corpus {key} has no .md files")
        tokenized = [tokenize(f"{doc['title']} {doc['title']} {doc['text']}") for doc in documents]
        retriever = bm25s.BM25()
        retriever.index(tokenized, show_progress=False)
        vocabulary = frozenset(token for tokens in tokenized for token in tokens)
        index = _CorpusIndex(tuple(documents), retriever, vocabulary)
        _INDEX_CACHE[key] = index
        return index


class CorpusResearch:
    """BM25 search over the bundled Markdown corpus (offline).

    Args:
        corpus_dir: The folder of ``*.md`` files; defaults to ``data/corpus``.
    """

    def __init__(self, corpus_dir: Path | str = DEFAULT_CORPUS_DIR) -> None:
        self.corpus_dir = Path(corpus_dir)
        # Loaded with the graph, not by the first search: the searches run in parallel, and while one
        # of them imports numpy, LangGraph cannot save another one's error (its serializer looks numpy
        # up in sys.modules and finds it half made), so the thread would read "stopped", not "failed".
        import bm25s  # noqa: F401

    def search(self, query: str, k: int = 3) -> list[SourceDocument]:
        """Returns up to ``k`` corpus documents that share terms with the query."""
        if k < 1:
            return []
        index = _corpus_index(self.corpus_dir)
        # bm25s scores unknown tokens as nothing; dropping them keeps an
        # all-unknown query from returning arbitrary zero-score documents.
        query_tokens = [token for token in tokenize(query) if token in index.vocabulary]
        if not query_tokens:
            return []
        limit = min(k, len(index.documents))
        ids, scores = index.retriever.retrieve([query_tokens], k=limit, show_progress=False)
        floor = float(scores[0][0]) * MIN_RELATIVE_SCORE
        return [
            SourceDocument(**index.documents[int(doc_id)])  # a copy: callers may mutate it
            for doc_id, score in zip(ids[0], scores[0], strict=True)
            if float(score) > 0.0 and float(score) >= floor
        ]

    def describe(self) -> str:
        """Names the source and its size."""
        count = len(read_corpus(self.corpus_dir))
        return f"Bundled corpus ({count} documents, BM25, offline)"


class TavilyResearch:
    """Web search through ``langchain_tavily.TavilySearch``.

    Args:
        api_key: The Tavily key; kept inside the Tavily client only.
        max_results: How many results one call asks Tavily for.
        fallback: Used when a web search fails; ``None`` re-raises instead.
        tool: A ready search tool (tests inject a fake one); built from the key
            when omitted.
    """

    def __init__(
        self,
        api_key: str,
        *,
        max_results: int = 5,
        fallback: ResearchSource | None = None,
        tool: Any | None = None,
    ) -> None:
        if tool is None:
            from langchain_tavily import TavilySearch

            tool = TavilySearch(max_results=max_results, tavily_api_key=api_key)
        self._tool = tool
        self._fallback = fallback

    def __repr__(self) -> str:
        return f"TavilyResearch(fallback={self._fallback!r})"

    def search(self, query: str, k: int = 3) -> list[SourceDocument]:
        """Returns up to ``k`` web results; on failure, the fallback's results."""
        try:
            answer = self._tool.invoke({"query": query})
        except Exception as error:  # the tool raises ToolException on "no results"
            return self._recover(query, k, type(error).__name__)
        if not isinstance(answer, dict) or "error" in answer:
            reason = type(answer.get("error")).__name__ if isinstance(answer, dict) else "bad answer"
            return self._recover(query, k, reason)
        return [
            SourceDocument(
                title=str(item.get("title") or item.get("url") or "untitled"),
                text=str(item.get("content") or ""),
                source=str(item.get("url") or "tavily"),
            )
            for item in answer.get("results", [])[:k]
        ]

    def _recover(self, query: str, k: int, reason: str) -> list[SourceDocument]:
        # Only the error type is logged: messages from HTTP clients can echo headers.
        if self._fallback is None:
            raise ResearchError(f"Tavily search failed ({reason})")
        logger.warning("Tavily search failed (%s); using %s", reason, self._fallback.describe())
        return self._fallback.search(query, k)

    def describe(self) -> str:
        """Names the source (never the key)."""
        return "Tavily web search (falls back to the bundled corpus on errors)"


def research_source(tavily_key: Secret | None) -> ResearchSource:
    """Tavily with a key (``TAVILY_API_KEY``), falling back to the corpus; the bundled corpus without."""
    corpus = CorpusResearch()
    if tavily_key is not None:
        return TavilyResearch(tavily_key.reveal(), fallback=corpus)
    return corpus


def query_for(subtopic_title: str) -> str:
    """The search query for one subtopic: its title alone.

    The lecture topic is left out on purpose: it is the same for every
    subtopic, so its words ("업무", "AI") would pull every subtopic towards
    the same generic documents.
    """
    return subtopic_title.strip()
