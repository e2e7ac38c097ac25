"""カイシャク and 『即死!』 (2-12, 2-13).

L150 「ニンジャは『気絶状態』の敵と隣接することで、自分の手番攻撃フェイズに
『カイシャク』を宣言できる。『カイシャク』は「その他の行動」を消費するが、特に判定は
必要としない。『カイシャク』を宣言した場合、その敵に対して自動的に『サツバツ!』出目6の
効果が1回与えられる」. The row is the GM's table's (`options.tables.satsubatsu`, row 6):
its text is recorded; adjacency is the map's (ruling NS-043).

L162 「『即死!』は即死だ。この攻撃を回避できなかった敵は、残り【体力】や【精神力】や
『ダメージ軽減』値に関係なく…即死する」; L163 「敵が『即死耐性』を持つ場合、『即死!』の
効果は『痛打+2D6』に置き換えられる。敵が『即死耐性』と『ダメージ軽減』を両方持つ場合、
最終ダメージに対する『ダメージ軽減』を通常どおり行える」. `instant_death` applies a 即死!
row just rolled (the table, or カイシャク's row 6).
"""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.lifecycle_events import RollRecord
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft

from . import guards
from .changes import combat, with_characters
from .fields import CharacterId, Entropy
from .health import damaged
from .rules import NINJA_SLAYER, NinjaTable
from .state import Character, CriticalDue, NinjaState, Status
from .words import becomes

KAISHAKU_ROW = 6  # 「自動的に『サツバツ!』出目6の効果が1回与えられる」


@NINJA_SLAYER.event
class Kaishaku(Event):
    character: str
    target: str
    text: str | None = None  # row 6 of the GM's サツバツ・クリティカル表, if the game has it


@NINJA_SLAYER.folds(Kaishaku)
def _kaishaku(state: NinjaState, event: Kaishaku, seq: int) -> NinjaState:
    assert state.combat is not None
    row = CriticalDue(attacker=event.character, target=event.target, critical="カイシャク")
    return combat(state, acted=True, rows=(*state.combat.rows, row))


@NINJA_SLAYER.says_named(Kaishaku)
def _says_kaishaku(e: Kaishaku, names: Names) -> Message:
    # the row as the GM's table has it (tables.py)
    row = (
        Message(N_("「{text}」"), {"text": e.text})
        if e.text
        else Message(N_("(サツバツ・クリティカル表の出目6)"))
    )
    return Message(
        N_("{character} カイシャク! {target}にサツバツ!出目6{row}"),
        {"character": names.of(e.character), "target": names.of(e.target), "row": row},
    )


@NINJA_SLAYER.command("kaishaku")
class KaishakuCommand(Command):
    """攻撃フェイズ, the one action: カイシャク on an adjacent 気絶 enemy (サツバツ! row 6)."""

    target: str = CharacterId


def enemies(one: Character, other: Character) -> bool:
    """PCs on one side, the GM's characters on the other (ruling NS-043)."""
    return (one.kind == "pc") != (other.kind == "pc")


@NINJA_SLAYER.decides(KaishakuCommand)
def kaishaku(t: NinjaTable, command: KaishakuCommand, actor: str) -> list[Draft]:
    state, current, holder = guards.acting(t, actor, "attack")
    guards.first_attack_action(current, holder)
    if not holder.sheet.ninja:
        raise RuleViolation("not_a_ninja", "カイシャクを宣言できるのはニンジャだけだ。")
    target = guards.character(state, command.target)
    if target.id not in current.participants:
        raise RuleViolation(
            "not_in_combat", "{target}は戦闘に加わっていない。", params={"target": target.name}
        )
    if not enemies(holder, target):
        raise RuleViolation(
            "not_an_enemy",
            "{target}は{holder}の敵ではない。",
            params={"target": target.name, "holder": holder.name},
        )
    if target.status != "気絶":
        raise RuleViolation(
            "not_fainted",
            "カイシャクは『気絶状態』の敵に: {target}は{status}。",
            params={"target": target.name, "status": target.status},
        )
    table = state.tables.satsubatsu
    text = table.look_up(KAISHAKU_ROW) if table is not None else None
    return [Draft(Kaishaku(character=holder.id, target=target.id, text=text))]


@NINJA_SLAYER.event
class InstantDeath(Event):
    """『即死!』 applied: dead, or with ●即死耐性 『痛打+2D6』 added to the hit."""

    attacker: str
    target: str
    resisted: bool
    roll: RollRecord | None = None  # 痛打+2D6
    total: int = 0  # its total
    status: Status


def _extra(row: CriticalDue, target: Character, total: int) -> int:
    """痛打+2D6 joins the hit's damage; ダメージ軽減 applies to the final damage once."""
    cut = target.sheet.damage_reduction
    return max(0, row.amount + total - cut) - max(0, row.amount - cut)


@NINJA_SLAYER.folds(InstantDeath)
def _instant_death(state: NinjaState, event: InstantDeath, seq: int) -> NinjaState:
    assert state.combat is not None
    current = state.combat
    row = _row(current.rows, current.criticals, event.attacker, event.target)
    rows = tuple(r for r in current.rows if r is not row)
    criticals = tuple(c for c in current.criticals if c is not row)
    state = combat(state, rows=rows, criticals=criticals)
    target = state.characters.get(event.target)
    if target is None:  # a fold without the GM's secrets does not track that NPC
        return state
    if event.resisted and row is not None:
        return with_characters(state, damaged(target, _extra(row, target, event.total)))
    return with_characters(state, target.model_copy(update={"status": event.status}))


@NINJA_SLAYER.says_named(InstantDeath)
def _says_instant_death(e: InstantDeath, names: Names) -> Message:
    who = {"attacker": names.of(e.attacker), "target": names.of(e.target)}
    if e.resisted:
        return Message(
            N_("{attacker}→{target} 即死! ●即死耐性で痛打+2D6 (出目合計{total})"),
            {**who, "total": e.total},
        )
    return Message(N_("{attacker}→{target} 即死! {becomes}"), {**who, "becomes": becomes(e.status)})


def _row(
    rows: tuple[CriticalDue, ...], criticals: tuple[CriticalDue, ...], attacker: str, target: str
) -> CriticalDue | None:
    for found in (*rows, *criticals):
        if (found.attacker, found.target) == (attacker, target):
            return found
    return None


@NINJA_SLAYER.command("instant_death")
class InstantDeathCommand(Command):
    """The attacker, right after the サツバツ! row (or カイシャク's) came up 『即死!』."""

    attacker: str = CharacterId
    target: str = CharacterId
    faces: list[int] | None = Field(default=None, description="痛打+2D6, with ●即死耐性")
    entropy: str = Entropy


@NINJA_SLAYER.decides(InstantDeathCommand)
def instant_death(t: NinjaTable, command: InstantDeathCommand, actor: str) -> list[Draft]:
    state = t.started()
    current = guards.combat(state)
    attacker = guards.controlled(state, command.attacker, actor)
    target = guards.character(state, command.target)
    if _row(current.rows, current.criticals, attacker.id, target.id) is None:
        raise RuleViolation(
            "no_critical",
            "『即死!』は回避されなかったサツバツ!の表の結果(またはカイシャク)の直後に適用する。",
        )
    if target.sheet.sokushi_resistance:
        rolled = t.dice.roll("2D6 痛打", command.faces, command.entropy)
        if rolled.result.total is None:
            raise RuleViolation("table_dice", "痛打+2D6 gave no total.")
        event = InstantDeath(
            total=rolled.result.total,
            attacker=attacker.id,
            target=target.id,
            resisted=True,
            roll=rolled.record,
            status=target.status,
        )
        return [Draft(event)]
    status: Status = "爆発四散" if target.sheet.ninja else "removed"
    return [
        Draft(InstantDeath(attacker=attacker.id, target=target.id, resisted=False, status=status))
    ]
