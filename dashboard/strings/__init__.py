"""UI strings, one module per feature: ``STRINGS = {key: (english, korean)}``."""
