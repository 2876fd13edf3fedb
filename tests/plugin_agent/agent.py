"""The greeter: greets a name, asks whether to send the greeting, and records it in its own table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

from agents.common import node_decorator, require_checkpointer
from agents.db import Store, TableSchema
from agents.errors import InputError
from agents.settings_values import choice_setting
from agents.spec import AgentPage, AgentSpec, AskPart, EditPart, Field, RunPart, ShowPart

AGENT_NAME = "greeter"
WORD_SETTING = "HITL_GREETER_WORD"
WORDS = ("hello", "hi")
QUESTION = "send this greeting? (send/drop)"

SENT_TABLE = TableSchema(
    "greeter_sent",
    """
CREATE TABLE IF NOT EXISTS greeter_sent (
    thread_id TEXT PRIMARY KEY,
    greeting TEXT NOT NULL
);""",
    migrated_columns=("thread_id", "greeting"),
)


class GreeterState(TypedDict, total=False):
    name: str
    greeting: str
    answer: str
    outcome: str


@dataclass(frozen=True)
class GreeterSettings:
    word: str = "hello"


def settings_from(values: Mapping[str, str]) -> GreeterSettings:
    return GreeterSettings(word=choice_setting(values, WORD_SETTING, WORDS, "hello"))


def build_graph(checkpointer: Any, *, store: Store | None = None, word: str = "hello") -> Any:
    saver = require_checkpointer(checkpointer, AGENT_NAME)
    log = node_decorator(store, AGENT_NAME)

    def greet(state: GreeterState) -> dict[str, Any]:
        return {"greeting": f"{word.capitalize()}, {state['name']}!"}

    def ask(state: GreeterState) -> dict[str, Any]:
        return {"answer": str(interrupt({"question": QUESTION, "greeting": state["greeting"]}))}

    def finish(state: GreeterState) -> dict[str, Any]:
        if state["answer"] != "send":
            return {"outcome": "dropped"}
        if store is not None:
            with store.transaction() as cursor:
                cursor.execute(
                    "INSERT INTO greeter_sent (thread_id, greeting) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    (f"greeter-{state['name']}", state["greeting"]),
                )
        return {"outcome": "sent"}

    builder = StateGraph(GreeterState)
    for node in (greet, ask, finish):
        builder.add_node(node.__name__, log(node))
    builder.add_edge(START, "greet")
    builder.add_edge("greet", "ask")
    builder.add_edge("ask", "finish")
    builder.add_edge("finish", END)
    return builder.compile(checkpointer=saver)


def check_answer(value: Any) -> str:
    if value not in ("send", "drop"):
        raise InputError("answer", "must be send or drop")
    return str(value)


def finished_outcome(store: Any, thread_id: str, values: dict[str, Any]) -> tuple[str, str]:
    outcome = values.get("outcome")
    return (str(outcome), "") if outcome in ("sent", "dropped") else ("", "the greeter ended without an outcome")


SPEC = AgentSpec(
    name=AGENT_NAME,
    title="Greeter",
    description="Greets a name and asks before it sends the greeting.",
    run=RunPart(
        build_graph=build_graph,
        start_fields=(Field(name="name", label="Name", max_length=40, cli_flag="--name", help="Whom to greet."),),
        make_input=lambda values, lang: {"name": values["name"]},
        thread_for=lambda values, requested: requested or f"greeter-{values['name']}",
        settings_from=settings_from,
        options_from_settings=lambda settings: {"word": settings.word},
        tables=(SENT_TABLE,),
    ),
    ask=AskPart(
        resume_fields=(Field(name="answer", kind="choice", label="Answer", choices=("send", "drop")),),
        make_resume=lambda values: values["answer"],
        check_resume=check_answer,
    ),
    show=ShowPart(
        page=AgentPage("tests/plugin_agent/page.py", ":material/waving_hand:", "greeter"),
        finished_outcome=finished_outcome,
        strings={
            "nav.greeter": ("Greeter", "인사 도우미"),
            "agent.greeter.title": ("Greeter", "인사 도우미"),
            "agent.greeter.description": (
                "Greets a name and asks before it sends the greeting.",
                "이름에 인사하고, 인사를 보내기 전에 묻습니다.",
            ),
            "greeter.title": ("Greeter", "인사 도우미"),
        },
    ),
    edit=EditPart(
        state_fields=(Field(name="greeting", label="Greeting", max_length=80),),
        as_nodes=("greet", "ask"),
    ),
)
