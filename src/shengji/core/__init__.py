"""The pure rules engine: no I/O, no global randomness.

Example::

    >>> from shengji.core import parse_cards, cards_str
    >>> cards_str(parse_cards("♠a s10 T♥"[0:4]))
    'SA'
"""
