"""The lecture planner agent: a parallel multi-agent pipeline with a human gate.

Modules, one concern each: ``graph`` (nodes, routers and ``build_graph``),
``state`` (the typed state and its plain-data pieces), ``inputs`` (the six
request fields and their checks), ``answers`` (the human's answers at the two
pauses), ``brains`` (the typed steps the nodes call), ``prompts`` (one prompt
builder per job), ``parsing`` (reading model answers), ``plans`` (human plan
edits and the saved Markdown file), ``services`` (which model and research
source the settings choose), ``settings`` (reading the planner's own
settings), ``llm`` (Gemini or the embedded model), ``model`` (the
deterministic offline chat model), ``research`` (the bundled corpus or Tavily
web search), ``progress`` (plain-data views for the page), ``hitl`` (the pauses in
LangChain's human-in-the-loop shape) and ``spec`` (the planner as the
dashboard and CLI see it).
"""

AGENT_NAME = "lecture"
