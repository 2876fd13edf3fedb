"""Reading the model's answers into the planner's typed data.

The same parsers read Gemini's answers and the embedded model's, so both go
through one code path. An answer that cannot be read raises
:class:`~agents.lecture.prompts.ModelOutputError`: our fault or the model's,
so it stays loud.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from agents.lecture.plans import TITLE_MAX_LENGTH
from agents.lecture.prompts import ModelOutputError, extract_json
from agents.lecture.research import SourceDocument
from agents.lecture.state import MAX_SUBTOPICS, MIN_SUBTOPICS, ResearchResult, Review, Subtopic


def _text_list(value: Any) -> list[str]:
    """A list of non-empty strings from a string, a list, or nothing."""
    if value is None:
        return []
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return [str(item).strip() for item in items if str(item).strip()]


def shortened(title: str, limit: int) -> str:
    """``title`` if it fits in ``limit`` characters, else cut at the last space that lets "…" fit after it.

    A single word longer than the line is cut inside it (nothing else would fit); spaces and the
    punctuation that joined the next word (``,`` ``;`` ``:``) are not left before the "…".
    """
    if len(title) <= limit:
        return title
    head = title[: limit - 1]
    if not title[limit - 1].isspace():  # the cut falls inside a word: drop that word's start
        space = re.search(r"\s\S*$", head)
        if space is not None and space.start() > 0:
            head = head[: space.start()]
    return head.rstrip().rstrip(",;:").rstrip() + "…"


def parse_plan(answer: str) -> list[Subtopic]:
    """Reads 3 to 5 subtopics from a model answer and numbers them ``s1`` ...

    More than five are cut to the first five (a model that over-delivers
    still gives a usable plan); a title over 120 characters (what a plan edit
    takes) is cut at a word, with "…" (:func:`shortened`); fewer than three, or duplicates that leave
    fewer than three, are an error.

    Raises:
        ModelOutputError: Not a plan of at least three titled subtopics.
    """
    data = extract_json(answer)
    items = data.get("subtopics") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ModelOutputError("the plan must be a JSON list of subtopics (or {'subtopics': [...]})")
    subtopics: list[Subtopic] = []
    seen: set[str] = set()
    for item in items:
        entry = item if isinstance(item, dict) else {"title": item}
        title = shortened(str(entry.get("title") or "").strip(), TITLE_MAX_LENGTH)
        if not title or title.casefold() in seen:
            continue
        seen.add(title.casefold())
        description = str(entry.get("description") or entry.get("definition") or "").strip()
        subtopics.append(Subtopic(id=f"s{len(subtopics) + 1}", title=title, description=description))
    if len(subtopics) < MIN_SUBTOPICS:
        raise ModelOutputError(f"the plan has {len(subtopics)} usable subtopics; at least {MIN_SUBTOPICS} are needed")
    return subtopics[:MAX_SUBTOPICS]


def parse_research(answer: str, subtopic_id: str, documents: Sequence[SourceDocument]) -> ResearchResult:
    """Reads a research summary; sources the documents do not contain are dropped.

    Raises:
        ModelOutputError: Not a JSON object with a summary.
    """
    data = extract_json(answer)
    if not isinstance(data, dict) or not str(data.get("summary") or "").strip():
        raise ModelOutputError("a research summary must be a JSON object with a non-empty 'summary'")
    known = {document["source"] for document in documents}
    # A model can invent a plausible URL; only sources we handed it are kept.
    sources = [source for source in _text_list(data.get("sources")) if source in known]
    return ResearchResult(
        subtopic_id=subtopic_id,
        summary=str(data["summary"]).strip(),
        key_points=_text_list(data.get("key_points")),
        sources=list(dict.fromkeys(sources)),
    )


def parse_draft(answer: str) -> str:
    """Returns the Markdown draft, unwrapped from a whole-document code fence.

    Raises:
        ModelOutputError: The answer is empty.
    """
    text = answer.strip()
    fenced = re.fullmatch(r"```(?:markdown|md)?\s*\n(.*)\n```", text, re.DOTALL)
    if fenced:
        text = fenced.group(1).strip()
    if not text:
        raise ModelOutputError("the model returned an empty draft")
    return text + "\n"


def parse_review(answer: str, reviewer: str) -> Review:
    """Reads a review; the score is rounded and clamped to 0-100.

    Raises:
        ModelOutputError: No numeric ``score``.
    """
    data = extract_json(answer)
    if not isinstance(data, dict):
        raise ModelOutputError(f"the {reviewer} review must be a JSON object")
    try:
        score = float(data["score"])
    except (KeyError, TypeError, ValueError):
        raise ModelOutputError(f"the {reviewer} review has no numeric 'score': {data.get('score')!r}") from None
    if not math.isfinite(score):
        raise ModelOutputError(f"the {reviewer} review score is not a finite number")
    clamped = max(0, min(100, math.floor(score + 0.5)))
    return Review(reviewer=reviewer, score=clamped, feedback=_text_list(data.get("feedback")))
