"""The lecture plan outside the graph's steps: human plan edits and the saved Markdown file.

Plan edits (:func:`apply_plan_edit`) follow one discipline: a subtopic that was
researched is never silently redefined. Its id, title and description stay as
they were; a request that changes them under the same id is refused, and the
human removes it and adds a new subtopic instead. New subtopics get fresh ids
(``s6``, ``s7`` ...) that were never used in the thread, so an old research
result can never attach to a different subtopic.

Saved plans (:func:`save_plan_file`) go to ``<database folder>/plans/<thread id>.md``:
next to the database they belong to (``data/plans/`` for the default
``data/checkpoints.sqlite``), one file per thread, never a shared file name.
A test's temporary database therefore gets its own temporary plans folder.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from agents.db import is_postgres_url
from agents.errors import InputError
from agents.lecture.state import MAX_SUBTOPICS, MIN_SUBTOPICS, Subtopic
from agents.lecture.strings import STRINGS
from agents.settings import DEFAULT_DB_PATH
from agents.texts import text
from agents.validation import validate_text, validate_thread_id

PLANS_FOLDER = "plans"
TITLE_MAX_LENGTH = 120
DESCRIPTION_MAX_LENGTH = 500


class PlanEditError(InputError):
    """A plan edit that cannot be applied (the field is always ``subtopics``)."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__("subtopics", text(STRINGS, f"lecture.error.{key}", **params))


def _requested_item(item: Any, position: int) -> dict[str, str | None]:
    """One requested subtopic as ``{id, title, description}`` (``None`` = not given)."""
    if isinstance(item, str):
        item = {"title": item}
    if not isinstance(item, Mapping):
        raise PlanEditError("plan_item", position=position)
    unknown = sorted(set(item) - {"id", "title", "description"})
    if unknown:
        raise PlanEditError("plan_item_key", position=position, key=repr(unknown[0]))
    subtopic_id = item.get("id")
    description = item.get("description")
    return {
        "id": None if subtopic_id in (None, "") else str(subtopic_id).strip(),
        "title": validate_text(item.get("title"), f"subtopics[{position}].title", max_length=TITLE_MAX_LENGTH),
        "description": None
        if description is None
        else (
            ""
            if isinstance(description, str) and not description.strip()
            else validate_text(
                description, f"subtopics[{position}].description", max_length=DESCRIPTION_MAX_LENGTH, multiline=True
            )
        ),
    }


def requested_items(requested: Any) -> list[dict[str, str | None]]:
    """The checks of a requested plan that need no plan: its shape, each item, repeats and the count.

    Run on every answer before anything is written (``agents.lecture.answers.check_answer``), so a
    plan edit that no plan could take is refused on every path, the pause itself included.

    Raises:
        PlanEditError: Not a list; an item that is neither a title nor ``{id?, title, description?}``;
            a title or an id given twice; fewer than 3 or more than 5 subtopics.
    """
    if not isinstance(requested, list):
        raise PlanEditError("plan_list")
    items = [_requested_item(raw, position) for position, raw in enumerate(requested)]
    seen_titles: set[str] = set()
    seen_ids: set[str] = set()
    for item in items:
        title, subtopic_id = str(item["title"]), item["id"]
        if title.casefold() in seen_titles:
            raise PlanEditError("plan_title_twice", title=repr(title))
        seen_titles.add(title.casefold())
        if subtopic_id is not None:
            if subtopic_id in seen_ids:
                raise PlanEditError("plan_id_twice", id=repr(subtopic_id))
            seen_ids.add(subtopic_id)
    if not MIN_SUBTOPICS <= len(items) <= MAX_SUBTOPICS:
        raise PlanEditError("plan_count", minimum=MIN_SUBTOPICS, maximum=MAX_SUBTOPICS, count=len(items))
    return items


def apply_plan_edit(
    current: Sequence[Subtopic],
    researched_ids: Iterable[str],
    requested: Any,
    next_number: int,
) -> tuple[list[Subtopic], int]:
    """Applies a human's edit of the plan: the new list, in the new order.

    An item with an ``id`` keeps that subtopic (renamed if its title differs,
    which is allowed only while it has no research); an item without one adds
    a subtopic; a subtopic left out is removed.

    Args:
        current: The plan now.
        researched_ids: Ids of subtopics that already have a research result.
        requested: The new list: objects ``{id?, title, description?}`` or titles.
        next_number: The number the next new id gets (``s<next_number>``).

    Returns:
        The new plan and the next free id number.

    Raises:
        PlanEditError: Not a list; an unknown or repeated id; a researched
            subtopic redefined; repeated titles; fewer than 3 or more than 5
            subtopics; an edit that changes nothing.
    """
    by_id = {subtopic["id"]: subtopic for subtopic in current}
    researched = set(researched_ids)
    plan: list[Subtopic] = []
    for item in requested_items(requested):
        title = str(item["title"])
        if item["id"] is None:
            description = item["description"] or ""
            plan.append(Subtopic(id=f"s{next_number}", title=title, description=description))
            next_number += 1
            continue
        subtopic_id = str(item["id"])
        if subtopic_id not in by_id:
            raise PlanEditError("plan_unknown_id", id=repr(subtopic_id))
        old = by_id[subtopic_id]
        description = old["description"] if item["description"] is None else str(item["description"])
        changed = title != old["title"] or description != old["description"]
        if changed and subtopic_id in researched:
            raise PlanEditError("plan_researched", id=subtopic_id, title=repr(old["title"]))
        plan.append(Subtopic(id=subtopic_id, title=title, description=description))
    if plan == list(current):
        raise PlanEditError("plan_unchanged")
    return plan, next_number


def plans_dir_for(db_path: str | Path) -> Path:
    """The folder of saved plans: ``<the database file's folder>/plans``, or ``data/plans``
    for a PostgreSQL database (plans are files, local to each replica)."""
    if is_postgres_url(db_path):
        return DEFAULT_DB_PATH.parent / PLANS_FOLDER
    return Path(db_path).resolve().parent / PLANS_FOLDER


def plan_file_path(plans_dir: str | Path, thread_id: str) -> Path:
    """The Markdown file of one thread's plan (the thread id is validated: no slashes)."""
    return Path(plans_dir) / f"{validate_thread_id(thread_id)}.md"


def save_plan_file(plans_dir: str | Path, thread_id: str, markdown: str) -> Path:
    """Writes the plan atomically (a temp file, then a rename) and returns its path.

    Saving again (a re-run of ``save``) replaces the same thread's file and
    touches no other thread's.
    """
    path = plan_file_path(plans_dir, thread_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(markdown, encoding="utf-8")
    temporary.replace(path)
    return path
