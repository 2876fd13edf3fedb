// Scripted flows through LangGraph's official JS client (@langchain/langgraph-sdk), against one server.
//
// Usage: node flows.mjs <server url> <flow> [<options as JSON>]
// Prints one JSON object: {"trace": [...]}, one entry per call with what a client sees of the answer:
// its status ("ok" or the HTTP status), its keys and value types, and for a stream the event names.
// tests/ecosystem/test_js_client.py runs the same flow against this project's server and against
// `langgraph dev` and compares the traces.
//
// The Agent Chat UI and Agent Inbox flows replay the calls those apps make (see the test's comment
// for the source files and lines).

import { Client } from "@langchain/langgraph-sdk";

const [url, flow, rawOptions] = process.argv.slice(2);
const options = rawOptions ? JSON.parse(rawOptions) : {};
const client = new Client({ apiUrl: url, apiKey: options.apiKey ?? null, callerOptions: { maxRetries: 0 } });
const trace = [];

// The type a client sees: "array", "null", or JavaScript's typeof.
function kind(value) {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  return typeof value;
}

// An answer's keys (sorted) and the kind of each value; a value that is not an object: its kind.
function shape(value) {
  if (kind(value) !== "object") return kind(value);
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, kind(value[key])]));
}

async function call(name, action, keep = (answer) => shape(answer)) {
  try {
    const answer = await action();
    trace.push({ call: name, status: "ok", shape: keep(answer) });
    return answer;
  } catch (error) {
    trace.push({ call: name, status: error?.status ?? String(error?.name ?? error) });
    return undefined;
  }
}

async function stream(name, parts, stopWhen = () => false) {
  const events = [];
  let runId;
  try {
    for await (const part of parts) {
      events.push(part.event);
      if (part.event === "metadata") runId = part.data.run_id;
      if (stopWhen(part, runId)) break;
    }
    trace.push({ call: name, status: "ok", events });
  } catch (error) {
    trace.push({ call: name, status: error?.status ?? String(error?.name ?? error), events, message: String(error?.message ?? "") });
  }
  return { events, runId };
}

const START = { messages: [{ role: "human", content: "Start the task" }] };

async function robot() {
  const thread = await call("threads.create", () => client.threads.create());
  const id = thread.thread_id;
  const waiting = await call("runs.wait start", () => client.runs.wait(id, "robot", { input: START }));
  await call("interrupt", async () => waiting.__interrupt__[0]);
  await call("threads.getState", () => client.threads.getState(id));
  await call("threads.get", () => client.threads.get(id));
  await stream("runs.stream resume", client.runs.stream(id, "robot", { command: { resume: "yes" }, streamMode: ["values", "updates", "messages-tuple"] }));
  const history = await call("threads.getHistory", () => client.threads.getHistory(id, { limit: 10 }));
  await call("threads.getHistory before", () => client.threads.getHistory(id, { limit: 2, before: { configurable: { checkpoint_id: history[1].checkpoint_id } } }), (page) => page.map((entry) => entry.checkpoint_id === history[2 + page.indexOf(entry)].checkpoint_id));
  await call("threads.getState done", () => client.threads.getState(id));
}

async function refund() {
  const thread = await call("threads.create", () => client.threads.create(options.refundThread ? { threadId: options.refundThread } : {}));
  const id = thread.thread_id;
  const request = { case_id: options.caseId ?? "JS-1", customer: "홍길동", requested_amount: 500000, reason: "파손된 상품" };
  const waiting = await call("runs.wait start", () => client.runs.wait(id, "refund", { input: request }));
  await call("interrupt", async () => waiting.__interrupt__[0].value);
  const edit = { action: "edit", amount: 300000, approver: "kim" };
  const done = await call("runs.wait edit", () => client.runs.wait(id, "refund", { command: { resume: edit } }));
  await call("paid", async () => ({ outcome: done.outcome, paid_amount: done.paid_amount, approver: done.approver }), (answer) => answer);
  await call("runs.wait answered again", () => client.runs.wait(id, "refund", { command: { resume: edit } }));
  await call("threads.get", () => client.threads.get(id));
}

const LECTURE = {
  topic: "업무에 바로 쓰는 AI 활용법",
  audience_level: "비개발자 직장인 초급",
  duration: "1일 8시간",
  delivery_method: "강의+실습 병행",
  platform_tools: "ChatGPT, Notion",
  constraints: "프로젝터 없음, 노트북 1인 1대",
};

async function lecture() {
  const thread = await call("threads.create", () => client.threads.create());
  const id = thread.thread_id;
  const { events } = await stream("runs.stream start", client.runs.stream(id, "lecture", { input: { request: LECTURE }, streamMode: ["updates"] }));
  const state = await call("threads.getState", () => client.threads.getState(id));
  await call("gate", async () => ({ stage: state.tasks[0].interrupts[0].value.stage, updates: events.filter((e) => e === "updates").length }), (answer) => answer);
  const done = await call("runs.wait rework", () => client.runs.wait(id, "lecture", { command: { resume: "rework" } }));
  await call("saved", async () => ({ outcome: done.outcome, round: done.round }), (answer) => answer);
}

// Agent Chat UI (see the test's comment): check the server, list the threads, stream a run as useStream
// does, read its history; reload (rejoin the run's stream from its start); stop a run.
async function chatUi() {
  const info = await call("GET /info", async () => {
    const answer = await fetch(`${url}/info`);
    if (!answer.ok) throw Object.assign(new Error("info"), { status: answer.status });
    return answer.json();
  });
  void info;
  await call("threads.search", () => client.threads.search({ metadata: { graph_id: "robot" }, limit: 100 }), (found) => Array.isArray(found));
  const thread = await call("threads.create", () => client.threads.create({ metadata: undefined }));
  const id = thread.thread_id;
  const human = { id: "11111111-1111-4111-8111-111111111111", type: "human", content: [{ type: "text", text: "Start the task" }] };
  const modes = ["values", "updates", "messages-tuple", "custom"];
  const first = await stream("runs.stream submit", client.runs.stream(id, "robot", { input: { messages: [human] }, streamMode: modes, streamSubgraphs: true, streamResumable: true, onDisconnect: "continue" }));
  await call("threads.getHistory", () => client.threads.getHistory(id, { limit: 10 }), (history) => history.length);
  await stream("runs.joinStream after reload", client.runs.joinStream(id, first.runId, { lastEventId: "-1" }));
  await call("runs.get", () => client.runs.get(id, first.runId), (run) => run.status);
  await stream("runs.stream resume", client.runs.stream(id, "robot", { command: { resume: "yes" }, streamMode: modes, streamSubgraphs: true, streamResumable: true, onDisconnect: "continue" }));
  await call("threads.getState", () => client.threads.getState(id), (state) => state.values.messages.map((m) => [m.type, typeof m.id]));

  // Stop: the lecture run is left mid-stream and cancelled (useStream.stop with reconnectOnMount).
  const lecture = await call("threads.create lecture", () => client.threads.create());
  const controller = new AbortController();
  const started = await stream(
    "runs.stream lecture",
    client.runs.stream(lecture.thread_id, "lecture", { input: { request: LECTURE }, streamMode: modes, streamResumable: true, onDisconnect: "continue", signal: controller.signal }),
    (part) => part.event === "metadata",
  );
  controller.abort();
  await call("runs.cancel", () => client.runs.cancel(lecture.thread_id, started.runId, true), () => "stopped");
  await call("runs.get cancelled", () => client.runs.get(lecture.thread_id, started.runId), (run) => run.status);
}

// Agent Inbox (see the test's comment): list the inbox's interrupted threads, open one.
async function inbox() {
  const thread = await call("threads.create", () => client.threads.create(options.refundThread ? { threadId: options.refundThread } : {}));
  const request = { case_id: options.caseId ?? "INBOX-1", customer: "홍길동", requested_amount: 100000, reason: "파손된 상품" };
  const run = await call("runs.create", () => client.runs.create(thread.thread_id, "refund", { input: request }));
  await call("runs.join", () => client.runs.join(thread.thread_id, run.run_id), (values) => "__interrupt__" in values);
  await call("runs.list", () => client.runs.list(thread.thread_id), (found) => found.map((r) => r.status));
  const listed = await call("threads.search interrupted", () => client.threads.search({ offset: 0, limit: 10, status: "interrupted", metadata: { graph_id: "refund" } }), (found) => found.map((t) => [t.status, Object.keys(t.interrupts).length]));
  void listed;
  const opened = await call("threads.get", () => client.threads.get(thread.thread_id), (t) => ({ status: t.status, interrupts: Object.values(t.interrupts).flat().map((i) => Object.keys(i).sort()) }));
  void opened;
  await call("threads.getState", () => client.threads.getState(thread.thread_id), (state) => ({ next: state.next, interrupts: state.tasks.flatMap((t) => t.interrupts).length }));
}

// Agent Inbox deciding a refund or a lecture gate (see the test's comment): open the waiting thread, turn
// its HITL request into Agent Inbox's own form as normalizeInterrupt does, and send its response as
// sendHumanResponse does: runs.stream(thread, graph, {command: {resume: [response]}, streamMode: "events"}).
// The request is started with options.requesterKey on options.refundThread (or a thread the server names,
// or options.threadId already started); each decision in options.decisions is sent with its own key.
async function inboxDecide() {
  const graph = options.graph ?? "refund";
  const requester = new Client({ apiUrl: url, apiKey: options.requesterKey ?? null, callerOptions: { maxRetries: 0 } });
  let id = options.threadId;
  if (!id) {
    const request = graph === "lecture"
      ? { request: LECTURE }
      : { case_id: options.caseId, customer: "홍길동", requested_amount: options.amount, reason: "파손된 상품" };
    const thread = await call("threads.create", () => requester.threads.create(options.refundThread ? { threadId: options.refundThread } : {}), (t) => t.thread_id);
    id = thread.thread_id;
    await call("runs.wait start", () => requester.runs.wait(id, graph, { input: request }), (values) => "__interrupt__" in values);
  }
  if (options.resolve) {
    // Agent Inbox's "resolve" (ThreadContext.tsx, ignoreThread): mark the thread done without an answer.
    const resolver = new Client({ apiUrl: url, apiKey: options.resolve, callerOptions: { maxRetries: 0 } });
    await call("resolve", () => resolver.threads.updateState(id, { values: null, asNode: "__end__" }));
  }
  for (const decision of options.decisions) {
    const approver = new Client({ apiUrl: url, apiKey: decision.key ?? null, callerOptions: { maxRetries: 0 } });
    const state = await call("threads.getState", () => approver.threads.getState(id), (s) => s.tasks.flatMap((t) => t.interrupts).length);
    const value = state ? (await approver.threads.getState(id)).tasks.flatMap((t) => t.interrupts)[0]?.value : undefined;
    const asked = value?.action_requests?.[0];
    const allowed = value?.review_configs?.[0]?.allowed_decisions ?? [];
    const action = asked ? { action: asked.name, args: asked.arguments ?? {} } : { action: "pay_refund", args: {} };
    let response;
    if (decision.type === "accept") response = { type: "accept", args: action };
    else if (decision.type === "edit") response = { type: "edit", args: { ...action, args: { ...action.args, amount: decision.amount } } };
    else if (decision.type === "response") response = { type: "response", args: decision.message };
    else response = { type: decision.type, args: null };
    await stream(`decide ${decision.label}`, approver.runs.stream(id, graph, { command: { resume: [response] }, streamMode: "events" }));
    trace[trace.length - 1].allowed = allowed;
    const after = graph === "lecture"
      ? (s) => ({ outcome: s.values.outcome ?? null, reject_reason: s.values.reject_reason ?? null, waiting: s.tasks.flatMap((t) => t.interrupts).length })
      : (s) => ({ outcome: s.values.outcome ?? null, paid_amount: s.values.paid_amount ?? null, approver: s.values.approver ?? null, waiting: s.tasks.flatMap((t) => t.interrupts).length });
    await call(`state after ${decision.label}`, () => approver.threads.getState(id), after);
  }
}

// Agent Chat UI's submits once useStream has loaded the thread's history: @langchain/langgraph-sdk 1.8.10 (the
// version Agent Chat UI ships), dist/react/stream.lgp.js:333, names the head of that history as the run's
// checkpoint (without its thread_id) on every submit, an interrupt's answer ({input: {}, command}) and a new
// message alike.
async function chatUiHead() {
  const thread = await call("threads.create", () => client.threads.create());
  const id = thread.thread_id;
  const modes = ["values", "updates", "messages-tuple", "custom"];
  const submit = { streamMode: modes, streamSubgraphs: true, streamResumable: true, onDisconnect: "continue" };
  const human = (text) => ({ id: crypto.randomUUID(), type: "human", content: [{ type: "text", text }] });
  await stream("runs.stream submit", client.runs.stream(id, "robot", { input: { messages: [human("Start the task")] }, ...submit }));
  const head = async (label) => {
    const history = await call(label, () => client.threads.getHistory(id, { limit: 10 }), (found) => found.length > 0);
    const { thread_id: _thread, ...checkpoint } = history?.[0]?.checkpoint ?? {};
    return checkpoint;
  };
  let checkpoint = await head("threads.getHistory");
  await stream("runs.stream answer at the head", client.runs.stream(id, "robot", { input: {}, command: { resume: "yes" }, checkpoint, ...submit }));
  checkpoint = await head("threads.getHistory after the answer");
  await stream("runs.stream message at the head", client.runs.stream(id, "robot", { input: { messages: [human("Once more")] }, checkpoint, ...submit }));
  await call("threads.getState", () => client.threads.getState(id), (state) => ({ next: state.next, waiting: state.tasks.flatMap((t) => t.interrupts).length }));
}

// Agent Inbox on a refund with several items, one question each: it shows a thread's first interrupt as
// getInterruptFromThread reads it (contexts/utils.ts: Object.values(thread.interrupts), each task's first
// interrupt, normalizeInterrupt) from threads.search (the inbox list) and threads.get (the opened thread,
// fetchSingleThread, again after each answer), and answers with [response], no interrupt id. Each of
// options.decisions is sent with its own key; the trace records the item shown before each.
function shownByInbox(thread) {
  const first = Object.values(thread?.interrupts ?? {}).map((asked) => asked[0]?.value)[0];
  const request = first?.action_requests?.[0];
  return first ? { item: first.item ?? null, action: request?.name, args: request?.arguments ?? {} } : null;
}

async function inboxItems() {
  const requester = new Client({ apiUrl: url, apiKey: options.requesterKey ?? null, callerOptions: { maxRetries: 0 } });
  const request = { case_id: options.caseId, customer: "홍길동", requested_amount: options.items.reduce((sum, i) => sum + i.amount, 0), reason: "파손된 상품", items: options.items };
  const thread = await call("threads.create", () => requester.threads.create({ threadId: options.refundThread }), (t) => t.thread_id);
  const id = thread.thread_id;
  await call("runs.wait start", () => requester.runs.wait(id, "refund", { input: request }), (values) => "__interrupt__" in values);
  for (const decision of options.decisions) {
    const approver = new Client({ apiUrl: url, apiKey: decision.key ?? null, callerOptions: { maxRetries: 0 } });
    const listed = await call(`listed before ${decision.label}`, () => approver.threads.search({ offset: 0, limit: 100, status: "interrupted", metadata: { graph_id: "refund" } }), (found) => shownByInbox(found.find((t) => t.thread_id === id))?.item ?? null);
    void listed;
    const opened = await approver.threads.get(id);
    const shown = shownByInbox(opened);
    trace.push({ call: `shown before ${decision.label}`, status: "ok", shape: shown?.item ?? null });
    const action = { action: shown?.action ?? "pay_refund", args: shown?.args ?? {} };
    let response;
    if (decision.type === "accept") response = { type: "accept", args: action };
    else if (decision.type === "edit") response = { type: "edit", args: { ...action, args: { ...action.args, amount: String(decision.amount) } } };
    else response = { type: decision.type, args: decision.type === "response" ? decision.message : null };
    await stream(`decide ${decision.label}`, approver.runs.stream(id, "refund", { command: { resume: [response] }, streamMode: "events" }));
  }
  await call("threads.get after", () => requester.threads.get(id), (t) => ({ status: t.status, outcome: t.values.outcome ?? null, shown: shownByInbox(t)?.item ?? null }));
}

const flows = { robot, refund, lecture, "chat-ui": chatUi, "chat-ui-head": chatUiHead, inbox, "inbox-decide": inboxDecide, "inbox-items": inboxItems };
if (!flows[flow]) {
  console.error(`unknown flow ${flow}; known: ${Object.keys(flows).join(", ")}`);
  process.exit(2);
}
await flows[flow]();
console.log(JSON.stringify({ trace }));
