"""The UI string catalogue: complete in both languages, no duplicates, keys in use exist."""

from __future__ import annotations

import re

from dashboard.i18n import catalogue, t
from dashboard.navigation import pages
from tests.conftest import PROJECT_ROOT


def test_every_string_has_english_and_korean():
    for key, (english, korean) in catalogue().items():
        assert english.strip() and korean.strip(), key


def test_placeholders_match_between_languages():
    for key, (english, korean) in catalogue().items():
        assert set(re.findall(r"{(\w+)", english)) == set(re.findall(r"{(\w+)", korean)), key


def test_every_literal_key_used_in_the_ui_exists():
    used = set()
    ui_sources = [
        PROJECT_ROOT / "streamlit_app.py",
        *PROJECT_ROOT.glob("app_pages/*.py"),
        *PROJECT_ROOT.glob("dashboard/*.py"),
    ]
    for path in ui_sources:
        used |= set(re.findall(r"""\bt\(\s*["']([\w.]+)["']""", path.read_text(encoding="utf-8")))
    missing = sorted(used - set(catalogue()))
    assert not missing


def test_navigation_titles_are_translated():
    for page in pages():
        assert t(page.title_key, lang="en") != t(page.title_key, lang="ko")


def test_no_text_box_counts_its_characters():
    # A Korean page hides the hint under a text box being typed in (dashboard.i18n.KOREAN_STYLE): English that
    # Streamlit writes. A box with max_chars would have its character counter in that place, hidden too.
    sources = [
        PROJECT_ROOT / "streamlit_app.py",
        *PROJECT_ROOT.glob("app_pages/*.py"),
        *PROJECT_ROOT.glob("dashboard/*.py"),
    ]
    assert not [path.name for path in sources if "max_chars" in path.read_text(encoding="utf-8")]
