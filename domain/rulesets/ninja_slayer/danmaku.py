"""オプションルール:弾幕発生 (2-11).

L128 「これはマスター専用のオプションルールだ。モブ敵からの射撃の結果として、「まとめて全弾回避」
できるような大量の射撃ダメージが発生することになった場合、マスターは『弾幕発生』を宣言し、その
ダメージを以下のように変換してもよい。この宣言は、『回避判定』を行うかどうか決める前に行うこと」.

The conversion's box is missing from the scrape (the GM's 弾幕 table, if the game has one, is
rolled with `roll_table`): the GM declares what the pending damage becomes — one damage of the
amount and 回避 difficulty the conversion gives, or none — and Kiroku checks the seed's
conditions: mobs' shots, evadable together, more than one, aimed at one character, no evasion
decided yet (ruling NS-051).
"""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Items, Message
from domain.model.records import Draft

from . import guards
from .changes import combat as with_combat
from .damage import evadable, taken
from .difficulty import normalise
from .evasion import batchable, pending_of
from .rules import NINJA_SLAYER, NinjaTable
from .state import Damage, NinjaState


@NINJA_SLAYER.event
class DanmakuDeclared(Event):
    target: str
    replaces: tuple[int, ...]
    damage: Damage | None = None  # what it became (None: no damage left to evade)
    text: str


@NINJA_SLAYER.folds(DanmakuDeclared)
def _declared(state: NinjaState, event: DanmakuDeclared, seq: int) -> NinjaState:
    assert state.combat is not None
    current = state.combat
    damages = tuple(d for d in current.damages if d.id not in event.replaces)
    if event.damage is None:
        return with_combat(state, damages=damages)
    return with_combat(
        state,
        damages=(*damages, event.damage),
        next_damage=max(current.next_damage, event.damage.id + 1),
    )


@NINJA_SLAYER.says_named(DanmakuDeclared)
def _says(e: DanmakuDeclared, names: Names) -> Message:
    into = (
        Message(
            N_("{amount}ダメージ (回避難易度{difficulty})"),
            {"amount": e.damage.amount, "difficulty": e.damage.difficulty},
        )
        if e.damage
        else Message(N_("ダメージなし"))
    )
    return Message(
        N_("GM: 弾幕発生! {target}への{damages} → {into} ({text})"),
        {
            "target": names.of(e.target),
            "damages": Items(f"#{i}" for i in e.replaces),
            "into": into,
            "text": e.text,  # the conversion as the GM's table has it
        },
    )


@NINJA_SLAYER.command("danmaku")
class Danmaku(Command):
    """GM, before the target decides on its 回避判定: 『弾幕発生』 converts mobs' pending shots."""

    damages: list[int] = Field(min_length=2, max_length=40)
    amount: int = Field(ge=0, le=20, description="What the conversion leaves (0: nothing)")
    evasion: str = Field(default="N", description="Its 回避 difficulty")
    text: str = Field(min_length=1, max_length=200, description="The conversion (the GM's table)")


@NINJA_SLAYER.decides(Danmaku)
def danmaku(t: NinjaTable, command: Danmaku, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "declare 弾幕発生")
    current = guards.combat(state)
    found = pending_of(current.damages, command.damages)
    targets = {d.target for d in found}
    if len(targets) != 1 or len(found) < 2:
        raise RuleViolation("not_a_barrage", "弾幕は1人に向けられた複数の射撃ダメージに宣言する。")
    if any(d.kind != "ranged" or d.mobs is None for d in found) or not batchable(state, found):
        raise RuleViolation(
            "not_a_barrage",
            "弾幕発生は「まとめて全弾回避」できるモブ敵の射撃ダメージだけを変換する。",
        )
    target = guards.character(state, targets.pop())
    first = found[0]
    damage = None
    if command.amount:
        damage = Damage(
            id=current.next_damage,
            attacker=first.attacker,
            target=target.id,
            amount=command.amount,
            kind="ranged",
            difficulty=normalise(command.evasion),
            attack_successes=max(d.attack_successes for d in found),
            attack_seq=first.attack_seq,
            mobs=first.mobs,
        )
    event = DanmakuDeclared(
        target=target.id,
        replaces=tuple(d.id for d in found),
        damage=damage,
        text=command.text,
    )
    drafts = [Draft(event)]
    if damage is not None and not evadable(target):
        drafts.append(taken(target, [damage]))
    return drafts
