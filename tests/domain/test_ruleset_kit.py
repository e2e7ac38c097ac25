"""The ruleset kit: declarations checked at import, tables narrow, dice that count themselves."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from domain.dice import DiceError
from domain.model import lifecycle
from domain.model.table import Table
from domain.rulesets import register, ruleset_for
from domain.rulesets.ninja_slayer.dice import NINJA_DICE
from tests.dice.test_words import ZAP
from tests.domain.test_decider import new_game
from tests.rulesets.ninja_slayer.harness import Game as NinjaGame

HEADER = """
from pydantic import BaseModel
from domain.model.commands import Command
from domain.model.events import Event
from domain.model.records import Draft
from domain.model.ruleset import Ruleset
from domain.model.secrecy import RulesView

class State(BaseModel):
    pass

class NoView(RulesView):
    pass

RULES = Ruleset("{name}", "1", state=State, options=State,
                initial=lambda options, seats: State(), summary="a test")
RULES.views(lambda t, audience: NoView())

@RULES.command("vanish")
class Vanish(Command):
    pass

@RULES.event
class Vanished(Event):
    pass
"""


def _load(tmp_path: Path, name: str, body: str) -> ModuleType:
    """Import a ruleset module written to `tmp_path`, as a ruleset's package would."""
    path = tmp_path / f"{name}.py"
    path.write_text(HEADER.format(name=name) + textwrap.dedent(body), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_a_command_without_a_decider_fails_at_import_naming_it(tmp_path: Path) -> None:
    body = """
    RULES.ignores(Vanished)
    RULES.complete()
    """
    with pytest.raises(TypeError) as refused:
        _load(tmp_path, "kit_no_decider", body)
    message = str(refused.value)
    assert "ruleset kit_no_decider" in message
    assert "command 'kit_no_decider.vanish' (Vanish) has no decider" in message


def test_an_event_without_a_fold_fails_at_import_naming_it(tmp_path: Path) -> None:
    body = """
    @RULES.decides(Vanish)
    def vanish(t, command, actor):
        return [Draft(Vanished())]

    RULES.complete()
    """
    with pytest.raises(TypeError) as refused:
        _load(tmp_path, "kit_no_fold", body)
    assert "event 'kit_no_fold.Vanished' (Vanished) has no fold" in str(refused.value)


def test_a_complete_ruleset_loads(tmp_path: Path) -> None:
    body = """
    @RULES.decides(Vanish)
    def vanish(t, command, actor):
        return [Draft(Vanished())]

    RULES.ignores(Vanished)  # on the record, nothing to fold
    RULES.complete()
    """
    module = _load(tmp_path, "kit_complete", body)
    rules = module.RULES
    assert rules.complete() is rules
    (command,) = rules.commands
    assert command.model_fields["type"].default == "kit_complete.vanish"
    assert command().type == "kit_complete.vanish"
    assert [e.type for e in rules.events] == ["kit_complete.Vanished"]


def test_an_incomplete_ruleset_is_not_registered(tmp_path: Path) -> None:
    module = _load(tmp_path, "kit_unregistered", "")
    with pytest.raises(TypeError, match=r"kit_unregistered\.vanish"):
        register(module.RULES)


def test_declaring_twice_or_for_another_ruleset_is_refused(tmp_path: Path) -> None:
    module = _load(tmp_path, "kit_twice", "")
    other = _load(tmp_path, "kit_other", "")
    with pytest.raises(TypeError, match="not a command declared by this ruleset"):
        module.RULES.decides(other.Vanish)(lambda t, c, a: [])
    module.RULES.folds(module.Vanished)(lambda s, e, q: s)
    with pytest.raises(TypeError, match="two folds"):
        module.RULES.ignores(module.Vanished)


def test_a_table_holds_no_seed_credentials_or_sealed_bodies() -> None:
    fields = {f.name for f in dataclasses.fields(Table)}
    assert fields == {
        "status",
        "seats",
        "options",
        "rules",
        "referee",
        "referee_actor",
        "next_seq",
        "dice",
    }
    table = lifecycle.table_for(new_game())
    for secret in ("server_seed", "credentials", "unrevealed", "invites", "sessions"):
        assert not hasattr(table, secret)


def test_the_table_dice_number_their_own_draws() -> None:
    state = new_game("both")
    table = lifecycle.table_for(state)
    first = table.dice.roll("2D6")
    manual = table.dice.roll("1D6", faces=[4])  # physical dice take no draw number
    second = table.dice.roll("1D20>=10")
    shuffle = table.dice.shuffle(5)
    assert first.record.draw is not None and second.record.draw is not None
    numbers = [first.record.draw.roll, second.record.draw.roll, shuffle.roll]
    assert numbers == [state.draws + 1, state.draws + 2, state.draws + 3]
    assert manual.record.manual and manual.faces == (4,) and manual.total == 4
    assert second.result.success is (second.total >= 10)  # a typed result


def test_a_ruleset_declares_its_dice_words_through_the_kit(tmp_path: Path) -> None:
    body = """
    from tests.dice.test_words import ZAP

    @RULES.decides(Vanish)
    def vanish(t, command, actor):
        return [Draft(Vanished())]

    RULES.ignores(Vanished)
    RULES.dice_words(ZAP)
    RULES.complete()
    """
    rules = _load(tmp_path, "kit_dice_words", body).RULES
    assert rules.words == (ZAP,)
    assert rules.parse_dice("SZAP 雷").secret
    with pytest.raises(DiceError, match="unknown dice command 'ZAP'"):
        ruleset_for("freeform").parse_dice("ZAP")
    with pytest.raises(TypeError, match="dice words declared after the ruleset was complete"):
        rules.dice_words(ZAP)
    assert ruleset_for("ninja_slayer").words == (NINJA_DICE,)
    assert ruleset_for("chojin_locke").words == ruleset_for("mech_d20").words == ()


def test_a_games_typed_dice_read_its_rulesets_words_only() -> None:
    freeform = lifecycle.table_for(new_game("both"))
    with pytest.raises(DiceError) as refused:
        freeform.dice.roll("NJ4[N]", faces=[1, 2, 6, 6])
    assert refused.value.code == "dice_unsupported"
    assert refused.value.message.startswith("unknown dice command 'NJ'")
    assert "Ninja Slayer" not in refused.value.message  # it names what this game reads
    ninja = lifecycle.table_for(NinjaGame(policy="both").state)
    rolled = ninja.dice.roll("NJ4[N]", faces=[1, 2, 6, 6])
    assert (rolled.record.expression, rolled.result.successes) == ("NJ4[N]", 2)
    assert rolled.result.explanation == "(4B6>=4) ＞ 1,2,6,6 ＞ 成功数2"


def test_commands_are_listed_in_the_order_play_meets_them() -> None:
    names = [c.model_fields["type"].default for c in ruleset_for("chojin_locke").commands]
    assert names[:3] == ["chojin_locke.deal", "chojin_locke.refuse", "chojin_locke.fix_characters"]
    assert names.index("chojin_locke.begin_planets") < names.index("chojin_locke.begin_base")
