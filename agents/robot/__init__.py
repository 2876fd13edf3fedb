"""The approval robot: proposes an action, pauses, and acts only on an exact ``yes``."""
