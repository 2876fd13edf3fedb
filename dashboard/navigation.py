"""The dashboard's pages, in navigation order."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageEntry:
    """A page: its script, its title's string key, icon and URL path."""

    path: str
    title_key: str
    icon: str
    url_path: str


PAGES: tuple[PageEntry, ...] = (
    PageEntry("app_pages/home.py", "nav.home", ":material/home:", "home"),
    PageEntry("app_pages/robot.py", "nav.robot", ":material/smart_toy:", "robot"),
    PageEntry("app_pages/refund.py", "nav.refund", ":material/currency_exchange:", "refund"),
    PageEntry("app_pages/lecture.py", "nav.lecture", ":material/school:", "lecture"),
    PageEntry("app_pages/explorer.py", "nav.explorer", ":material/account_tree:", "explorer"),
    PageEntry("app_pages/timeline.py", "nav.timeline", ":material/timeline:", "timeline"),
)
