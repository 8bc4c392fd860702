"""Rules texts with their layout changed and nothing else: what ``warbook fmt`` must undo and
``warbook diff`` must not see (tests/dsl/test_fmt.py, tests/dsl/test_diff.py)."""

import random
import re

from warbook.dsl import reader

TOKEN = re.compile(f"({reader.SPACE})|({reader.COMMENT})|(\\n)|({reader.STRING})|({reader.ATOM})|(gap|errata)|(.)")


def mutated_layout(text: str, rng: random.Random, blank_lines: bool) -> str:
    """``text`` with its layout changed and nothing else: other spaces and tabs between tokens and
    before comments, other indentation, trailing spaces, doubled blank lines (and, with
    ``blank_lines``, blank lines added anywhere).  Quoted texts and comments are kept whole."""
    out, line_start = [], True
    for found in TOKEN.finditer(text):
        kind, value = found.lastindex, found.group()
        if kind == 1:
            value = rng.choice([" ", "  ", "\t", " \t "]) if not line_start else rng.choice(["", "  ", "\t", " " * 9])
        elif kind == 3:
            value = rng.choice(["", "", " ", "\t "]) + "\n"
            if line_start or (blank_lines and rng.random() < 0.05):  # after a blank line, or anywhere
                value += "\n" * rng.choice([0, 0, 1, 2])
            line_start = True
            out.append(value)
            continue
        else:
            if line_start and rng.random() < 0.3:
                out.append(rng.choice(["\t", "  "]))
            elif kind == 2 or rng.random() < 0.1:
                out.append(rng.choice(["", " ", "   "]) if kind != 2 or line_start else " ")
        line_start = False
        out.append(value)
    return "".join(out)
