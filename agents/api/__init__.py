"""The HTTP API (``python -m agents serve``): FastAPI on the dashboard's own database.

The lecture planner's ``/generate`` and ``/resume`` (drop-in compatible with the service it grew
from) and a subset of the LangGraph server API, so the official ``langgraph-sdk`` client works
against the local save file. Every change goes through :mod:`agents.runs`, with its leases,
validators and the agents' rules, so the dashboard, the CLI and the API can act on the same
threads at the same time. See :func:`agents.api.app.create_app`.
"""
