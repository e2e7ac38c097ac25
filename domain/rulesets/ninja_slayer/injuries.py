"""●部位損傷: marked with ×s in the scenario, kept until treated, a penalty the next (2-13).

L171 「『サツバツ!』などで部位損傷を受けた場合、対応する『●部位損傷』の内容をキャラクターシートに
チェックしたり、メモしておくこと…同じ部位に複数回損傷を受けた場合、それを×2や×3などしてメモして
おく…シナリオ終了時にこれらの×数は全て消すが、『●部位損傷』自体は治療を行うまで残ってしまう」;
L176 「各『●部位損傷』は、対応部位のサイバネ化や特殊な再生能力の使用、もしくは余暇での治療によって
のみ取り除くことができる」; L177 「『●部位損傷』が1箇所でも残った状態で次のシナリオを開始した場合、
あらゆる判定に難易度+1ペナルティを受けてしまう。2箇所以上残っている場合は、難易度+2ペナルティ」.

The stat damage a サツバツ! row gives with it is the GM's `adjust` (the table is the GM's data).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft

from . import guards
from .campaign import stage
from .changes import noted, with_characters
from .fields import CharacterId
from .rules import NINJA_SLAYER, NinjaTable
from .state import NinjaState

Treatment = Literal["余暇での治療", "サイバネ化", "再生能力"]
# how a line reads one, in the reader's language
TREATMENTS = {str(how): how for how in (N_("余暇での治療"), N_("サイバネ化"), N_("再生能力"))}


@NINJA_SLAYER.event
class Injured(Event):
    character: str
    part: str


@NINJA_SLAYER.folds(Injured)
def _injured(state: NinjaState, event: Injured, seq: int) -> NinjaState:
    found = state.characters.get(event.character)
    if found is None:  # a fold without the GM's secrets does not track that NPC
        return state
    marks = found.injuries.get(event.part, 0) + 1
    state = with_characters(
        state, found.model_copy(update={"injuries": {**found.injuries, event.part: marks}})
    )
    return noted(state, event.character, seq, f"●部位損傷:{event.part} ×{marks}")


@NINJA_SLAYER.says_named(Injured)
def _says_injured(e: Injured, names: Names) -> Message:
    # the part as the GM named it (頭部, 腕…)
    return Message(
        N_("{character} ●部位損傷:{part}"), {"character": names.of(e.character), "part": e.part}
    )


@NINJA_SLAYER.command("injure")
class Injure(Command):
    """GM, 本編: a ●部位損傷 (from a サツバツ! row, or a ruling); again on one part adds a ×."""

    character: str = CharacterId
    part: str = Field(min_length=1, max_length=20, description="頭部, 胴体, 腕, 脚…")


@NINJA_SLAYER.decides(Injure)
def injure(t: NinjaTable, command: Injure, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "mark a ●部位損傷")
    stage(state, "本編", what=N_("●部位損傷"))
    found = guards.character(state, command.character)
    if not found.on_map:
        raise RuleViolation(
            "bad_target", "{found}はもうマップにいない。", params={"found": found.name}
        )
    return [Draft(Injured(character=found.id, part=command.part))]


@NINJA_SLAYER.event
class InjuryTreated(Event):
    character: str
    part: str
    how: Treatment


@NINJA_SLAYER.folds(InjuryTreated)
def _treated(state: NinjaState, event: InjuryTreated, seq: int) -> NinjaState:
    found = state.characters.get(event.character)
    if found is None:
        return state
    left = {part: marks for part, marks in found.injuries.items() if part != event.part}
    state = with_characters(state, found.model_copy(update={"injuries": left}))
    return noted(state, event.character, seq, f"●部位損傷:{event.part}を{event.how}で除去")


@NINJA_SLAYER.says_named(InjuryTreated)
def _says_treated(e: InjuryTreated, names: Names) -> Message:
    how = TREATMENTS[e.how]
    return Message(
        N_("{character} ●部位損傷:{part}を除去 ({how})"),
        {"character": names.of(e.character), "part": e.part, "how": how},
    )


@NINJA_SLAYER.command("treat")
class Treat(Command):
    """Remove a ●部位損傷: 余暇での治療 (in the 余暇), サイバネ化 or a 再生能力 (GM)."""

    character: str = CharacterId
    part: str = Field(min_length=1, max_length=20)
    how: Treatment = "余暇での治療"


@NINJA_SLAYER.decides(Treat)
def treat(t: NinjaTable, command: Treat, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "remove a ●部位損傷")
    found = guards.character(state, command.character)
    if command.part not in found.injuries:
        raise RuleViolation(
            "no_injury",
            "{found}に●部位損傷:{part}はない。",
            params={"found": found.name, "part": command.part},
        )
    if command.how == "余暇での治療":
        stage(state, "余暇", what=N_("治療"))
    return [Draft(InjuryTreated(character=found.id, part=command.part, how=command.how))]
