"""Core commands: threads, run, resume, update, continue, delete, inspect."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from agents import ages, answered_start, lifecycle, queue_rights, readmodel, runs
from agents.cli.base import EXIT_BAD_INPUT, Context, thread_command
from agents.decision_rights import DecisionRights
from agents.errors import InputError, short_id
from agents.registry import AGENTS, get_agent
from agents.strings import STRINGS
from agents.texts import DEFAULT_LANGUAGE, render, text
from agents.validation import confirms_thread_id, parse_answer, parse_json_object


def print_json(data: Any) -> None:
    """Prints JSON (Korean kept readable) to stdout."""
    print(json.dumps(readmodel.to_jsonable(data), ensure_ascii=False, indent=2))


def print_result(result: runs.RunResult, as_json: bool, lang: str = DEFAULT_LANGUAGE) -> None:
    """Prints where a thread stands after an operation (its reason in ``lang``)."""
    if as_json:
        print_json(result.to_json(lang))
        return
    state = f"{result.status} ({result.outcome})" if result.status == "done" else result.status
    if result.status == "waiting" and len(result.interrupts) > 1:
        state = f"waiting ({runs.waiting_count(result.interrupts)})"
    print(f"thread {result.thread_id} ({result.agent}): {state}")
    if result.reason and result.status != "waiting":
        print(f"reason: {render(result.reason_text or result.reason, lang)}")
    if result.next:
        print(f"next: {', '.join(result.next)}")
    several = len(result.interrupts) > 1
    ids = result.interrupt_ids or ("",) * len(result.interrupts)
    for payload, interrupt_id in zip(result.interrupts, ids, strict=True):
        print(f"waiting for a human (interrupt {interrupt_id}):" if several else "waiting for a human:")
        print(readmodel.to_json(payload))
    messages = result.values.get("messages") or []
    if messages and result.status == "done":
        print(f"last message: {readmodel.to_jsonable(messages[-1])['content']}")


def parse_value(text: str) -> Any:
    """A resume value: a JSON object when the text parses as one, otherwise the text."""
    return parse_answer(text, "value")


def cmd_threads(args: argparse.Namespace, context: Context) -> int:
    threads = lifecycle.thread_statuses(context.store, agent=args.agent)
    if args.json:
        print_json([_thread_json(t, context.settings.lang) for t in threads])
        return 0
    if not threads:
        print("no threads")
    zone = context.settings.zone
    for t in threads:
        state = t.state_words()
        updated = t.updated_at.astimezone(zone)  # HITL_TIMEZONE; --json keeps UTC
        print(f"{t.thread_id}\t{t.agent}\t{state}\t{updated:%Y-%m-%d %H:%M:%S %Z}\t{t.checkpoint_count} checkpoints")
    return 0


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
    lang = context.settings.lang
    # The CLI reads the roles file itself, so it names the deciders (the dashboard's local mode does not).
    rights = queue_rights.rights_of(context.store, context.settings.roles, items, deadlines, now)
    if args.json:
        print_json([_inbox_json(item, item.thread_id in late, rights.get(item.thread_id), lang) for item in items])
    elif not items:
        print("nothing is overdue" if args.overdue else "nothing is waiting for a human")
    for item in [] if args.json else items:
        age = ages.age_text(item.waiting_since, now).render(lang) if item.waiting_since else "-"
        if item.thread_id in late:
            age += " (" + render(text(STRINGS, "age.overdue"), lang) + ")"
        line = f"{item.thread_id}\t{item.agent}\t{item.state_words()}\t{item.action}\t{age}\t{item.reason_in(lang)}"
        found = rights.get(item.thread_id)
        print(line + (f"\t{found.summary(lang, identities=True)}" if found is not None else ""))
    return EXIT_OVERDUE if args.overdue and items else 0


def cmd_run(args: argparse.Namespace, context: Context) -> int:
    spec = get_agent(args.agent)
    values = {f.name: getattr(args, f.name) for f in spec.run.start_fields if getattr(args, f.name) is not None}
    store, settings, lang = context.store, context.settings, context.settings.lang
    if args.answer is not None:  # a refused answer leaves nothing of the run in the file
        answer = parse_value(args.answer)
        result = answered_start.start_and_answer(
            store, settings, spec.name, values, answer, thread_id=args.thread, lang=lang
        )
    else:
        result = runs.start_run(store, settings, spec.name, values, thread_id=args.thread, lang=lang)
        if result.status == "waiting" and sys.stdin.isatty() and not args.json:
            print_result(result, as_json=False, lang=lang)
            typed = parse_value(input("your answer> "))  # asked after the start, which the terminal showed
            result = runs.resume_thread(
                store, settings, result.thread_id, typed, expected_head=result.head_checkpoint_id
            )
    print_result(result, args.json, lang)
    return 0


def cmd_resume(args: argparse.Namespace, context: Context) -> int:
    if args.every and args.interrupt is not None:
        raise InputError("interrupt", "give --interrupt ID (one question) or --all (every one), not both")
    value = parse_value(args.value)
    result = runs.resume_thread(
        context.store, context.settings, args.thread, value, interrupt_id=args.interrupt, every=args.every
    )
    print_result(result, args.json, context.settings.lang)
    return 0


def cmd_update(args: argparse.Namespace, context: Context) -> int:
    values = parse_json_object(args.values, "values")
    result = runs.update_thread(
        context.store, context.settings, args.thread, values, as_node=args.as_node, checkpoint_id=args.checkpoint
    )
    print_result(result, args.json, context.settings.lang)
    return 0


def cmd_continue(args: argparse.Namespace, context: Context) -> int:
    result = runs.continue_thread(context.store, context.settings, args.thread)
    print_result(result, args.json, context.settings.lang)
    return 0


def cmd_delete(args: argparse.Namespace, context: Context) -> int:
    thread_id = lifecycle.thread_named(context.store, args.thread, exact=True)
    if readmodel.head_checkpoint_id(context.store, thread_id) is None:
        raise InputError("thread_id", text(STRINGS, "error.no_thread_named", thread=repr(thread_id)))
    if not args.yes:
        if not sys.stdin.isatty():
            print("error: refusing to delete without --yes (not on a terminal)", file=sys.stderr)
            return EXIT_BAD_INPUT
        if not confirms_thread_id(input(f"type the thread id to delete it ({thread_id}): "), thread_id):
            print("not confirmed; nothing deleted", file=sys.stderr)
            return EXIT_BAD_INPUT
    runs.delete_thread(context.store, thread_id, reason=args.reason)
    print(f"deleted thread {thread_id}")
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


def _print_checkpoint_text(cp: dict[str, Any]) -> None:
    print(
        f"step {cp['step']}  source {cp['source']}  id {cp['checkpoint_id']}"
        f"  parent {cp['parent_checkpoint_id'] or '-'}  next {', '.join(cp['next']) or '-'}"
    )
    print("  state: " + json.dumps(cp["values"], ensure_ascii=False))
    for w in cp["writes"]:
        value = json.dumps(w["value"], ensure_ascii=False)
        print(f"    write  task {short_id(w['task_id'])}  {w['channel']} = {value}")


def cmd_inspect(args: argparse.Namespace, context: Context) -> int:
    """Streams the thread: each checkpoint is printed as it is read, so memory does not grow with the thread."""
    store = context.store
    thread_id = _existing_thread(store, lifecycle.thread_named(store, args.thread, exact=True))
    if args.json:
        head = {"thread_id": thread_id, "counts": readmodel.table_counts(store, thread_id)}
        print_json_list_document(head, "checkpoints", inspect_checkpoints(store, thread_id))
        return 0
    for cp in inspect_checkpoints(store, thread_id):
        _print_checkpoint_text(cp)
    counts = readmodel.table_counts(store, thread_id)
    print(f"checkpoints {counts['checkpoints']}, writes {counts['writes']}")
    return 0


def add_commands(subparsers: Any) -> None:
    """Adds the core commands."""
    p = subparsers.add_parser("threads", help="list threads")
    p.add_argument("--agent", help="only this agent's threads")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_threads)

    p = subparsers.add_parser("inbox", help="every thread that needs a human: waiting, attention, running")
    p.add_argument("--agent", help="only this agent's threads")
    p.add_argument(
        "--overdue", action="store_true", help="only the items past their deadline (HITL_SLA); exit 3 when any"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_inbox)

    run = subparsers.add_parser("run", help="start a run of an agent")
    agents = run.add_subparsers(dest="agent", required=True, parser_class=type(run))
    for spec in AGENTS.values():
        p = agents.add_parser(spec.name, help=spec.description)
        p.add_argument("--thread", help=f"thread id (default: {spec.run.default_thread_id or 'derived'})")
        for field in spec.run.start_fields:
            p.add_argument(field.flag, dest=field.name, help=field.help or field.label, agent_field=True)
        p.add_argument("--answer", help="answer the first question at once (text or JSON object)")
        p.add_argument("--json", action="store_true")
        p.set_defaults(handler=cmd_run)

    p = thread_command(subparsers, "resume", "answer a waiting thread", cmd_resume)
    p.add_argument("value", help="a JSON object, or text")
    p.add_argument("--interrupt", help="answer the question with this interrupt id (needed when several are waiting)")
    p.add_argument("--all", dest="every", action="store_true", help="give the same answer to every question waiting")

    p = thread_command(subparsers, "update", "update_state on a thread (or fork an older checkpoint)", cmd_update)
    p.add_argument("--values", required=True, help="JSON object of state keys")
    p.add_argument("--as-node", dest="as_node")
    p.add_argument("--checkpoint", help="fork from this checkpoint instead of the head")

    thread_command(
        subparsers, "continue", "run a thread on from its head with no new input (after update)", cmd_continue
    )
    p = thread_command(subparsers, "delete", "delete a thread", cmd_delete, json_help=None)
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p.add_argument("--reason", help="why (an unfinished refund is deleted only with one, kept in its audit)")
    thread_command(subparsers, "inspect", "readable dump of a thread's checkpoints and writes", cmd_inspect)
