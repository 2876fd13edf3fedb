"""The approval robot: proposes an action, pauses, and acts only on an exact ``yes``."""

AGENT_NAME = "robot"
#: The one answer that executes. Anything else, ``Yes``, ``y`` and ``네`` included, refuses.
APPROVING_ANSWER = "yes"
