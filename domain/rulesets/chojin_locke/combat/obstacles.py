"""6.2 障害 (obstacles) in a combat: one participant however many members it has.

「複数人存在する障害においても戦闘参加者1体分として扱われます。…イニシアチブ決定のトランプも1枚
しか配られませんし、戦闘の手番も1ラウンドに1回のみです。複数人存在する障害が行う攻撃は武器の火力を
合計し、それを総合火力として攻撃を行います。…複数人存在する障害の残り耐久力はそれぞれ別に管理され
ます。」 (l.1290–1299). The host brings one in as a square or chart text says (`add_obstacle`)
and plays its combat turns; how it picks targets (l.1281–1285) is the table's to apply.
"""

from __future__ import annotations

from pydantic import Field

from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.records import Draft
from domain.rulesets.chojin_locke.changes import combat
from domain.rulesets.chojin_locke.combat.round_end import running
from domain.rulesets.chojin_locke.combat.state import NPC_IDS_START, Fighter
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState


@CHOJIN_LOCKE.event
class ObstacleJoined(Event):
    fighter: int
    name: str
    members: tuple[int, ...]  # each member's endurance
    firepower: int  # the members' weapons summed
    jammer: bool = False


@CHOJIN_LOCKE.folds(ObstacleJoined)
def _joined(state: ChojinState, event: ObstacleJoined, seq: int) -> ChojinState:
    assert state.combat is not None
    joined = Fighter(
        id=event.fighter,
        name=event.name,
        kind="obstacle",
        joined_round=state.combat.round,
        members=list(event.members),
        firepower=event.firepower,
        jammer=event.jammer,
    )
    return combat(state, fighters={**state.combat.fighters, event.fighter: joined})


@CHOJIN_LOCKE.command("add_obstacle")
class AddObstacle(Command):
    """Host: an obstacle (障害) joins the running combat, as a square or chart text says."""

    name: str = Field(min_length=1, max_length=100)
    members: list[int] = Field(min_length=1, max_length=20)  # each member's endurance (≥ 1)
    firepower: int = Field(ge=0, le=999)
    jammer: bool = False


@CHOJIN_LOCKE.decides(AddObstacle)
def add_obstacle(t: ChojinTable, command: AddObstacle, actor: str) -> list[Draft]:
    t.referee_only(actor, "bring an obstacle into a combat")
    state = playing(t)
    fight = running(state)
    if any(e < 1 for e in command.members):
        raise RuleViolation("bad_endurance", "Each member's endurance is at least 1.")
    if fight.step in ("round_end",):
        raise RuleViolation("wrong_step", "An obstacle joins before the round's turns or in them.")
    number = max([NPC_IDS_START - 1, *fight.fighters]) + 1
    event = ObstacleJoined(
        fighter=number,
        name=command.name,
        members=tuple(command.members),
        firepower=command.firepower,
        jammer=command.jammer,
    )
    return [Draft(event)]
