"""Hypothesis properties over generated commands of every family, and over arbitrary text."""

from __future__ import annotations

import random
import time

from hypothesis import given
from hypothesis import strategies as st

from domain.dice import (
    MAX_DEPTH,
    MAX_DICE,
    MAX_LENGTH,
    MAX_REROLLS,
    DiceError,
    Expression,
)
from domain.rulesets.ninja_slayer.dice import parse  # the common commands and Ninja Slayer's

_OPS = st.sampled_from([">=", "<=", ">", "<", "=", "!=", "=>", "=<", "<>"])
_SIDES = st.sampled_from([2, 4, 6, 8, 10, 12, 20, 100, 1000])
_SMALL_SIDES = st.sampled_from([2, 3, 4, 6, 10, 20])


@st.composite
def sum_commands(draw: st.DrawFn) -> str:
    budget = MAX_DICE
    pieces = []
    for index in range(draw(st.integers(1, 4))):
        sign = draw(st.sampled_from(["+", "-"])) if index else draw(st.sampled_from(["", "-"]))
        if index == 0 or draw(st.booleans()):
            count = draw(st.integers(1, max(1, budget // 4)))
            budget -= count
            pieces.append(f"{sign}{count}{draw(st.sampled_from('Dd'))}{draw(_SIDES)}")
        else:
            pieces.append(f"{sign}{draw(st.integers(0, 999))}")
    if draw(st.booleans()):
        target = draw(st.integers(-50, 500))
        pieces.append(f"{draw(_OPS)}{target}")
    return "".join(pieces)


@st.composite
def dice_term(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 8))
    kind = draw(st.sampled_from(["plain", "keep", "maxmin", "bare", "implicit", "d66"]))
    if kind == "keep":
        rule = draw(st.sampled_from(["KH", "KL", "DH", "DL", "kh", "dl"]))
        return f"{count}D{draw(_SIDES)}{rule}{draw(st.integers(0, 9))}"
    if kind == "maxmin":
        return f"{count}D{draw(_SIDES)}{draw(st.sampled_from(['MAX', 'MIN', 'max']))}"
    if kind == "bare":
        return f"D{draw(_SIDES)}"
    if kind == "implicit":
        return f"{count}D"
    if kind == "d66":
        return f"{count}D66"
    return f"{count}{draw(st.sampled_from('Dd'))}{draw(_SIDES)}"


@st.composite
def operand(draw: st.DrawFn, depth: int = 0) -> str:
    choice = draw(st.integers(0, 3 if depth < 2 else 1))
    if choice == 0:
        return str(draw(st.integers(0, 99)))
    if choice == 1:
        return draw(dice_term())
    inner = draw(arithmetic(depth + 1))
    return f"{draw(st.sampled_from(['', '-']))}({inner})"


@st.composite
def arithmetic(draw: st.DrawFn, depth: int = 0) -> str:
    text = draw(operand(depth))
    for _ in range(draw(st.integers(0, 2))):
        op = draw(st.sampled_from(["+", "-", "*", "/", "--", "+-"]))
        if op == "/":  # divisors that cannot be 0: a positive number or dice
            divisor = draw(st.one_of(st.integers(1, 9).map(str), dice_term()))
            text += f"/{divisor}{draw(st.sampled_from(['', 'U', 'C', 'R', 'F']))}"
        else:
            text += op + draw(operand(depth))
    return text


@st.composite
def numbers_only(draw: st.DrawFn, depth: int = 0) -> str:
    text = str(draw(st.integers(0, 99)))
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["+", "-", "*", "/", "--"]))
        if op == "/":
            text += f"/{draw(st.integers(1, 9))}{draw(st.sampled_from(['', 'U', 'C', 'R', 'F']))}"
        elif depth < 2 and draw(st.booleans()):
            text += f"{op}({draw(numbers_only(depth + 1))})"
        else:
            text += f"{op}{draw(st.integers(0, 99))}"
    return text


@st.composite
def full_sum_commands(draw: st.DrawFn) -> str:
    text = draw(arithmetic())
    if "D" not in text.upper():
        text = f"{draw(dice_term())}+{text}"
    if draw(st.booleans()):
        text += f"{draw(_OPS)}{draw(st.integers(-20, 99))}{draw(st.sampled_from(['', '+1', '*2']))}"
    return text


@st.composite
def pool_commands(draw: st.DrawFn) -> str:
    groups = [f"{draw(st.integers(1, 20))}B{draw(_SIDES)}" for _ in range(draw(st.integers(1, 4)))]
    tail = f"{draw(_OPS)}{draw(st.integers(0, 20))}" if draw(st.booleans()) else ""
    return "+".join(groups) + tail


# Reroll conditions that some face of every die generated (2+ sides) escapes.
_REROLL_CONDITIONS = st.one_of(
    st.integers(2, 7).map(lambda t: f"[{t}]"),
    st.integers(2, 7).map(lambda t: f"[>={t}]"),
    st.integers(1, 6).map(lambda t: f"[>{t}]"),
    st.sampled_from(["[<=1]", "[=1]", "[<2]", "[!=1]", "[=2]"]),
)


@st.composite
def reroll_commands(draw: st.DrawFn) -> str:
    groups = "+".join(
        f"{draw(st.integers(1, 8))}R{draw(_SMALL_SIDES)}" for _ in range(draw(st.integers(1, 3)))
    )
    target = f">={draw(st.integers(1, 8))}" if draw(st.booleans()) else ""
    condition = draw(_REROLL_CONDITIONS)
    if draw(st.booleans()):
        return f"{groups}{target}@{condition[1:-1]}"
    return f"{groups}{condition}{target}"


@st.composite
def upper_commands(draw: st.DrawFn) -> str:
    groups = "+".join(
        f"{draw(st.integers(1, 8))}U{draw(_SMALL_SIDES)}" for _ in range(draw(st.integers(1, 3)))
    )
    modifier = draw(st.sampled_from(["", "+3", "-2", "+1+2"]))
    target = f"{draw(_OPS)}{draw(st.integers(1, 30))}" if draw(st.booleans()) else ""
    threshold = draw(st.integers(2, 21))
    if draw(st.booleans()):
        return f"{groups}{modifier}{target}@{threshold}"
    return f"{groups}[{threshold}]{modifier}{target}"


_LABELS = st.sampled_from(["2", "3", "4", "5", "6", "K", "E", "N", "H", "U", "UH", "UH2", "UH3"])
_LETTERS = st.sampled_from(["K", "E", "N", "H", "U", "UH"])
_EXTRAS = st.sampled_from(["[S]", "[C]", "[S5]", "[C2]", "[>=5]", "[!=1]", "[<3]", "[=6]"])


@st.composite
def ninja_commands(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["check", "NJ", "AT", "EV", "EL", "WS"]))
    if kind == "check":
        pools = []
        for index in range(draw(st.integers(1, 4))):
            letter = draw(_LETTERS) if index == 0 or draw(st.booleans()) else ""
            pools.append(f"{letter}{draw(st.integers(0, 20))}")
        extras = "".join(draw(st.lists(_EXTRAS, max_size=3)))
        return ",".join(pools) + extras
    if kind == "WS":
        return f"WS{draw(st.integers(0, 99))}"
    text = f"{kind}{draw(st.integers(0, 30))}"
    style = draw(st.sampled_from(["", "[]", "@"]))
    if style == "[]":
        text += f"[{draw(_LABELS)}]"
    elif style == "@":
        text += f"@{draw(_LABELS)}"
    if kind == "EV" and draw(st.booleans()):
        text += f"/{draw(st.integers(0, 10))}"
    return text


_ITEM = st.text(alphabet="abcXYZ1あ", min_size=1, max_size=4)


@st.composite
def other_commands(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["d66", "calc", "choice"]))
    if kind == "d66":
        return "D66" + draw(st.sampled_from(["", "A", "S", "N", "D"]))
    if kind == "calc":
        return f"C({draw(numbers_only())})"
    items = draw(st.lists(_ITEM, min_size=1, max_size=5))
    form = draw(st.sampled_from(["[]", "()", " "]))
    if form == " ":
        return "choice " + " ".join(items)
    return f"choice{form[0]}{','.join(items)}{form[1]}"


single = st.one_of(
    sum_commands(),
    full_sum_commands(),
    pool_commands(),
    reroll_commands(),
    upper_commands(),
    ninja_commands(),
    other_commands(),
)


@st.composite
def repeated(draw: st.DrawFn) -> str:
    return (
        f"{draw(st.sampled_from(['x', 'rep', 'repeat']))}{draw(st.integers(1, 3))} {draw(single)}"
    )


commands = st.one_of(single, repeated())
secret_prefix = st.sampled_from(["", "S", "s"])


def parsed(prefix: str, command: str) -> Expression | None:
    """The expression, or None when the generated command is refused for a limit or a value
    that can be 0 (the generators keep to valid syntax, not to every bound)."""
    try:
        return parse(prefix + command)
    except DiceError as error:
        assert error.code == "dice_limit" or "division by" in error.message, (command, error)
        return None


@given(secret_prefix, commands)
def test_text_round_trips(prefix: str, command: str) -> None:
    expr = parsed(prefix, command)
    if expr is None:
        return
    assert expr.secret is bool(prefix)
    again = parse(expr.text)
    assert again.text == expr.text
    assert again.dice == expr.dice
    assert again.secret is False


@given(commands)
def test_full_width_input_parses_the_same(command: str) -> None:
    expr = parsed("", command)
    if expr is None or "choice" in command:  # CHOICE items keep their width
        return
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in command)
    assert parse(wide).text == expr.text


@given(secret_prefix, commands, st.randoms(use_true_random=False))
def test_any_roll_replays_from_its_faces(prefix: str, command: str, rng: random.Random) -> None:
    expr = parsed(prefix, command)
    if expr is None:
        return
    rolled = expr.roll(lambda sides: rng.randint(1, sides))
    result = rolled.result
    assert sum(r.count for r in rolled.requests) == len(result.faces)
    sides = [r.sides for r in rolled.requests for _ in range(r.count)]
    assert all(1 <= face <= s for face, s in zip(result.faces, sides, strict=True))
    assert expr.replay(list(result.faces)) == rolled
    assert parse(expr.text).evaluate(result.faces) == result
    written = sum(r.count for r in expr.dice)
    assert written <= MAX_DICE
    assert written <= len(result.faces) <= written + (MAX_REROLLS if expr.rerolls else 0)
    if not expr.rerolls:
        assert [(r.count, r.sides) for r in rolled.requests] == [
            (r.count, r.sides) for r in expr.dice
        ]
    if result.parts:
        assert tuple(f for p in result.parts for f in p.faces) == result.faces
    assert result.explanation
    assert "\n" not in result.explanation
    dumped = result.model_dump(mode="json")
    assert isinstance(dumped, dict)
    assert dumped == parse(expr.text).evaluate(result.faces).model_dump(mode="json")


@given(commands, st.randoms(use_true_random=False), st.data())
def test_out_of_range_faces_are_refused(
    command: str, rng: random.Random, data: st.DataObject
) -> None:
    expr = parsed("", command)
    if expr is None:
        return
    rolled = expr.roll(lambda sides: rng.randint(1, sides))
    faces = list(rolled.result.faces)
    if not faces:
        return
    sides = [r.sides for r in rolled.requests for _ in range(r.count)]
    index = data.draw(st.integers(0, len(faces) - 1))
    bad = data.draw(st.one_of(st.integers(max_value=0), st.integers(min_value=sides[index] + 1)))
    faces[index] = bad
    try:
        expr.evaluate(faces)
    except DiceError as error:
        assert error.code == "bad_faces"
    else:
        raise AssertionError(f"face {bad} for a d{sides[index]} was accepted")


@given(commands, st.randoms(use_true_random=False), st.integers(1, 3), st.booleans())
def test_wrong_face_count_is_refused(
    command: str, rng: random.Random, change: int, add: bool
) -> None:
    expr = parsed("", command)
    if expr is None:
        return
    faces = list(expr.roll(lambda sides: rng.randint(1, sides)).result.faces)
    added = add or len(faces) < change
    wrong = faces + [1] * change if added else faces[:-change]
    # Faces are read in order, so the first ones ask for the same dice whatever follows:
    # fewer faces always run out, more are always left over.
    try:
        expr.evaluate(wrong)
    except DiceError as error:
        assert error.code == "bad_faces"
        if not expr.rerolls or added:
            assert f"expected {len(faces)} faces" in error.message
        else:
            assert "not enough faces" in error.message
    else:
        raise AssertionError("a wrong number of faces was accepted")


_DICE_ALPHABET = (
    "0123456789DdBbRrUuKkHhLlMmAaXxIiNnSsCcEeFfJjTtVvWwPpOo+-*/()[]<>=!@,?_  ２ＤＳ　あ回避"
)


def _parses_or_refuses(raw: str) -> None:
    try:
        expr = parse(raw)
    except DiceError as error:
        assert error.code in {"dice_syntax", "dice_limit", "dice_unsupported"}
        assert error.position is None or 0 <= error.position <= len(raw)
        assert error.message
    else:
        assert parse(expr.text).text == expr.text
        rolled = expr.roll(lambda sides: sides)  # the highest faces: the most rerolls
        assert expr.replay(rolled.result.faces) == rolled


@given(st.text(max_size=40))
def test_arbitrary_text_parses_or_raises_dice_error(raw: str) -> None:
    _parses_or_refuses(raw)


@given(st.text(alphabet=_DICE_ALPHABET, max_size=MAX_LENGTH + 5))
def test_random_dice_like_text_never_crashes_or_hangs(raw: str) -> None:
    # Hypothesis' deadline (200 ms an example) fails a slow parse; every loop takes a token.
    _parses_or_refuses(raw)


@given(st.lists(st.sampled_from(["(", ")", "1", "D", "6", "+", "-", "*", "/", "U"]), max_size=200))
def test_token_soup_never_crashes_or_hangs(tokens: list[str]) -> None:
    _parses_or_refuses("".join(tokens))


def test_the_worst_inputs_stay_fast() -> None:
    worst = [
        "(" * MAX_DEPTH + "1D6" + ")" * MAX_DEPTH + "+1" * 90,
        "-" * (MAX_LENGTH - 3) + "1D6",
        "1D6" + "*1" * 98,
        "N1" + ",1" * 99,
        "x100 C(" + "1+" * 45 + "1)",
        "choice[" + "a," * 95 + "b]",
        "1R1000[<=999]>=1",  # rerolls nearly always: stops at MAX_REROLLS
    ]
    for raw in worst:
        started = time.perf_counter()
        _parses_or_refuses(raw[:MAX_LENGTH])
        assert time.perf_counter() - started < 1.0, raw


@given(
    commands,
    st.lists(st.tuples(st.integers(0, 200), st.sampled_from(_DICE_ALPHABET)), max_size=4),
    st.lists(st.integers(0, 200), max_size=3),
)
def test_near_valid_commands_never_crash(
    command: str, inserts: list[tuple[int, str]], deletes: list[int]
) -> None:
    text = command
    for at, char in inserts:
        at %= len(text) + 1
        text = text[:at] + char + text[at:]
    for at in deletes:
        if text:
            at %= len(text)
            text = text[:at] + text[at + 1 :]
    _parses_or_refuses(text)
