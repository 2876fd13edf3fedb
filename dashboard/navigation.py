"""The dashboard's pages, in navigation order: home, one page per registered agent, the tools.

A page's title in the navigation carries how many of its items are overdue (``Refund · 3 overdue``;
home counts every agent's), so a deadline passed is seen from any page.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from agents import lifecycle
from agents.registry import AGENTS


@dataclass(frozen=True)
class PageEntry:
    """A page: its script, its title's string key, icon and URL path."""

    path: str
    title_key: str
    icon: str
    url_path: str


HOME = PageEntry("app_pages/home.py", "nav.home", ":material/home:", "home")
TOOLS = (
    PageEntry("app_pages/explorer.py", "nav.explorer", ":material/account_tree:", "explorer"),
    PageEntry("app_pages/timeline.py", "nav.timeline", ":material/timeline:", "timeline"),
)


def pages() -> tuple[PageEntry, ...]:
    """Home, then each registered agent's page (``AgentSpec.show.page``), then the explorer and timeline."""
    agent_pages = tuple(
        PageEntry(page.path, f"nav.{name}", page.icon, page.url_path)
        for name, page in ((spec.name, spec.show.page) for spec in AGENTS.values())
    )
    return (HOME, *agent_pages, *TOOLS)


def overdue_counts(
    items: Sequence[lifecycle.ThreadStatus], deadlines: Mapping[str, int], now: dt.datetime
) -> Counter[str]:
    """How many items are past their deadline, per page URL path (home: all of them)."""
    counts: Counter[str] = Counter()
    for item in lifecycle.overdue(list(items), deadlines, now):
        spec = AGENTS.get(item.agent)
        counts[HOME.url_path] += 1
        if spec is not None:
            counts[spec.show.page.url_path] += 1
    return counts


def page_counts(by_agent: Mapping[str, int]) -> Counter[str]:
    """Counts per agent as counts per page URL path (home: all of them)."""
    counts: Counter[str] = Counter()
    for agent, count in by_agent.items():
        spec = AGENTS.get(agent)
        counts[HOME.url_path] += count
        if spec is not None:
            counts[spec.show.page.url_path] += count
    return counts


def nav_title(title: str, overdue: int, overdue_words: str) -> str:
    """A page's navigation title, with its overdue count when it has any: ``Refund · 3 overdue``."""
    return f"{title} · {overdue_words}" if overdue else title
