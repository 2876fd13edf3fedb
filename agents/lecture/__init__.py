"""The lecture planner agent: a parallel multi-agent pipeline with a human gate.

Modules: ``brains`` (typed steps the graph nodes call), ``inputs`` (the six
request fields and their checks), ``parsing`` (reading model answers),
``prompts`` (one prompt builder per job), ``model`` (the deterministic offline
chat model), ``llm`` (Gemini or the embedded model, from the settings) and
``research`` (the bundled corpus or Tavily web search).
"""
