"""Schedule tables: the writer lays out each day, the reviewers read the tables back from Markdown.

Writing (:func:`build_schedule`): sessions of at most 90 minutes with
10-minute breaks between them, a 60-minute lunch on a day over four hours,
09:00 onwards. Reading (:func:`parse_schedule`) finds every table whose
header names a start and an end column, so a reviewer checks the draft's
text, not what the writer remembers.

The demo's deliberate flaw: the *first* draft (round 1, no reviewer feedback)
plans the first two sessions of day 1 as a 120-minute lecture-only block plus
a shortened second session, the way a hurried writer would. The
``time_allocation`` reviewer finds a session over 90 minutes (score 50) and
the ``difficulty`` reviewer, for beginners, a lecture-only block over 60
minutes (score 75), so the combined score (75) fails the gate of 80 and the
human gate is shown. A revision that receives the feedback (rework) writes the
regular schedule (two 85-minute sessions with a break) and lists every
addressed feedback item and the human's notes, so the next review passes.
Courses whose first block is 90 minutes or shorter have nowhere to hide the
flaw and are written correctly at once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from agents.lecture.duration import TeachingDays
from agents.lecture.model.strings import FORMATS, TEXT
from agents.lecture.model.words import plain_text
from agents.lecture.prompts import LUNCH_MINUTES, MAX_SESSION_MINUTES, Language

BREAK_MINUTES = 10
HALF_DAY_MINUTES = 240
DAY_START = 9 * 60
FLAW_SESSION_MINUTES = 120

_PRACTICE = re.compile(r"실습|practice|hands-on|exercise|워크숍|workshop", re.I)
_LECTURE = re.compile(r"강의|설명|lecture|talk|presentation", re.I)
_LUNCH = re.compile(r"점심|lunch", re.I)
_BREAK = re.compile(r"휴식|쉬는|\bbreak\b|coffee|티타임", re.I)
_TIME = re.compile(r"(\d{1,2}):(\d{2})")


def clock(minutes: int) -> str:
    """``HH:MM`` of a time given in minutes after midnight."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def table_cell(text: str) -> str:
    """Table cell text: a pipe would split the cell, so it becomes a slash."""
    return text.replace("|", "/").replace("\n", " ").strip()


def format_share(format_text: str) -> float:
    """Share of a session spent practising, read from its format cell."""
    practice = bool(_PRACTICE.search(format_text))
    lecture = bool(_LECTURE.search(format_text))
    if practice and lecture:
        return 0.5
    return 1.0 if practice else 0.0


# ---------------------------------------------------------------------------
# Writing a schedule
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ScheduleRow:
    """One row of a schedule table.

    Attributes:
        start: Start, in minutes after midnight.
        end: End, in minutes after midnight.
        label: The session cell.
        format: The format cell as written.
        kind: ``session``, ``break`` or ``lunch``.
        stated_minutes: The minutes column, if the table has one.
    """

    start: int
    end: int
    label: str
    format: str
    kind: str
    stated_minutes: int | None = None

    @property
    def minutes(self) -> int:
        """Length from the times (the times win over the minutes column)."""
        return self.end - self.start

    @property
    def practice_share(self) -> float:
        """Share of the row spent practising (0 for breaks and lunch)."""
        return format_share(self.format) if self.kind == "session" else 0.0


def _split_block(block: int, minimum_sessions: int) -> list[int]:
    """Splits a block into sessions of at most 90 minutes, 10-minute breaks between."""
    count = max(minimum_sessions, 1)
    while (block - BREAK_MINUTES * (count - 1)) / count > MAX_SESSION_MINUTES:
        count += 1
    teaching = block - BREAK_MINUTES * (count - 1)
    base = teaching // count // 5 * 5
    lengths = [base] * count
    extra = teaching - base * count
    index = 0
    while extra >= 5:  # hand out whole 5-minute steps, earliest sessions first
        lengths[index % count] += 5
        extra -= 5
        index += 1
    lengths[-1] += extra
    return lengths


def day_layout(minutes: int) -> list[tuple[str, int]]:
    """The (kind, minutes) sequence of one day: sessions, breaks and lunch.

    A day over four hours gets a lunch after the first 3/8 of its teaching
    time (09:00-12:00 for 480 minutes) and at least two sessions per half,
    so that each half has a break.
    """
    if minutes > HALF_DAY_MINUTES:
        morning = round(minutes * 3 / 8 / 10) * 10
        blocks = [morning, minutes - morning]
    else:
        blocks = [minutes]
    layout: list[tuple[str, int]] = []
    for block_index, block in enumerate(blocks):
        if block_index:
            layout.append(("lunch", LUNCH_MINUTES))
        for session_index, length in enumerate(_split_block(block, 2 if len(blocks) > 1 else 1)):
            if session_index:
                layout.append(("break", BREAK_MINUTES))
            layout.append(("session", length))
    return layout


def _plant_flaw(layout: list[tuple[str, int]]) -> tuple[list[tuple[str, int]], bool]:
    """Makes the first session of a day 120 minutes long (the demo's first-draft flaw).

    Returns the layout and whether a flaw could be planted: the first block
    needs two sessions; when they cannot make room for 120 + 30 minutes they
    merge with their break into one over-long session instead.
    """
    if len(layout) < 3 or [kind for kind, _ in layout[:3]] != ["session", "break", "session"]:
        return layout, False
    first, second = layout[0][1], layout[2][1]
    if first + second >= FLAW_SESSION_MINUTES + 30:
        flawed = [("session", FLAW_SESSION_MINUTES), layout[1], ("session", first + second - FLAW_SESSION_MINUTES)]
        return flawed + layout[3:], True
    merged = first + BREAK_MINUTES + second
    if merged <= MAX_SESSION_MINUTES:
        return layout, False
    return [("session", merged)] + layout[3:], True


@dataclass(frozen=True)
class _Item:
    """What a session slot teaches: a subtopic (by id) or the closing wrap-up."""

    label: str
    format_key: str
    subtopic_id: str | None


def _session_items(slots: int, subtopics: Sequence[Mapping[str, str]], lang: Language) -> list[_Item]:
    """Assigns the session slots to subtopics, a wrap-up, or merged subtopics."""

    def item_of(sub: Mapping[str, str], suffix: str = "") -> _Item:
        key = "practice" if _PRACTICE.search(sub["title"]) else "mixed"
        return _Item(f"{sub['id']}. {sub['title']}{suffix}", key, sub["id"])

    if slots < len(subtopics):  # short course: several subtopics share a slot
        bounds = [round(i * len(subtopics) / slots) for i in range(slots + 1)]
        groups = [subtopics[bounds[i] : bounds[i + 1]] for i in range(slots)]
        return [
            _Item(" / ".join(f"{sub['id']}. {sub['title']}" for sub in group), "mixed", group[0]["id"])
            for group in groups
        ]
    wrap = [_Item(TEXT[lang]["wrap"], "practice", None)] if slots > len(subtopics) else []
    spare = slots - len(subtopics) - len(wrap)
    # Spare slots go to hands-on subtopics first: practice needs the time most.
    ranked = sorted(subtopics, key=lambda sub: not _PRACTICE.search(sub["title"]))
    parts = {sub["id"]: 1 for sub in subtopics}
    for index in range(spare):
        parts[ranked[index % len(ranked)]["id"]] += 1
    items: list[_Item] = []
    for sub in subtopics:
        count = parts[sub["id"]]
        items += [item_of(sub, f" ({n}/{count})" if count > 1 else "") for n in range(1, count + 1)]
    return items + wrap


def build_schedule(
    days: TeachingDays, subtopics: Sequence[Mapping[str, str]], lang: Language, *, plant_flaw: bool
) -> list[list[ScheduleRow]]:
    """Writes the schedule rows of every day, 09:00 onwards.

    Args:
        days: Teaching minutes per day.
        subtopics: The plan (``id``, ``title``).
        lang: Output language.
        plant_flaw: Make the first-draft flaw (see the module docstring).
    """
    layouts = [day_layout(minutes) for minutes in days.day_minutes]
    flawed = False
    if plant_flaw:
        layouts[0], flawed = _plant_flaw(layouts[0])
    slots = sum(kind == "session" for layout in layouts for kind, _ in layout)
    items = iter(_session_items(slots, subtopics, lang))
    formats = FORMATS[lang]
    schedule: list[list[ScheduleRow]] = []
    for day_index, layout in enumerate(layouts):
        start = DAY_START
        rows: list[ScheduleRow] = []
        for kind, minutes in layout:
            if kind == "session":
                item = next(items)
                lecture_only = flawed and day_index == 0 and not rows
                format_key = "lecture" if lecture_only else item.format_key
                rows.append(ScheduleRow(start, start + minutes, item.label, formats[format_key], kind, minutes))
            else:
                rows.append(ScheduleRow(start, start + minutes, formats[kind], formats[kind], kind, minutes))
            start += minutes
        schedule.append(rows)
    return schedule


# ---------------------------------------------------------------------------
# Reading a schedule back
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ScheduleTable:
    """One parsed schedule table (one day).

    Attributes:
        rows: The rows whose times could be read, in table order.
        unreadable_rows: Rows skipped because their times could not be read.
    """

    rows: tuple[ScheduleRow, ...]
    unreadable_rows: int = 0


_COLUMN_PATTERNS = {
    "start": re.compile(r"^(시작|start|from)", re.I),
    "end": re.compile(r"^(종료|끝|end|until|to$)", re.I),
    "minutes": re.compile(r"^(분|소요|minutes?|mins?|duration)", re.I),
    "session": re.compile(r"(세션|내용|주제|session|topic|activity)", re.I),
    "format": re.compile(r"(형식|방식|유형|format|type|mode)", re.I),
}


def _markdown_tables(markdown: str) -> list[list[list[str]]]:
    """Splits Markdown into tables: lists of rows of cells, separator rows dropped."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in markdown.splitlines() + [""]:
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = [plain_text(cell.strip()) for cell in stripped.strip("|").split("|")]  # as a reader sees it
            if not all(re.fullmatch(r":?-{2,}:?", cell) for cell in cells if cell):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


def _columns(header: list[str]) -> dict[str, int]:
    columns: dict[str, int] = {}
    for name, pattern in _COLUMN_PATTERNS.items():
        for index, cell in enumerate(header):
            if pattern.search(cell) and index not in columns.values():
                columns[name] = index
                break
    return columns


def _row_kind(format_text: str, label: str) -> str:
    text = format_text or label
    if _LUNCH.search(text):
        return "lunch"
    if _BREAK.search(text):
        return "break"
    return "session"


def _parse_row(cells: list[str], columns: dict[str, int]) -> ScheduleRow | None:
    def cell(name: str) -> str:
        index = columns.get(name)
        return cells[index] if index is not None and index < len(cells) else ""

    start, end = _TIME.search(cell("start")), _TIME.search(cell("end"))
    if not start or not end:
        return None
    start_minutes = int(start.group(1)) * 60 + int(start.group(2))
    end_minutes = int(end.group(1)) * 60 + int(end.group(2))
    if end_minutes < start_minutes:
        return None
    stated = re.search(r"\d+", cell("minutes"))
    label, format_text = cell("session"), cell("format")
    kind = _row_kind(format_text, label)
    stated_minutes = int(stated.group()) if stated else None
    return ScheduleRow(start_minutes, end_minutes, label, format_text or label, kind, stated_minutes)


def parse_schedule(markdown: str) -> list[ScheduleTable]:
    """Reads every schedule table (one per day) out of a Markdown draft.

    A table counts as a schedule when its header names a start and an end
    column (Korean or English). Times are ``H:MM`` or ``HH:MM``.
    """
    tables: list[ScheduleTable] = []
    for table in _markdown_tables(markdown):
        columns = _columns(table[0])
        if "start" not in columns or "end" not in columns:
            continue
        rows = [_parse_row(cells, columns) for cells in table[1:]]
        readable = tuple(row for row in rows if row is not None)
        tables.append(ScheduleTable(readable, len(rows) - len(readable)))
    return tables
