"""The kit cleaning rules of compose.py (docs/MATH-MODEL.md "Data hygiene"), each pinned on synthetic
samples: corrupted sparse coordinates, oversize boxes and specks are dropped, normal samples kept.

    python3 -m unittest discover -s tools/recognition/math -p 'test_*.py'    (scripts/test runs it)

Standard library unittest over compose.py (which needs numpy); no data files, well under a second.
"""
from __future__ import annotations

import math
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compose as C  # noqa: E402

H = 6.0  # the synthetic writer's digit height (mm)


def stroke(x0, y0, x1, y1, n=None, step=0.25):
    """A straight stroke sampled every `step` mm (a pen's density), or in n points."""
    n = n or max(2, int(math.hypot(x1 - x0, y1 - y0) / step) + 1)
    return np.column_stack([np.linspace(x0, x1, n), np.linspace(y0, y1, n)]).astype(np.float64)


def digit(height=H, dx=0.0):
    """A digit-like sample: a stem and a foot, `height` mm tall."""
    return [stroke(dx + 1, 0, dx + 1, height), stroke(dx, height, dx + 2, height)]


def kit(**extra):
    """Ten digits of height H (two samples each) plus `extra` {label: [samples]}."""
    k = {d: [digit(), digit(H * 1.05, 0.3)] for d in "0123456789"}
    for lab, samples in extra.items():
        k.setdefault(lab, []).extend(samples)
    return k


def corrupted(height=H):
    """A sample with corrupted, sparse coordinates: a handful of points tens of H apart."""
    return [np.array([[0, 0], [40 * height, 3 * height], [5 * height, 60 * height], [70 * height, 10 * height]], dtype=np.float64)]


class RejectionRules(unittest.TestCase):
    def test_normal_samples_pass(self):
        self.assertIsNone(C.rejection("7", digit(), H))
        self.assertIsNone(C.rejection("(", [stroke(0, 0, 0.5, 2.5 * H)], H), "a tall bracket is not oversize")
        self.assertIsNone(C.rejection(".", [np.array([[0, 0], [0.1, 0.1]])], H), "a dot is small by nature")
        self.assertIsNone(C.rejection("-", [np.array([[0, 0], [0.2, 0]])], H))

    def test_sparse_coordinates(self):
        self.assertEqual(C.rejection("3", corrupted(), H), "sparse")
        # Dense ink as long as the sparse one is not sparse (it is oversize).
        self.assertEqual(C.rejection("3", [stroke(0, 0, 40 * H, 0)], H), "oversize")
        # The threshold: a mean step just over / under 0.5 H.
        over = [stroke(0, 0, 0, 3 * 0.51 * H, n=4)]
        under = [stroke(0, 0, 0, 3 * 0.49 * H, n=4)]
        self.assertEqual(C.rejection("1", over, H), "sparse")
        self.assertIsNone(C.rejection("1", under, H))

    def test_oversize_box(self):
        self.assertEqual(C.rejection("(", [stroke(0, 0, 0, 6.5 * H)], H), "oversize")
        self.assertEqual(C.rejection("x", [stroke(0, 0, 7 * H, 1)], H), "oversize", "width counts too")
        self.assertIsNone(C.rejection("(", [stroke(0, 0, 0, 5.5 * H)], H))

    def test_specks(self):
        speck = [np.array([[0, 0], [0.3, 0.2], [0.5, 0.4]])]  # 3 points, 0.5 mm < 0.15 H
        self.assertEqual(C.rejection("a", speck, H), "speck")
        self.assertEqual(C.rejection("4", speck, H), "speck")
        self.assertIsNone(C.rejection(",", speck, H), "a comma may be a speck")
        four = [np.array([[0, 0], [0.1, 0.1], [0.3, 0.2], [0.5, 0.4]])]
        self.assertIsNone(C.rejection("a", four, H), "more than 3 points is ink")
        self.assertIsNone(C.rejection("a", [np.array([[0, 0], [1.0, 0.5]])], H), "0.15 H or more is ink")

    def test_no_height_no_judgement(self):
        self.assertIsNone(C.rejection("3", corrupted(), 0.0))


class KitHygiene(unittest.TestCase):
    def test_each_rule_drops_and_normal_samples_stay(self):
        speck = [np.array([[0, 0], [0.2, 0.3]])]
        k = kit(**{"3": [corrupted()], "(": [[stroke(0, 0, 0.5, 2.5 * H)], [stroke(0, 0, 0, 8 * H)]], "a": [speck, digit(0.7 * H)],
                   ".": [speck]})
        out, dropped = C.hygiene(k)
        self.assertEqual(set(dropped), set(C.HYGIENE_RULES))
        self.assertEqual(dropped["sparse"], ["3"])
        self.assertEqual(dropped["oversize"], ["("])
        self.assertEqual(dropped["speck"], ["a"])
        self.assertEqual(len(out["3"]), 2, "the two normal 3s stay")
        self.assertEqual(len(out["("]), 1)
        self.assertEqual(len(out["a"]), 1)
        self.assertEqual(len(out["."]), 1, "a dot stays")
        self.assertEqual(sum(len(v) for v in out.values()), sum(len(v) for v in k.values()) - 3)

    def test_height_is_measured_without_corrupted_digits(self):
        # Enough corrupted digits to pull the median digit height far up: the second measure,
        # without the sparse ones, gives H back, so a 7 H bracket is still oversize.
        k = kit(**{"(": [[stroke(0, 0, 0, 7 * H)]]})
        for d in "0123456789":
            k[d] += [corrupted(), corrupted(), corrupted()]
        self.assertGreater(C.digit_height(k), 10 * H, "the first measure is corrupted")
        out, dropped = C.hygiene(k)
        self.assertEqual(sorted(dropped["sparse"]), sorted("0123456789" * 3))
        self.assertEqual(dropped["oversize"], ["("])
        self.assertNotIn("(", out)
        self.assertTrue(all(len(out[d]) == 2 for d in "0123456789"))

    def test_a_label_with_nothing_left_goes(self):
        out, _ = C.hygiene(kit(**{"x": [corrupted()]}))
        self.assertNotIn("x", out)

    def test_a_clean_kit_is_unchanged(self):
        k = kit(**{"+": [[stroke(0, 3, 4, 3), stroke(2, 1, 2, 5)]]})
        out, dropped = C.hygiene(k)
        self.assertEqual({lab: len(v) for lab, v in out.items()}, {lab: len(v) for lab, v in k.items()})
        self.assertFalse(any(dropped.values()))


if __name__ == "__main__":
    unittest.main()
