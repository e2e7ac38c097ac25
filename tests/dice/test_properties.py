"""Hypothesis properties over generated commands and faces."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from domain.dice import MAX_DICE, DiceError, Expression, parse

_OPS = st.sampled_from([">=", "<=", ">", "<", "=", "!=", "=>", "=<", "<>"])
_SIDES = st.sampled_from([2, 4, 6, 8, 10, 12, 20, 100, 1000])


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
def pool_commands(draw: st.DrawFn) -> str:
    groups = [f"{draw(st.integers(1, 20))}B{draw(_SIDES)}" for _ in range(draw(st.integers(1, 4)))]
    tail = f"{draw(_OPS)}{draw(st.integers(0, 20))}" if draw(st.booleans()) else ""
    return "+".join(groups) + tail


_LABELS = st.sampled_from(["2", "3", "4", "5", "6", "K", "E", "N", "H", "U", "UH", "UH2", "UH3"])


@st.composite
def ninja_commands(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["check", "NJ", "AT", "EV", "WS"]))
    if kind == "check":
        counts = draw(st.lists(st.integers(0, 20), min_size=1, max_size=4))
        letter = draw(st.sampled_from(["K", "E", "N", "H", "U", "UH"]))
        return letter + ",".join(map(str, counts))
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


commands = st.one_of(sum_commands(), pool_commands(), ninja_commands())
secret_prefix = st.sampled_from(["", "S", "s"])


@st.composite
def expressions_with_faces(draw: st.DrawFn) -> tuple[Expression, list[int]]:
    expr = parse(draw(secret_prefix) + draw(commands))
    faces = [draw(st.integers(1, r.sides)) for r in expr.dice for _ in range(r.count)]
    return expr, faces


@given(secret_prefix, commands)
def test_text_round_trips(prefix: str, command: str) -> None:
    expr = parse(prefix + command)
    assert expr.secret is bool(prefix)
    again = parse(expr.text)
    assert again.text == expr.text
    assert again.dice == expr.dice
    assert again.secret is False


@given(commands)
def test_full_width_input_parses_the_same(command: str) -> None:
    wide = "".join(chr(ord(c) + 0xFEE0) for c in command)
    assert parse(wide).text == parse(command).text


@given(expressions_with_faces())
def test_in_range_faces_always_evaluate(case: tuple[Expression, list[int]]) -> None:
    expr, faces = case
    result = expr.evaluate(faces)
    assert result.faces == tuple(faces)
    assert len(faces) == sum(r.count for r in expr.dice) <= MAX_DICE
    if result.successes is not None:
        assert 0 <= result.successes <= len(faces)
    if result.parts:
        assert sum(p.successes or 0 for p in result.parts) == result.successes
        assert tuple(f for p in result.parts for f in p.faces) == result.faces
    assert result.explanation
    assert "\n" not in result.explanation
    assert isinstance(result.model_dump(mode="json"), dict)


@given(expressions_with_faces())
def test_same_faces_same_result(case: tuple[Expression, list[int]]) -> None:
    expr, faces = case
    first = expr.evaluate(faces)
    assert parse(expr.text).evaluate(list(faces)) == first
    assert expr.evaluate(tuple(faces)).model_dump(mode="json") == first.model_dump(mode="json")


@given(expressions_with_faces(), st.data())
def test_out_of_range_faces_are_refused(
    case: tuple[Expression, list[int]], data: st.DataObject
) -> None:
    expr, faces = case
    if not faces:
        return
    index = data.draw(st.integers(0, len(faces) - 1))
    sides = [r.sides for r in expr.dice for _ in range(r.count)][index]
    bad = data.draw(st.one_of(st.integers(max_value=0), st.integers(min_value=sides + 1)))
    faces[index] = bad
    try:
        expr.evaluate(faces)
    except DiceError as error:
        assert error.code == "bad_faces"
        assert str(bad) in error.message
    else:
        raise AssertionError(f"face {bad} for a d{sides} was accepted")


@given(expressions_with_faces(), st.integers(min_value=1, max_value=3), st.booleans())
def test_wrong_face_count_is_refused(
    case: tuple[Expression, list[int]], change: int, add: bool
) -> None:
    expr, faces = case
    wrong = faces + [1] * change if add or len(faces) < change else faces[:-change]
    try:
        expr.evaluate(wrong)
    except DiceError as error:
        assert error.code == "bad_faces"
        assert f"expected {len(faces)} faces" in error.message
    else:
        raise AssertionError("a wrong number of faces was accepted")


@given(st.text(max_size=40))
def test_arbitrary_text_parses_or_raises_dice_error(raw: str) -> None:
    try:
        expr = parse(raw)
    except DiceError as error:
        assert error.code in {"dice_syntax", "dice_limit", "dice_unsupported"}
        assert error.position is None or 0 <= error.position <= len(raw)
    else:
        assert parse(expr.text).text == expr.text
