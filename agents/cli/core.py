"""Core commands: threads, run, resume, update, continue, delete, inspect."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from agents import ages, answered_start, lifecycle, queue_rights, readmodel, runs
from agents.cli.base import EXIT_BAD_INPUT, Context, say, say_count, thread_command, word
from agents.cli.strings import STRINGS as CLI_STRINGS
from agents.decision_rights import DecisionRights
from agents.errors import InputError, short_id
from agents.registry import AGENTS, get_agent
from agents.spec import AgentSpec, Field
from agents.strings import STRINGS
from agents.texts import DEFAULT_LANGUAGE, render, text
from agents.texts import say as say_in
from agents.validation import confirms_thread_id, parse_answer, parse_json_object


def print_json(data: Any) -> None:
    """Prints JSON (Korean kept readable) to stdout."""
    print(json.dumps(readmodel.to_jsonable(data), ensure_ascii=False, indent=2))


def state_words(status: str, outcome: str, waiting: int, payload: Any, lang: str) -> str:
    """A thread's status as the text output lists it, in ``lang``: ``done (paid)``, ``waiting``, or
    ``waiting (2 of 5 items)`` when several questions wait at once, or one item of several (``waiting``: how
    many; :func:`agents.lifecycle.says_count`)."""
    if status == "done":
        detail = word("outcome", outcome, lang)
    elif status == "waiting" and lifecycle.says_count(waiting, payload):
        detail = waiting_words(waiting, payload, lang)
    else:
        return word("status", status, lang)
    return say("cli.status.with_outcome", lang, status=word("status", status, lang), outcome=detail)


def waiting_words(count: int, payload: Any, lang: str) -> str:
    """How many questions wait, in words: ``2 of 5 items`` when the question says how many items the
    thread decides in all (an interrupt payload's ``item_count``), else ``2 questions``."""
    total = lifecycle.item_total(payload)
    if total is not None:
        return say("cli.waiting.items", lang, count=count, total=total)
    return say("cli.waiting.questions", lang, count=count)


def print_result(result: runs.RunResult, as_json: bool, lang: str = DEFAULT_LANGUAGE) -> None:
    """Prints where a thread stands after an operation (its words and reason in ``lang``)."""
    if as_json:
        print_json(result.to_json(lang))
        return
    first = result.interrupts[0] if result.interrupts else None
    state = state_words(result.status, result.outcome, len(result.interrupts), first, lang)
    print(say("cli.result.thread", lang, thread=result.thread_id, agent=result.agent, state=state))
    if result.reason and result.status != "waiting":
        print(say("cli.result.reason", lang, reason=render(result.reason_text or result.reason, lang)))
    if result.next:
        print(say("cli.result.next", lang, nodes=", ".join(result.next)))
    several = len(result.interrupts) > 1
    ids = result.interrupt_ids or ("",) * len(result.interrupts)
    for payload, interrupt_id in zip(result.interrupts, ids, strict=True):
        if several:
            print(say("cli.result.waiting_interrupt", lang, interrupt=interrupt_id))
        else:
            print(say("cli.result.waiting", lang))
        print(readmodel.to_json(payload))
    messages = result.values.get("messages") or []
    if messages and result.status == "done":
        print(say("cli.result.last_message", lang, content=readmodel.to_jsonable(messages[-1])["content"]))


def parse_value(text: str) -> Any:
    """A resume value: a JSON object when the text parses as one, otherwise the text."""
    return parse_answer(text, "value")


def cmd_threads(args: argparse.Namespace, context: Context) -> int:
    threads = lifecycle.thread_statuses(context.store, agent=args.agent)
    if args.json:
        print_json([_thread_json(t, context.lang) for t in threads])
        return 0
    lang = context.lang
    if not threads:
        print(say("cli.threads.none", lang))
    zone = context.settings.zone
    for t in threads:
        state = _state_of(t, lang)
        updated = t.updated_at.astimezone(zone)  # HITL_TIMEZONE; --json keeps UTC
        count = say_count("cli.threads.checkpoints", t.checkpoint_count, lang)
        print(f"{t.thread_id}\t{t.agent}\t{state}\t{updated:%Y-%m-%d %H:%M:%S %Z}\t{count}")
    return 0


def _state_of(status: lifecycle.ThreadStatus, lang: str) -> str:
    return state_words(status.status, status.outcome, status.waiting_count, status.payload, lang)


def _thread_json(status: lifecycle.ThreadStatus, lang: str) -> dict[str, Any]:
    return status.to_json(payload=False, lang=lang)


def _inbox_json(
    item: lifecycle.ThreadStatus, overdue: bool, rights: DecisionRights | None, lang: str
) -> dict[str, Any]:
    """An inbox item: the thread's fields, ``overdue``, and who may decide it (``deciders``, ``no_decider``,
    ``escalated_to``, ``escalation_reason``; null where the agent states none or no roles file is set)."""
    facts = rights.to_json(lang, identities=True) if rights is not None else dict.fromkeys(_RIGHTS_FIELDS)
    return item.to_json(payload=False, lang=lang) | {"overdue": overdue} | facts


_RIGHTS_FIELDS = ("deciders", "no_decider", "escalated_to", "escalation_reason")


#: ``inbox --overdue``'s exit code when anything is overdue (0 when nothing is), for a cron job or a monitor.
EXIT_OVERDUE = 3


def cmd_inbox(args: argparse.Namespace, context: Context) -> int:
    items = lifecycle.inbox(context.store, agent=args.agent)
    now, deadlines = ages.utc_now(), context.settings.deadlines
    late = {item.thread_id for item in lifecycle.overdue(items, deadlines, now)}
    if args.overdue:
        items = [item for item in items if item.thread_id in late]
    lang = context.lang
    # The CLI reads the roles file itself, so it names the deciders (the dashboard's local mode does not).
    rights = queue_rights.rights_of(context.store, context.settings.roles, items, deadlines, now)
    if args.json:
        print_json([_inbox_json(item, item.thread_id in late, rights.get(item.thread_id), lang) for item in items])
    elif not items:
        print(say("cli.inbox.none_overdue" if args.overdue else "cli.inbox.none_waiting", lang))
    for item in [] if args.json else items:
        age = ages.age_text(item.waiting_since, now).render(lang) if item.waiting_since else "-"
        if item.thread_id in late:
            age += " (" + render(text(STRINGS, "age.overdue"), lang) + ")"
        action = word("action", item.action, lang)
        line = f"{item.thread_id}\t{item.agent}\t{_state_of(item, lang)}\t{action}\t{age}\t{item.reason_in(lang)}"
        found = rights.get(item.thread_id)
        print(line + (f"\t{found.summary(lang, identities=True)}" if found is not None else ""))
    return EXIT_OVERDUE if args.overdue and items else 0


def cmd_run(args: argparse.Namespace, context: Context) -> int:
    spec = get_agent(args.agent)
    values = {f.name: getattr(args, f.name) for f in spec.run.start_fields if getattr(args, f.name) is not None}
    store, settings, lang = context.store, context.settings, context.lang
    if args.answer is not None:  # a refused answer leaves nothing of the run in the file
        answer = parse_value(args.answer)
        result = answered_start.start_and_answer(
            store, settings, spec.name, values, answer, thread_id=args.thread, lang=lang
        )
    else:
        result = runs.start_run(store, settings, spec.name, values, thread_id=args.thread, lang=lang)
        if result.status == "waiting" and sys.stdin.isatty() and not args.json:
            print_result(result, as_json=False, lang=lang)
            # Asked after the start, which the terminal showed.
            typed = parse_value(input(say("cli.prompt.answer", lang)))
            result = runs.resume_thread(
                store, settings, result.thread_id, typed, expected_head=result.head_checkpoint_id
            )
    print_result(result, args.json, lang)
    return 0


def cmd_resume(args: argparse.Namespace, context: Context) -> int:
    if args.every and args.interrupt is not None:
        raise InputError("--interrupt", text(CLI_STRINGS, "cli.resume.both"))
    value = parse_value(args.value)
    result = runs.resume_thread(
        context.store, context.settings, args.thread, value, interrupt_id=args.interrupt, every=args.every
    )
    print_result(result, args.json, context.lang)
    return 0


def cmd_update(args: argparse.Namespace, context: Context) -> int:
    values = parse_json_object(args.values, "values")
    result = runs.update_thread(
        context.store, context.settings, args.thread, values, as_node=args.as_node, checkpoint_id=args.checkpoint
    )
    print_result(result, args.json, context.lang)
    return 0


def cmd_continue(args: argparse.Namespace, context: Context) -> int:
    result = runs.continue_thread(context.store, context.settings, args.thread)
    print_result(result, args.json, context.lang)
    return 0


def cmd_delete(args: argparse.Namespace, context: Context) -> int:
    thread_id = lifecycle.thread_named(context.store, args.thread, exact=True)
    if readmodel.head_checkpoint_id(context.store, thread_id) is None:
        raise InputError("thread_id", text(STRINGS, "error.no_thread_named", thread=repr(thread_id)))
    lang = context.lang
    if not args.yes:
        if not sys.stdin.isatty():
            print(say("cli.error", lang, message=say("cli.delete.no_terminal", lang)), file=sys.stderr)
            return EXIT_BAD_INPUT
        if not confirms_thread_id(input(say("cli.delete.prompt", lang, thread=thread_id)), thread_id):
            print(say("cli.delete.not_confirmed", lang), file=sys.stderr)
            return EXIT_BAD_INPUT
    runs.delete_thread(context.store, thread_id, reason=args.reason)
    print(say("cli.delete.done", lang, thread=thread_id))
    return 0


def inspect_checkpoint(entry: readmodel.ChainCheckpoint, detail: readmodel.CheckpointDetail) -> dict[str, Any]:
    """One checkpoint of the ``inspect --json`` document."""
    return {
        "checkpoint_id": entry.checkpoint_id,
        "parent_checkpoint_id": entry.parent_checkpoint_id,
        "step": entry.step,
        "source": entry.source,
        "next": list(entry.next),
        "values": readmodel.to_jsonable(detail.values),
        "writes": [
            {"task_id": w.task_id, "channel": w.channel, "value": readmodel.to_jsonable(w.value)} for w in detail.writes
        ],
    }


def _existing_thread(store: Any, thread_id: str) -> str:
    if readmodel.head_checkpoint_id(store, thread_id) is None:
        raise InputError("thread_id", text(STRINGS, "error.no_thread_named", thread=repr(thread_id)))
    return thread_id


def inspect_checkpoints(store: Any, thread_id: str) -> Iterator[dict[str, Any]]:
    """The checkpoints of the ``inspect --json`` document, oldest first, read one by one as they are asked for."""
    for entry, detail in readmodel.iter_checkpoint_details(store, thread_id):
        yield inspect_checkpoint(entry, detail)


def print_json_list_document(head: dict[str, Any], key: str, items: Iterable[Any]) -> None:
    """Prints ``head`` with ``key: items`` last, as :func:`print_json` would, one item at a time.

    The items must be JSON-ready already (:func:`agents.readmodel.to_jsonable`'s output), which
    saves converting each twice. The output is byte for byte ``print_json({**head, key: list(items)})``,
    but only one item is in memory at a time: the opening, then each item indented to its depth,
    then the closing.
    """
    empty = json.dumps(readmodel.to_jsonable({**head, key: []}), ensure_ascii=False, indent=2)
    opening, closing = empty.removesuffix("[]\n}"), "\n  ]\n}"
    separator = "["
    for item in items:
        text = json.dumps(item, ensure_ascii=False, indent=2)
        # JSON strings escape their newlines, so every newline here is indentation.
        print(opening + separator + "\n    " + text.replace("\n", "\n    "), end="")
        opening, separator = "", ","
    print(opening + "[]\n}" if separator == "[" else closing)


def _print_checkpoint_text(cp: dict[str, Any], lang: str) -> None:
    print(
        say(
            "cli.inspect.checkpoint",
            lang,
            step=cp["step"],
            source=cp["source"],
            checkpoint=cp["checkpoint_id"],
            parent=cp["parent_checkpoint_id"] or "-",
            next=", ".join(cp["next"]) or "-",
        )
    )
    print(say("cli.inspect.state", lang, state=json.dumps(cp["values"], ensure_ascii=False)))
    for w in cp["writes"]:
        value = json.dumps(w["value"], ensure_ascii=False)
        print(say("cli.inspect.write", lang, task=short_id(w["task_id"]), channel=w["channel"], value=value))


def cmd_inspect(args: argparse.Namespace, context: Context) -> int:
    """Streams the thread: each checkpoint is printed as it is read, so memory does not grow with the thread."""
    store = context.store
    thread_id = _existing_thread(store, lifecycle.thread_named(store, args.thread, exact=True))
    if args.json:
        head = {"thread_id": thread_id, "counts": readmodel.table_counts(store, thread_id)}
        print_json_list_document(head, "checkpoints", inspect_checkpoints(store, thread_id))
        return 0
    for cp in inspect_checkpoints(store, thread_id):
        _print_checkpoint_text(cp, context.lang)
    counts = readmodel.table_counts(store, thread_id)
    print(say("cli.inspect.counts", context.lang, checkpoints=counts["checkpoints"], writes=counts["writes"]))
    return 0


def add_commands(subparsers: Any, lang: str) -> None:
    """Adds the core commands, their help in ``lang``."""
    p = subparsers.add_parser("threads", help=say("cli.help.threads", lang))
    p.add_argument("--agent", help=say("cli.help.agent_filter", lang))
    p.add_argument("--json", action="store_true", help=say("cli.help.threads.json", lang))
    p.set_defaults(handler=cmd_threads)

    p = subparsers.add_parser("inbox", help=say("cli.help.inbox", lang))
    p.add_argument("--agent", help=say("cli.help.agent_filter", lang))
    p.add_argument("--overdue", action="store_true", help=say("cli.help.inbox.overdue", lang))
    p.add_argument("--json", action="store_true", help=say("cli.help.inbox.json", lang))
    p.set_defaults(handler=cmd_inbox)

    run = subparsers.add_parser("run", help=say("cli.help.run", lang))
    agents = run.add_subparsers(dest="agent", metavar="AGENT", required=True, parser_class=type(run))
    for spec in AGENTS.values():
        p = agents.add_parser(
            spec.name, help=_agent_words(spec, f"agent.{spec.name}.description", spec.description, lang)
        )
        derived = spec.run.default_thread_id or say("cli.help.run.derived", lang)
        p.add_argument("--thread", help=say("cli.help.run.thread", lang, default=derived))
        for field in spec.run.start_fields:
            p.add_argument(field.flag, dest=field.name, help=_field_help(spec, field, lang), agent_field=True)
        p.add_argument("--answer", help=say("cli.help.run.answer", lang))
        p.add_argument("--json", action="store_true", help=say("cli.help.run.json", lang))
        p.set_defaults(handler=cmd_run, creates_database=True)

    p = thread_command(subparsers, "resume", say("cli.help.resume", lang), cmd_resume, lang)
    p.add_argument("value", metavar="VALUE", help=say("cli.help.resume.value", lang))
    p.add_argument("--interrupt", help=say("cli.help.resume.interrupt", lang))
    p.add_argument("--all", dest="every", action="store_true", help=say("cli.help.resume.all", lang))

    p = thread_command(subparsers, "update", say("cli.help.update", lang), cmd_update, lang)
    p.add_argument("--values", required=True, help=say("cli.help.update.values", lang))
    p.add_argument("--as-node", dest="as_node", help=say("cli.help.update.as_node", lang))
    p.add_argument("--checkpoint", help=say("cli.help.update.checkpoint", lang))

    thread_command(subparsers, "continue", say("cli.help.continue", lang), cmd_continue, lang)
    p = thread_command(subparsers, "delete", say("cli.help.delete", lang), cmd_delete, lang, json_help=None)
    p.add_argument("--yes", action="store_true", help=say("cli.help.delete.yes", lang))
    p.add_argument("--reason", help=say("cli.help.delete.reason", lang))
    inspect_json = say("cli.help.inspect.json", lang)
    thread_command(subparsers, "inspect", say("cli.help.inspect", lang), cmd_inspect, lang, json_help=inspect_json)


def _agent_words(spec: AgentSpec, key: str, english: str, lang: str, **params: Any) -> str:
    """An agent's own string ``key`` in ``lang`` (its page's catalogue); ``english`` when it has none, or in English."""
    if key not in spec.show.strings or lang == DEFAULT_LANGUAGE:
        return english
    return say_in(spec.show.strings, key, lang, **params)


def _field_help(spec: AgentSpec, field: Field, lang: str) -> str:
    """A start field's help: the agent's help line for its form (``help.<agent>.start.<field>``), else its label."""
    english = field.help or field.label
    bounds = {"minimum": f"{field.minimum:,}", "maximum": f"{field.maximum:,}"}
    key = f"help.{spec.name}.start.{field.name}"
    if key in spec.show.strings:
        return _agent_words(spec, key, english, lang, **bounds)
    return _agent_words(spec, f"field.{field.name}", english, lang)
