"""`python -m tests.dice.golden`: agreement with BCDice's test vectors, family by family."""

from __future__ import annotations

from . import EXCLUDED, agreement, disagreement, vectors

if __name__ == "__main__":
    total = [0, 0, 0]
    print(f"{'family':<14}{'agree':>7}{'compared':>10}{'excluded':>10}")
    for family, counts in agreement().items():
        print(f"{family:<14}{counts[0]:>7}{counts[1]:>10}{counts[2]:>10}")
        total = [t + c for t, c in zip(total, counts, strict=True)]
    print(f"{'all':<14}{total[0]:>7}{total[1]:>10}{total[2]:>10}")
    for vector in vectors():
        problem = None if vector.name in EXCLUDED else disagreement(vector)
        if problem:
            print(f"  {vector.name} {vector.input!r}: {problem}")
