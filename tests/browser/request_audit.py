"""The request audit: no page of the dashboard makes the browser ask anything of another origin.

Its parts (:data:`PARTS`) are three test files, ``tests/browser/test_request_audit*.py``, so that the
workers run them side by side (one file goes to one worker); each part plants what its pages link to on a
dashboard of its own, and ``test_the_parts_audit_every_page`` checks that together they visit every page.

Every page is visited in English and in Korean (the sidebar's language picker): bare, through
crafted ``?thread=`` links (a Markdown image, nested brackets, raw HTML, a bare domain), and through
links to threads whose text holds planted Markdown (images inline, by reference and with nested
brackets, links, autolinks, raw ``<img>``, a data: URL): a lecture's topic, audience, delivery and
constraints, a lecture draft edited through update_state, a plan-review refusal that quotes a
subtopic title, a refund's customer and reason, a robot's answer, all made through the CLI. Then
planted text is typed into the refund's amount and approver fields, the robot's free answer and the
lecture's thread id, so that refusals and confirmations quote it.

Every request of the browser context and every websocket is recorded from the first navigation on;
each must be on the dashboard's own origin (``127.0.0.1:<port>``, http and ws). The DOM is checked
after every visit as well (what a page points at, the browser's resource timing, no image or link
inside any Markdown block), so a fetch the network events might not show is caught too.
The planted URLs are on 127.0.0.1:9 (the discard port): another origin on this machine, refused at once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit

from playwright.sync_api import Locator, Page, expect

from dashboard.i18n import LANGUAGES, t
from tests.browser.conftest import ARTIFACTS, Dashboard

OUTSIDE = "http://127.0.0.1:9"
CRAFTED = {
    "image": f"![q]({OUTSIDE}/x.png)",
    "nested": f"![a[b]]({OUTSIDE}/nested.png)",
    "html": f'<img src="{OUTSIDE}/y.png">',
    "domain": "www.example.com",
}
#: For one-line fields (at most 200 characters).
PLANTED = (
    f"![p]({OUTSIDE}/p.png) ![a[b]]({OUTSIDE}/n.png) ![r][ref] <img src={OUTSIDE}/t.png> "
    f"[l]({OUTSIDE}/l) <{OUTSIDE}/auto> www.example.com"
)
#: For text areas (at most 500 characters): also a reference definition, a data: URL, an HTML block, e-mail.
PLANTED_BLOCK = (
    f"{PLANTED}\n\n[ref]: {OUTSIDE}/ref.png\n\n![d](data:image/png;base64,iVBORw0KGgo=)\n\n"
    f'<div><img src="{OUTSIDE}/block.png"></div>\n\nsomeone@example.com <someone@example.com>'
)
TITLES = {
    "home": "app.title",
    "robot": "robot.title",
    "refund": "refund.title",
    "lecture": "lecture.title",
    "explorer": "explorer.title",
    "timeline": "timeline.title",
}

#: What a page points at or has loaded, outside its origin; and any image or link inside Markdown.
DOM_AUDIT = """() => {
  const own = location.origin, found = [];
  const check = (where, value) => {
    if (!value) return;
    let url;
    try { url = new URL(value, document.baseURI); } catch (error) { found.push([where, value]); return; }
    // The page icon is an emoji drawn by an inline SVG (a data: URL), which fetches nothing.
    const inlineIcon = where === 'icon' && url.protocol === 'data:';
    if (url.origin !== own && !inlineIcon) found.push([where, url.href.slice(0, 160)]);
  };
  for (const el of document.querySelectorAll('img, source, video, audio, iframe, embed, track, script'))
    check(el.tagName.toLowerCase(), el.getAttribute('src'));
  for (const el of document.querySelectorAll('[srcset]')) found.push(['srcset', el.getAttribute('srcset')]);
  for (const el of document.querySelectorAll('link[href]'))
    check(el.matches('[rel~=icon]') ? 'icon' : 'link', el.getAttribute('href'));
  for (const el of document.querySelectorAll('a[href], area[href]')) check('a', el.getAttribute('href'));
  for (const el of document.querySelectorAll('object[data]')) check('object', el.getAttribute('data'));
  for (const el of document.querySelectorAll('video[poster]')) check('poster', el.getAttribute('poster'));
  for (const el of document.querySelectorAll('image, use'))
    check('svg', el.getAttribute('href') || el.getAttribute('xlink:href'));
  for (const entry of performance.getEntriesByType('resource')) check('resource', entry.name);
  const markdown = '[data-testid="stMarkdownContainer"]';
  for (const el of document.querySelectorAll(`${markdown} img, ${markdown} a[href]:not([href^="#"])`))
    found.push(['markdown ' + el.tagName.toLowerCase(), el.outerHTML.slice(0, 160)]);
  return found;
}"""


def _shown(text: str) -> re.Pattern[str]:
    """Planted text as the page shows it: literally, with an invisible word joiner (U+2060)
    where GFM would otherwise link it by itself (``http:⁠//``, ``www⁠.``, ``@⁠``)."""
    pattern = re.escape(text)
    for linkable, shown in ((":/", ":\u2060?/"), ("www\\.", "www\u2060?\\."), ("@", "@\u2060?")):
        pattern = pattern.replace(linkable, shown)
    return re.compile(pattern)


@dataclass
class Audit:
    """Every request and websocket of one browser context, each with the visit it happened in."""

    dashboard: Dashboard
    visit: str = "start"
    requests: list[tuple[str, str]] = field(default_factory=list)
    dom: list[tuple[str, str, str]] = field(default_factory=list)
    visits: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> None:
        page.context.on("request", lambda request: self.requests.append((self.visit, request.url)))
        page.on("websocket", lambda socket: self.requests.append((self.visit, socket.url)))

    def own(self, url: str) -> bool:
        served, asked = urlsplit(self.dashboard.url), urlsplit(url)
        return asked.scheme in ("http", "ws") and asked.hostname == served.hostname and asked.port == served.port

    def outside(self) -> list[tuple[str, str]]:
        return [(visit, url) for visit, url in self.requests if not self.own(url)]

    def check_dom(self, page: Page) -> None:
        self.dom += [(self.visit, where, what) for where, what in page.evaluate(DOM_AUDIT)]
        self.visits.append(self.visit)


def _settled(page: Page, heading: str) -> None:
    """Waits until the run that drew ``heading`` (a title only this run draws) has ended.

    The title is drawn early in a run; once it is there, the app's script state turns to
    ``notRunning`` only when that run is over, and the previous run's elements are gone. The
    first wait uses the page's default timeout: the first run in a fresh server imports the agents.
    """
    page.get_by_test_id("stMain").get_by_role("heading", name=heading, exact=True).wait_for()
    page.locator("[data-testid='stApp'][data-test-script-state='notRunning']").wait_for()
    expect(page.locator("[data-testid='stElementContainer'][data-stale='true']")).to_have_count(0)


def _to_korean(page: Page) -> None:
    picker = page.get_by_test_id("stSidebar").get_by_role("combobox", name=t("app.language", "en"), exact=True)
    picker.evaluate("element => element.scrollIntoView({block: 'center'})")  # see test_place_kept_flow
    picker.click()
    expect(picker).to_have_attribute("aria-expanded", "true")
    page.get_by_role("option", name=LANGUAGES["ko"], exact=True).click()


def _visit(page: Page, audit: Audit, path: str, thread: str | None, proof: str | None) -> None:
    """Opens ``path`` (with ``?thread=``), in English and then in Korean; audits the DOM of each."""
    page_name = path
    where = "" if path == "home" else path  # the default page lives at /; /home says "page not found"
    url = f"{audit.dashboard.url}/{where}" + (f"?thread={quote(thread, safe='')}" if thread is not None else "")
    for lang in ("en", "ko"):
        audit.visit = f"{page_name} {lang} thread={thread!r}"
        if lang == "en":
            page.goto(url)
        else:
            _to_korean(page)
        _settled(page, t(TITLES[page_name], lang))
        if proof is not None:  # the planted text is on the page, as text (not only in a table's hidden copy)
            expect(page.get_by_text(_shown(proof)).filter(visible=True).first).to_be_visible()
        audit.check_dom(page)


def _plant(dashboard: Dashboard, kinds: frozenset[str]) -> dict[str, str]:
    """Threads whose text holds planted Markdown, made through the CLI (its commands run in one process,
    in order: ``Dashboard.cli_batch``); returns their ids by kind. Only the ``kinds`` a part's pages link to
    are made (``lecture``, ``review``, ``refund``, ``robot``, ``typed``)."""
    fields = {
        "topic": PLANTED,
        "audience-level": PLANTED,
        "duration": "3 hours",
        "delivery-method": PLANTED,
        "platform-tools": "python",
        "constraints": PLANTED_BLOCK,
    }
    flags = [item for name, value in fields.items() for item in (f"--{name}", value)]
    threads = {
        "lecture": "lecture-planted",
        "review": "lecture-review",
        "refund": "refund-planted",
        "robot": "robot-planted",
        "typed": "robot-typed",
    }
    draft = f"# Edited draft\n\n{PLANTED_BLOCK}\n\n| a | b |\n| --- | --- |\n| ![c]({OUTSIDE}/cell.png) | x |\n"
    twice = [{"title": f"![p]({OUTSIDE}/p.png)"}, {"title": f"![p]({OUTSIDE}/p.png)"}, {"title": "third"}]
    # Every path of the dashboard refuses this edit before anything is written; LangGraph's own tooling
    # checks nothing first, and the pause asks again with the refusal (planted text) in its payload.
    edit = {"action": "edit_plan", "subtopics": twice}
    refund_flags = ["--customer", f"![c]({OUTSIDE}/c.png) <b>Kim</b>", "--amount", "500000", "--reason", PLANTED_BLOCK]
    every: list[tuple[str, str | None, dict]] = [  # (kind, the thread a command's --json answer names, the step)
        ("lecture", threads["lecture"], {"cli": ["run", "lecture", "--thread", threads["lecture"], *flags]}),
        (
            "lecture",
            threads["lecture"],
            {"cli": ["update", threads["lecture"], "--values", json.dumps({"draft": draft})]},
        ),
        (
            "review",
            threads["review"],
            {"cli": ["run", "lecture", "--thread", threads["review"], *flags], "env": {"HITL_PLAN_REVIEW": "on"}},
        ),
        (
            "review",
            None,
            {
                "call": "tests.factories:refuse_at_the_pause",
                "args": [threads["review"], edit, str(dashboard.db_path)],
                "kwargs": {"HITL_PLAN_REVIEW": "on"},
            },
        ),
        ("refund", threads["refund"], {"cli": ["run", "refund", "--case", "planted", *refund_flags]}),
        ("robot", threads["robot"], {"cli": ["run", "robot", "--thread", threads["robot"]]}),
        ("robot", threads["robot"], {"cli": ["resume", threads["robot"], PLANTED]}),
        ("typed", threads["typed"], {"cli": ["run", "robot", "--thread", threads["typed"]]}),
    ]
    assert kinds <= set(threads), kinds
    steps = [(thread, step) for kind, thread, step in every if kind in kinds]
    for _thread, step in steps:
        step.get("cli", []).append("--json")
    done = dashboard.cli_batch(*(step for _thread, step in steps))
    for (thread, step), result in zip(steps, done, strict=True):
        if thread is None:
            assert "appears twice" in result["out"], result
        else:
            assert result["code"] == 0, (step, result["err"])
            assert json.loads(result["out"])["thread_id"] == thread, result["out"]
    return {kind: thread for kind, thread in threads.items() if kind in kinds}


def _typed_text(page: Page, audit: Audit, threads: dict[str, str]) -> None:
    """Planted text typed into fields whose refusals or confirmations quote it (one submit each)."""
    main = page.get_by_test_id("stMain")

    def label(key: str) -> Locator:
        return main.get_by_label(t(key, "en"), exact=True)

    def button(key: str) -> Locator:
        return main.get_by_role("button", name=t(key, "en"), exact=True)

    amount, approver, answer = f"![e]({OUTSIDE}/e.png)", f"![ap]({OUTSIDE}/ap.png)", f"![ra]({OUTSIDE}/ra.png)"
    # (the page opened, or None to act again on the page the step before left), the act, what it quotes
    steps: list[tuple[str | None, Callable[[], None], str]] = [
        (
            f"refund?thread={threads['refund']}",
            lambda: (label("refund.edit.amount").fill(amount), label("refund.edit.amount").press("Enter")),
            amount,
        ),
        (  # the same case: its approver field is beside the amount, and a rejection does not read the amount
            None,
            lambda: (label("field.approver").fill(approver), button("refund.reject").click()),
            approver,
        ),
        (
            f"robot?thread={threads['typed']}",
            lambda: (label("robot.free_answer").fill(answer), button("robot.send").click()),
            answer,
        ),
        (
            "lecture",
            lambda: (label("lecture.thread_id").fill(f"![t]({OUTSIDE}/t.png)"), button("lecture.start").click()),
            t("lecture.bad_input", "en", error="").strip(),
        ),
    ]
    page_name = ""
    for path, act, proof in steps:
        if path is not None:
            page_name = path.split("?")[0]
        audit.visit = f"{page_name} en typed {proof!r}"
        if path is not None:
            page.goto(f"{audit.dashboard.url}/{path}")
            _settled(page, t(TITLES[page_name], "en"))
        act()
        # Drawn by the run the submit started (a table's hidden accessible copy does not count).
        expect(main.get_by_text(_shown(proof)).filter(visible=True).first).to_be_visible()
        page.locator("[data-testid='stApp'][data-test-script-state='notRunning']").wait_for()
        audit.check_dom(page)


@dataclass(frozen=True)
class Part:
    """One part of the audit: pages visited (bare, through crafted links and through links to planted
    threads), whether the planted text is typed into fields afterwards, and the kinds of thread it plants."""

    pages: tuple[str, ...]
    typed: bool
    plants: frozenset[str]


#: The parts, one test file each, about equally long: a visit is about a second, a typed step a few.
PARTS = {
    "home, robot, refund": Part(("home", "robot", "refund"), False, frozenset({"robot", "refund"})),
    "lecture, explorer": Part(("lecture", "explorer"), False, frozenset({"lecture", "review", "refund"})),
    "timeline, typed text": Part(("timeline",), True, frozenset({"lecture", "refund", "typed"})),
}


def _links(name: str, threads: dict[str, str]) -> list[tuple[str, str | None]]:
    """A page's links to planted threads, each with the text that must then be on the page (or None)."""
    if name == "robot":
        return [(threads["robot"], PLANTED)]
    if name == "refund":
        return [(threads["refund"], f"![c]({OUTSIDE}/c.png) <b>Kim</b>")]
    if name == "lecture":
        return [(threads["lecture"], "[image: a[b]]"), (threads["review"], f"'![p]({OUTSIDE}/p.png)' appears twice")]
    if name == "explorer":
        return [(threads["lecture"], None), (threads["refund"], None)]
    if name == "timeline":
        return [(threads["lecture"], None)]
    return []


def audit_part(page: Page, dashboard: Dashboard, name: str) -> None:
    """Runs the part ``name`` of :data:`PARTS` on a fresh dashboard; writes what it saw to
    ``test-artifacts/request-audit-<part>.json`` and checks nothing left the dashboard's origin."""
    part = PARTS[name]
    threads = _plant(dashboard, part.plants)
    audit = Audit(dashboard)
    audit.watch(page)

    crafted = list(CRAFTED.values())
    for page_name in part.pages:
        _visit(page, audit, page_name, None, None)
        for thread in crafted:
            # The lecture and refund pages name an unknown link's thread in their notice, as text.
            _visit(page, audit, page_name, thread, thread if page_name in ("lecture", "refund") else None)
        for thread, proof in _links(page_name, threads):
            _visit(page, audit, page_name, thread, proof)
    if part.typed:
        _typed_text(page, audit, threads)

    ARTIFACTS.mkdir(exist_ok=True)
    summary = {
        "visits": len(audit.visits),
        "pages": sorted({v.split()[0] for v in audit.visits}),
        "languages": sorted({v.split()[1] for v in audit.visits}),
        "requests": len(audit.requests),
        "websockets": sum(url.startswith("ws") for _, url in audit.requests),
        "outside": audit.outside(),
        "dom_findings": audit.dom,
    }
    slug = re.sub(r"\W+", "-", name).strip("-")
    (ARTIFACTS / f"request-audit-{slug}.json").write_text(
        json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8"
    )
    # The typed steps visit the refund, robot and lecture pages in English.
    typed_pages = {"refund", "robot", "lecture"} if part.typed else set()
    assert summary["pages"] == sorted(set(part.pages) | typed_pages) and summary["languages"] == ["en", "ko"]
    assert summary["websockets"] >= 1 and summary["requests"] > summary["visits"]
    assert audit.outside() == []
    assert audit.dom == []
