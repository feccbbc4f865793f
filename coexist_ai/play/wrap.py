"""Lines folded to the terminal's width. A long line breaks between words
and goes on four spaces further in than it started, so a card's facts stay
visibly under the card; colour codes take no room."""
from __future__ import annotations

import re

COLOUR_CODE = re.compile(r"\x1b\[[0-9;]*m")
HANG = 4


def visible_length(text: str) -> int:
    return len(COLOUR_CODE.sub("", text))


def fold_line(line: str, width: int) -> list[str]:
    """`line` as lines of at most `width` visible characters (a single word
    longer than that, such as a long card id, is kept whole)."""
    if visible_length(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    indent = " " * min(lead + HANG, width // 2)
    lines: list[str] = []
    current = line[:lead]
    for word in line[lead:].split(" "):
        if current.strip() and visible_length(current) + 1 + visible_length(word) > width:
            lines.append(current)
            current = indent + word
        else:
            current += (" " if current.strip() else "") + word
    lines.append(current)
    return lines


def fold(text: str, width: int) -> str:
    return "\n".join(part for line in text.split("\n") for part in fold_line(line, width))
