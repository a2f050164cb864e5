"""The math alphabet: classifier classes, their LaTeX, and where each sits on a written line.

Classifier classes (index 0 is the CTC blank, class i + 1 is CHARSET[i], as in the text network):
digits, Latin letters, ASCII operators and brackets, the symbols UNIPEN lacks (× ÷ ± π θ α β ≤ ≥ ≠ √)
and JUNK, "this stroke group is not one symbol" (pieces of two or more symbols). The fraction bar and
the minus are both '-', the centred dot and the decimal point both '.': the structure parser tells
them apart by position, not the classifier.
"""
from __future__ import annotations

DIGITS = "0123456789"
LOWER = "abcdefghijklmnopqrstuvwxyz"
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
OPERATORS = "+-=()[]{}|.,!%/<>?"
EXTRA = "×÷±πθαβ≤≥≠√"   # not in UNIPEN: stroke models (strokes.py) or built from the writer's own glyphs
JUNK = "∅"
CHARSET = DIGITS + LOWER + UPPER + OPERATORS + EXTRA + JUNK
NUM_CLASSES = len(CHARSET) + 1
INDEX = {c: i + 1 for i, c in enumerate(CHARSET)}

# Canonical LaTeX (issue 23): commands for these, the character itself for everything else.
LATEX = {"×": r"\times", "÷": r"\div", "·": r"\cdot", "±": r"\pm", "≤": r"\leq", "≥": r"\geq",
         "≠": r"\neq", "π": r"\pi", "θ": r"\theta", "α": r"\alpha", "β": r"\beta",
         "{": r"\{", "}": r"\}", "%": r"\%"}  # a bare % would start a TeX comment
FUNCTIONS = ("sin", "cos", "tan", "log", "ln", "exp")

# Initialise the new output rows from the text network's row of a look-alike ASCII character.
LOOKALIKE = {"×": "x", "÷": "+", "±": "+", "π": "n", "θ": "0", "α": "a", "β": "B", "≤": "<",
             "≥": ">", "≠": "=", "√": "v", JUNK: "~"}

# Vertical placement in units of the digit height H, y down, baseline at 0: (top, bottom) for glyphs
# placed by their box, or ("c", centre, extent) for glyphs centred on the math axis.
AXIS = -0.42
ASCENDERS = set("bdfhklt")
DESCENDERS = set("gpqy")
XHEIGHT = 0.62


def metrics(sym: str):
    if sym in DIGITS or sym in UPPER or sym in "!?%θ" or sym in ASCENDERS:
        return ("box", -1.0, 0.0)
    if sym == "β":
        return ("box", -1.0, 0.3)
    if sym == "i":
        return ("box", -0.9, 0.0)
    if sym == "j":
        return ("box", -0.9, 0.35)
    if sym in DESCENDERS:
        return ("box", -XHEIGHT, 0.35)
    if sym in LOWER or sym in "απ":
        return ("box", -XHEIGHT, 0.0)
    if sym in "()[]{}|":
        return ("box", -1.1, 0.2)
    if sym == "/":
        return ("box", -1.05, 0.1)
    if sym == ".":
        return ("dot", 0.0, 0.1)
    if sym == "·":
        return ("dot", AXIS, 0.1)
    if sym == ",":
        return ("box", -0.12, 0.25)
    if sym in "-":
        return ("wide", AXIS, 0.5)
    if sym in "=":
        return ("wide", AXIS, 0.55)
    if sym in "+":
        return ("c", AXIS, 0.62)
    if sym in "×":
        return ("c", AXIS, 0.45)
    if sym in "÷≠":
        return ("c", AXIS, 0.6)
    if sym in "±≤≥":
        return ("c", AXIS, 0.72)
    if sym in "<>":
        return ("c", AXIS, 0.58)
    raise KeyError(sym)


def latex_of(sym: str) -> str:
    return LATEX.get(sym, sym)


def join_latex(parts: list[str]) -> str:
    """Concatenate LaTeX tokens with no spaces, except that a control word followed by a letter needs
    one (`\\pi x`, not `\\pix`): the only space the canonical form has."""
    out = ""
    for p in parts:
        if out and p and p[0].isalpha() and out[-1].isalpha():
            i = len(out) - 1
            while i >= 0 and out[i].isalpha():
                i -= 1
            if i >= 0 and out[i] == "\\":
                out += " "
        out += p
    return out
