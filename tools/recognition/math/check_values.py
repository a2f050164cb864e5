"""Checks the solver's value of every correctly read expression against an independent evaluator.

    quire recognize --jsonl A.jsonl --math --json > A.read.jsonl
    python3 tools/recognition/math/check_values.py A.jsonl A.read.jsonl

Issue 23 asks that the solver's value be correct for every correctly read expression. The truth
LaTeX of each composed expression (compose.py) is evaluated here, with Python's exact fractions and
floats, by a parser written from docs/MATH.md ("Solver": precedence, implicit multiplication, `%`,
`!`, functions in degrees, decimal commas), not from the Swift code. For each expression read
exactly, the value `quire recognize --math --json` printed must equal this one (numerically, to the
digits shown); an expression this evaluator cannot compute (a variable, `=` not at the end) must
have no value. Prints the counts and every disagreement; exit status 1 if there is one.
"""
from __future__ import annotations

import json
import math
import re
import sys
from fractions import Fraction

FUNCS = {"sin", "cos", "tan", "log", "ln", "exp"}


class NoValue(Exception):
    """The expression has no numeric value (a variable, a relation, a domain error)."""


def tokens(latex: str) -> list[str]:
    return re.findall(r"\\[a-zA-Z]+|\\%|[0-9]|.", latex)


class Evaluator:
    def __init__(self, toks: list[str]):
        self.t, self.i = toks, 0

    def peek(self, k=0):
        j = self.i + k
        return self.t[j] if j < len(self.t) else None

    def take(self, want=None):
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise NoValue(f"expected {want!r}, found {tok!r}")
        self.i += 1
        return tok

    def group(self):
        self.take("{")
        v = self.sum()
        self.take("}")
        return v

    # sum: product (('+'|'-') product)*
    def sum(self):
        if self.peek() in ("-", "+"):
            sign = -1 if self.take() == "-" else 1
            v = sign * self.product()
        else:
            v = self.product()
        while self.peek() in ("+", "-"):
            op = self.take()
            w = self.product()
            v = v + w if op == "+" else v - w
        return v

    # product: implicit ((× ÷ · /) implicit)*
    def product(self):
        v = self.implicit()
        while self.peek() in ("\\times", "\\div", "\\cdot", "/"):
            op = self.take()
            w = self.implicit()
            if op in ("\\div", "/"):
                if w == 0:
                    raise NoValue("division by zero")
                v = Fraction(v) / w if isinstance(v, Fraction) and isinstance(w, Fraction) else v / w
            else:
                v = v * w
        return v

    def starts_operand(self):
        tok = self.peek()
        return tok is not None and (tok.isdigit() or tok in ("(", "|", "\\frac", "\\sqrt", "\\pi")
                                    or tok[1:] in FUNCS or tok.isalpha() or tok in ("\\theta", "\\alpha", "\\beta"))

    # implicit: postfix postfix* (juxtaposition binds tighter than written operators)
    def implicit(self):
        v = self.postfix()
        while self.starts_operand():
            v = v * self.postfix()
        return v

    def postfix(self):
        v = self.power()
        while self.peek() in ("!", "\\%"):
            if self.take() == "!":
                if not (isinstance(v, Fraction) and v.denominator == 1 and 0 <= v <= 170):
                    raise NoValue("factorial of a non-integer")
                v = Fraction(math.factorial(int(v)))
            else:
                v = v / 100 if isinstance(v, Fraction) else v / 100.0
        return v

    def power(self):
        v = self.atom()
        if self.peek() == "^":
            self.take()
            e = self.group()
            v = pow_(v, e)
        return v

    def atom(self):
        tok = self.peek()
        if tok is None:
            raise NoValue("missing operand")
        if tok.isdigit():
            s = ""
            while self.peek() is not None and self.peek().isdigit():
                s += self.take()
            if self.peek() in (".", ",") and self.peek(1) is not None and self.peek(1).isdigit():
                self.take()
                s += "."
                while self.peek() is not None and self.peek().isdigit():
                    s += self.take()
            return Fraction(s)
        if tok == "(":
            self.take()
            v = self.sum()
            self.take(")")
            return v
        if tok == "|":
            self.take()
            v = self.sum()
            self.take("|")
            return abs(v)
        if tok == "\\frac":
            self.take()
            a, b = self.group(), self.group()
            if b == 0:
                raise NoValue("division by zero")
            return a / b
        if tok == "\\sqrt":
            self.take()
            return root(self.group())
        if tok == "\\pi":
            self.take()
            return math.pi
        if tok == "e":  # an unassigned e is Euler's number (docs/MATH.md); composed lines assign nothing
            self.take()
            return math.e
        if tok[1:] in FUNCS:
            self.take()
            arg = self.atom() if self.peek() == "(" else self.implicit()
            return func(tok[1:], arg)
        raise NoValue(f"no value for {tok!r}")


def root(v):
    if v < 0:
        raise NoValue("root of a negative number")
    if isinstance(v, Fraction):
        n, d = math.isqrt(v.numerator), math.isqrt(v.denominator)
        if n * n == v.numerator and d * d == v.denominator:
            return Fraction(n, d)
    return math.sqrt(float(v))


def pow_(b, e):
    if isinstance(b, Fraction) and isinstance(e, Fraction) and e.denominator == 1 and abs(e) <= 64:
        if b == 0 and e < 0:
            raise NoValue("division by zero")
        return b ** int(e)
    try:
        r = float(b) ** float(e)
    except (OverflowError, ZeroDivisionError) as x:
        raise NoValue(str(x))
    if isinstance(r, complex):
        raise NoValue("complex power")
    return r


def func(name, x):
    x = float(x)
    if name in ("sin", "cos", "tan"):
        rad = math.radians(x)
        if name == "tan" and abs(math.cos(rad)) < 1e-12:
            raise NoValue("tan of 90 degrees")
        return {"sin": math.sin, "cos": math.cos, "tan": math.tan}[name](rad)
    if name in ("log", "ln"):
        if x <= 0:
            raise NoValue("log of a non-positive number")
        return math.log10(x) if name == "log" else math.log(x)
    return math.exp(x)


def truth_value(latex: str):
    """The value the solver should show for `latex`, or None when it should show none."""
    if not latex.endswith("=") or latex.count("=") != 1 or any(r in latex for r in ("<", ">", "\\leq", "\\geq", "\\neq")):
        return None
    ev = Evaluator(tokens(latex[:-1]))
    try:
        v = ev.sum()
        if ev.peek() is not None:
            return None
        if isinstance(v, float) and not math.isfinite(v):
            return None
    except (NoValue, OverflowError, ZeroDivisionError, ValueError):
        return None
    return v


def shown_value(s: str) -> float:
    """The solver's text (`19`, `−1`, `3/34`, `36.466`, `1.551×10^{25}`) as a number."""
    s = s.replace("−", "-").replace(" ", "")
    m = re.fullmatch(r"(-?[0-9.]+)×10\^\{?(-?[0-9]+)\}?", s)
    if m:
        return float(m.group(1)) * 10 ** int(m.group(2))
    if "/" in s:
        a, b = s.split("/")
        return float(Fraction(int(a), int(b)))
    return float(s)


def agrees(truth, shown: str) -> bool:
    got = shown_value(shown)
    want = float(truth)
    if "/" not in shown and "×10" not in shown:
        digits = len(shown.split(".")[1]) if "." in shown else 0
        # Shown rounded to at most 3 digits (math.solver.fractional-part-digits), trailing zeros removed.
        return abs(got - want) <= 0.5 * 10 ** -max(digits, 3) + 1e-9 * max(1.0, abs(want))
    return abs(got - want) <= 1e-9 * max(1.0, abs(want)) or abs(got - want) <= 0.5e-3 * abs(want)


def main(truth_path: str, read_path: str) -> int:
    truth = {d["id"]: d for d in map(json.loads, open(truth_path))}
    exact = with_value = right = 0
    bad = []
    for d in map(json.loads, open(read_path)):
        t = truth[d["id"]]
        if d["latex"] != t["latex"]:
            continue
        exact += 1
        want = truth_value(t["latex"])
        if want is None:
            if d["value"] is not None and t["latex"].endswith("="):
                bad.append((t["latex"], "no value", d["value"]))
            elif d["value"] is None:
                right += 1
            continue
        with_value += 1
        if d["value"] is not None and agrees(want, d["value"]):
            right += 1
        else:
            bad.append((t["latex"], float(want), d["value"]))
    print(f"{exact} expressions read exactly, {with_value} with a value to show; "
          f"{right} of {exact} with the value (or no value) the independent evaluator gives")
    for latex, want, got in bad:
        print(f"  DISAGREE {latex}  want {want}  solver {got}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
