"""The embedded model's writing: the plan, the research summaries and the Markdown draft."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from agents.lecture.duration import parse_duration
from agents.lecture.model.schedule import ScheduleRow, build_schedule, clock, format_share, table_cell
from agents.lecture.model.strings import FORMATS, GLOSSARY, TEXT, TOOL_DEFINITIONS
from agents.lecture.model.words import audience_level, markdown_text, mentions, split_items, split_tools
from agents.lecture.prompts import SCHEDULE_COLUMNS, Language, detect_language
from agents.lecture.research import tokenize

_AI_TOPIC = re.compile(r"\bai\b|인공지능|생성형|chatgpt|\bgpt|llm|프롬프트|prompt|gemini|copilot|claude", re.I)


def write_plan(lecture: Mapping[str, str], lang: Language) -> dict[str, Any]:
    """Plans 3 to 5 subtopics in teaching order from the six fields."""
    text = TEXT[lang]
    about_ai = bool(_AI_TOPIC.search(f"{lecture['topic']} {lecture['platform_tools']}"))
    values = {
        "topic": lecture["topic"],
        "audience": lecture["audience_level"],
        "constraints": lecture["constraints"],
    }
    keys = ["concepts_ai", "prompt"] if about_ai else ["concepts"]
    entries = [(text[key].format(**values), text[f"{key}_d"].format(**values)) for key in keys]
    for tool in split_tools(lecture["platform_tools"])[:2]:
        entries.append((text["tool"].format(tool=tool), text["tool_d"].format(tool=tool, **values)))
    closing = "safety" if about_ai else "pitfalls"
    entries.append((text[closing], text[f"{closing}_d"].format(**values)))
    if len(entries) < 5:
        entries.append((text["apply"], text["apply_d"]))
    return {"subtopics": [{"title": title, "description": description} for title, description in entries[:5]]}


def _sentences(text: str) -> list[str]:
    """Plain sentences of a Markdown text: headings dropped, list markers and emphasis stripped."""
    plain = re.sub(r"^\s*#.*$", "", text, flags=re.M)  # a heading is a label, not a statement
    plain = re.sub(r"^\s*([-*]|\d+\.)\s*", "", plain, flags=re.M)
    plain = re.sub(r"[*_`>]", "", plain)
    pieces = re.split(r"(?<=[.!?])\s+|\n+", plain)
    return [piece.strip() for piece in pieces if 20 <= len(piece.strip()) <= 300]


def _best_sentence(document: Mapping[str, str], query_tokens: set[str]) -> str | None:
    """The sentence sharing the most query terms (the earliest on a tie)."""
    best, best_score = None, -1
    for sentence in _sentences(document["text"]):
        score = len(query_tokens.intersection(tokenize(sentence)))
        if score > best_score:
            best, best_score = sentence, score
    return best


def write_research_summary(payload: Mapping[str, Any], lang: Language) -> dict[str, Any]:
    """Summarises the given documents for one subtopic: one key sentence per document."""
    text, subtopic = TEXT[lang], payload["subtopic"]
    query_tokens = set(tokenize(f"{subtopic['title']} {subtopic.get('description', '')}"))
    # Documents in the learners' language first: their sentences can be quoted as they are.
    documents = payload.get("documents", [])
    ordered = sorted(documents, key=lambda doc: detect_language(doc["title"] + doc["text"][:300]) != lang)
    points: list[str] = []
    sources: list[str] = []
    titles: list[str] = []
    for document in ordered[:3]:
        sentence = _best_sentence(document, query_tokens)
        if sentence and sentence not in points:
            points.append(sentence)
            sources.append(document["source"])
            titles.append(document["title"])
    if not points:
        return {"summary": text["summary_none"].format(title=subtopic["title"]), "key_points": [], "sources": []}
    summary = text["summary"].format(
        title=subtopic["title"], count=len(points), titles="; ".join(titles), points=len(points)
    )
    return {"summary": summary, "key_points": points, "sources": sources}


def _overview(lecture: Mapping[str, str], lang: Language) -> str:
    text = TEXT[lang]
    item, value = text["item_value"].split("|")
    names = text["fields"].split("|")
    keys = ("topic", "audience_level", "duration", "delivery_method", "platform_tools", "constraints")
    cells = [markdown_text(table_cell(lecture[key])) for key in keys]
    rows = "\n".join(f"| {name} | {cell} |" for name, cell in zip(names, cells, strict=True))
    return f"## {text['overview']}\n\n| {item} | {value} |\n| --- | --- |\n{rows}"


def _schedule_markdown(schedule: Sequence[Sequence[ScheduleRow]], lang: Language) -> str:
    text = TEXT[lang]
    header = "| " + " | ".join(SCHEDULE_COLUMNS[lang]) + " |\n|" + " --- |" * len(SCHEDULE_COLUMNS[lang])
    parts = []
    for day, rows in enumerate(schedule, start=1):
        body = "\n".join(
            f"| {clock(r.start)} | {clock(r.end)} | {r.minutes} | {markdown_text(table_cell(r.label))} | {r.format} |"
            for r in rows
        )
        sessions = sum(r.minutes for r in rows if r.kind == "session")
        breaks = sum(r.minutes for r in rows if r.kind == "break")
        lunch = sum(r.minutes for r in rows if r.kind == "lunch")
        lunch_note = text["lunch_note"].format(minutes=lunch) if lunch else ""
        total = text["day_total"].format(teaching=sessions + breaks, sessions=sessions, breaks=breaks, lunch=lunch_note)
        title = text["schedule"].format(day=day, start=clock(rows[0].start), end=clock(rows[-1].end))
        parts.append(f"## {title}\n\n{header}\n{body}\n\n{total}")
    return "\n\n".join(parts)


def _how(format_text: str, lang: Language) -> str:
    share = format_share(format_text)
    key = "how_practice" if share == 1 else "how_mixed" if share > 0 else "how_lecture"
    return TEXT[lang][key]


def _subtopic_section(
    subtopic: Mapping[str, str],
    rows: Sequence[tuple[int, ScheduleRow]],
    research: Mapping[str, Any] | None,
    tools: Sequence[str],
    lang: Language,
) -> str:
    """The details of one subtopic: when, how, the exercise and the evidence."""
    text = TEXT[lang]
    # The plan's titles and descriptions quote the user's fields (or are the user's own, edited): text, not Markdown.
    title, description = markdown_text(subtopic["title"]), markdown_text(subtopic.get("description", ""))
    lines = [f"### {subtopic['id']}. {title}", "", description, ""]
    for day, row in rows:
        when = text["slot"].format(
            day=day, start=clock(row.start), end=clock(row.end), minutes=row.minutes, format=row.format
        )
        lines.append(f"- {when}")
    lines.append("- " + _how(rows[0][1].format if rows else FORMATS[lang]["mixed"], lang))
    named = [tool for tool in tools if mentions(subtopic["title"], tool)]
    exercise = (
        text["task_tool"].format(tool=markdown_text(named[0]))
        if named
        else text["task_generic"].format(tools=markdown_text(", ".join(tools)))
    )
    lines.append("- " + exercise)
    if research and research.get("key_points"):
        lines.append("- " + text["evidence"].format(summary=markdown_text(research.get("summary", ""))))
        lines += [f"  - {markdown_text(point)}" for point in research["key_points"]]
        lines.append("  - " + text["sources"].format(sources=markdown_text(", ".join(research.get("sources", [])))))
    return "\n".join(lines)


def _details(payload: Mapping[str, Any], schedule: Sequence[Sequence[ScheduleRow]], lang: Language) -> str:
    text, lecture = TEXT[lang], payload["lecture"]
    tools = split_tools(lecture["platform_tools"])
    research = {result.get("subtopic_id"): result for result in payload.get("research", [])}
    slots = [(day, row) for day, rows in enumerate(schedule, start=1) for row in rows if row.kind == "session"]
    sections = [f"## {text['details']}"]
    for subtopic in payload["subtopics"]:
        own = [(day, row) for day, row in slots if _slot_teaches(row.label, subtopic["id"])]
        sections.append(_subtopic_section(subtopic, own, research.get(subtopic["id"]), tools, lang))
    if any(row.label == text["wrap"] for _, row in slots):
        wrap_rows = [(day, row) for day, row in slots if row.label == text["wrap"]]
        wrap = {"id": "+", "title": text["wrap"], "description": text["wrap_d"].format(tools=", ".join(tools))}
        sections.append(_subtopic_section(wrap, wrap_rows, None, tools, lang).replace("### +. ", "### ", 1))
    return "\n\n".join(sections)


def _slot_teaches(label: str, subtopic_id: str) -> bool:
    return re.search(rf"(^|/ ){re.escape(subtopic_id)}\. ", label) is not None


def _constraints_section(lecture: Mapping[str, str], lang: Language) -> str:
    text = TEXT[lang]
    tools = split_tools(lecture["platform_tools"])
    notion = [tool for tool in tools if "notion" in tool.lower()]
    where = f"{markdown_text(notion[0])} {text['shared_page']}" if notion else text["shared_page"]
    lines = [f"## {text['constraints']}", ""]
    for constraint in split_items(lecture["constraints"]):
        lowered = constraint.lower()
        if re.search(r"프로젝터|빔|projector|screen", lowered):
            answer = text["c_projector"].format(where=where)
        elif re.search(r"노트북|laptop|pc|컴퓨터", lowered):
            answer = text["c_laptop"]
        elif re.search(r"인터넷|와이파이|wi-?fi|internet|network|offline|오프라인", lowered):
            answer = text["c_network"]
        else:
            answer = text["c_generic"]
        lines.append(f"- **{markdown_text(constraint)}**: {answer}")
    return "\n".join(lines)


def _glossary(draft: str, lecture: Mapping[str, str], lang: Language) -> str:
    """A glossary of the tools and of every catalogued term the draft uses."""
    text = TEXT[lang]
    entries = []
    for tool in split_tools(lecture["platform_tools"]):
        definition = TOOL_DEFINITIONS.get(tool.lower(), {}).get(lang)
        if definition:
            entries.append(f"- **{markdown_text(tool)}**: {definition}")
    entries += [f"- **{term}**: {meaning}" for term, meaning in GLOSSARY[lang].items() if mentions(draft, term)]
    return f"## {text['glossary']}\n\n" + "\n".join(entries)


def _revision_section(payload: Mapping[str, Any], lang: Language) -> str:
    """What this revision addressed: every flagged review item and the human's notes."""
    text = TEXT[lang]
    lines = [f"## {text['revision'].format(round=payload.get('round', 1))}", ""]
    for review in payload.get("feedback") or []:
        if int(review.get("score", 100)) >= 100:
            continue  # a clean review flags nothing to address
        reviewer = text.get(f"reviewer_{review.get('reviewer')}", review.get("reviewer", "?"))
        items = [markdown_text(item) for item in review.get("feedback", [])]
        lines += [f"- {text['addressed'].format(reviewer=reviewer, item=item)}" for item in items]
    notes = (payload.get("human_notes") or "").strip()
    if notes:
        lines.append("- " + text["notes"].format(notes=markdown_text(notes)))
    return "\n".join(lines)


def write_draft_markdown(payload: Mapping[str, Any], lang: Language) -> str:
    """Writes the Markdown lecture plan; a first draft has the demo's flaw (see :mod:`.schedule`)."""
    text, lecture = TEXT[lang], payload["lecture"]
    first_draft = int(payload.get("round") or 1) <= 1 and not payload.get("feedback")
    schedule = build_schedule(parse_duration(lecture["duration"]), payload["subtopics"], lang, plant_flaw=first_draft)
    level = audience_level(lecture["audience_level"])
    objectives = "\n".join(
        f"{number}. {text['objective'].format(title=markdown_text(sub['title']))}"
        for number, sub in enumerate(payload["subtopics"], start=1)
    )
    tools = markdown_text(", ".join(split_tools(lecture["platform_tools"])))
    body = [  # the user's fields as text (markdown_text): "**AI**" is a topic of two asterisks, not a bold word
        f"# {text['doc_title'].format(topic=markdown_text(lecture['topic']))}",
        _overview(lecture, lang),
        f"## {text['objectives']}\n\n{objectives}",
        _schedule_markdown(schedule, lang),
        _details(payload, schedule, lang),
        f"## {text['assessment']}\n\n" + text["assess_beginner" if level == "beginner" else "assess_other"],
        _constraints_section(lecture, lang),
        f"## {text['materials']}\n\n" + text["materials_list"].format(tools=tools),
    ]
    revision = _revision_section(payload, lang) if payload.get("feedback") or payload.get("human_notes") else ""
    if level != "advanced":  # experts do not need the basics spelled out
        body.append(_glossary("\n\n".join(body + [revision]), lecture, lang))
    if revision:
        body.append(revision)
    return "\n\n".join(body) + "\n"
