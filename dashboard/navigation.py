"""The dashboard's pages, in navigation order: home, one page per registered agent, the tools."""

from __future__ import annotations

from dataclasses import dataclass

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
    """Home, then each registered agent's page (``AgentSpec.page``), then the explorer and timeline."""
    agent_pages = tuple(
        PageEntry(spec.page.path, f"nav.{spec.name}", spec.page.icon, spec.page.url_path) for spec in AGENTS.values()
    )
    return (HOME, *agent_pages, *TOOLS)
