"""A griffe extension for the API reference (mkdocs.yml): the docstrings' doctest blocks
(``>>>`` lines and their output, up to a blank line) become ``pycon`` code blocks, so that
Markdown neither quotes them (``>``) nor reads ``['S8 S8'][0]`` as a link."""

from __future__ import annotations

from typing import Any

from griffe import Extension, Object


def fence_doctests(text: str) -> str:
    """``text`` with every doctest block fenced.

    >>> print(fence_doctests("Sum:\\n\\n>>> 1 + 1\\n2\\n\\nDone."))
    Sum:
    <BLANKLINE>
    ```pycon
    >>> 1 + 1
    2
    ```
    <BLANKLINE>
    Done.
    """
    out: list[str] = []
    inside = fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not inside and not fenced and line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not line.strip():
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


class Doctests(Extension):
    """Fences the doctest blocks of every object's docstring as it is loaded."""

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
