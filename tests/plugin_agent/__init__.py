"""A fourth agent defined entirely under ``tests/``, to prove that an agent is a plug-in.

Nothing outside this package knows it: the tests register it with one line
(``registry.AGENTS["greeter"] = SPEC``) and then find it in the navigation,
the inbox, the CLI, the generic forms, the database's tables and the settings.
"""
