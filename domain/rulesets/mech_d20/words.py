"""What this ruleset's log lines share (the line of each event sits beside the event, in the
module that declares it): a roll as BCDice explained it, a unit's sheet in the rulebook's
words, the rulebook's own words as terms, and the joins a line makes.

A line is a `Message` whose keys are its Japanese (api/pages/i18n/en.po gives the English): the
rulebook's words (a condition, an action, a defence, 半壊, 成功…) are terms, read in the reader's
language; a name a player typed (a unit, a power, a weapon) and a roll's BCDice text read as
they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from domain.model.lifecycle_events import RollRecord
from domain.model.messages import N_, Items, Message

from .sheet import Sheet
from .terms import term


def joined(parts: Sequence[object], pair: Callable[[object, object], Message]) -> object:
    """Parts of a line one after another, `pair` joining each to the rest (「a; b」): the
    Japanese reads as it always did, a reader in another language reads each part in it (an
    `Items` joins with 「・」 alone). "" for no parts."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return pair(parts[0], joined(parts[1:], pair))


def semicolons(parts: Sequence[object]) -> object:
    return joined(parts, lambda a, b: Message(N_("{first}; {rest}"), {"first": a, "rest": b}))


def commas(parts: Sequence[object]) -> object:
    return joined(parts, lambda a, b: Message(N_("{first}, {rest}"), {"first": a, "rest": b}))


def spaced(parts: Sequence[object]) -> object:
    return joined(parts, lambda a, b: Message(N_("{first} {rest}"), {"first": a, "rest": b}))


def arrows(parts: Sequence[object]) -> object:
    """In order: 「a → b → c」."""
    return joined(parts, lambda a, b: Message(N_("{first} → {rest}"), {"first": a, "rest": b}))


def noted(line: object, note: object) -> Message:
    """A line with a note after it in parentheses: 「… (突撃)」."""
    return Message(N_("{line} ({note})"), {"line": line, "note": note})


def bracketed(line: object, more: object) -> Message:
    """A line with more after it in brackets: its rolls 「… [1D20+9 ＞ …]」, its flags."""
    return Message(N_("{line} [{more}]"), {"line": line, "more": more})


def seat_called(number: int, seats: Mapping[int, str]) -> object:
    """A seat by its name, or 「席N」 (read in the reader's language) before it has one."""
    return seats.get(number) or Message(N_("席{seat}"), {"seat": number})


def roll_words(record: RollRecord | None) -> str:
    """A roll's explanation (its expression where there is none); "" for no roll."""
    if record is None:
        return ""
    return str(record.result.get("explanation") or record.expression)


def sheet_words(sheet: Sheet) -> Message:
    """A unit's sheet as a sheet reads, in the rulebook's words: level and abilities; defences;
    hp and 回復力; speed and size; weapons; powers."""
    abilities = spaced(
        [
            Message(N_("【{ability}】{value}"), {"ability": term(name), "value": value})
            for name, value in sheet.abilities.items()
        ]
    )
    defences = spaced(
        [
            Message(N_("{defence}{value}"), {"defence": term(name), "value": value})
            for name, value in sheet.defences.items()
        ]
    )
    hp: Message = Message(N_("hp{hp}"), {"hp": sheet.max_hp})
    if sheet.surges:
        hp = Message(
            N_("{line} 回復力{surges} (回復力値{value})"),
            {"line": hp, "surges": sheet.surges, "value": sheet.surge_value},
        )
    if sheet.durability:
        hp = Message(
            N_("{line} 耐久力基本値{durability}"), {"line": hp, "durability": sheet.durability}
        )
    moves = Message(N_("移動力{speed} サイズ{size}"), {"speed": sheet.speed, "size": sheet.size})
    if sheet.super_sight:
        moves = Message(N_("{line} 超視覚{sight}"), {"line": moves, "sight": sheet.super_sight})
    parts: list[object] = [
        Message(
            N_("レベル{level} {abilities} 習熟ボーナス+{proficiency}"),
            {"level": sheet.level, "abilities": abilities, "proficiency": sheet.proficiency},
        ),
        defences,
        hp,
        moves,
    ]
    if sheet.weapons:
        weapons = Items(
            Message(N_("{weapon} {die}"), {"weapon": w.name, "die": w.die}) for w in sheet.weapons
        )
        parts.append(Message(N_("武器: {weapons}"), {"weapons": weapons}))
    if sheet.powers:
        powers = Items(bracketed(term(p.name), term(p.frequency)) for p in sheet.powers)
        parts.append(Message(N_("パワー: {powers}"), {"powers": powers}))
    sheet_line = semicolons(parts)
    assert isinstance(sheet_line, Message)  # four parts at least
    return sheet_line
