"""Once-only abilities: ●アドレナリン・ブースト (per combat) and ●ニンジャ第六感 (per scenario)."""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft

from . import checks, guards
from .events import AdrenalineBoost, CheckRolled, SixthSense
from .fields import CharacterId, Entropy, Faces
from .reroll_evasion import reroll_evasion
from .reroll_strike import reroll_strike
from .rules import NINJA_SLAYER, NinjaTable

NOT_CHECKS = ("table", "damage")  # 決定表やダメージ値の決定などは判定とみなさない


@NINJA_SLAYER.command("adrenaline_boost")
class Adrenaline(Command):
    """●アドレナリン・ブースト: once per combat, 1 【精神力】."""

    character: str = CharacterId


@NINJA_SLAYER.decides(Adrenaline)
def adrenaline(t: NinjaTable, command: Adrenaline, actor: str) -> list[Draft]:
    state = t.started()
    character = guards.able(guards.controlled(state, command.character, actor))
    guards.combat(state)
    if not character.sheet.ninja:
        raise RuleViolation("not_a_ninja", "Only ninjas have アドレナリン・ブースト.")
    if character.adrenaline_used:
        raise RuleViolation(
            "adrenaline_used",
            "{character} already used アドレナリン・ブースト this combat.",
            params={"character": character.name},
        )
    guards.spend("精神力", "not_enough_seishin", 1, character.now.seishin)
    return [Draft(AdrenalineBoost(character=character.id))]


@NINJA_SLAYER.command("sixth_sense")
class Reroll(Command):
    """●ニンジャ第六感: once per scenario, reroll one of your own checks."""

    character: str = CharacterId
    check_seq: int = Field(ge=1, description="A check's or an attack's seq")
    strike: int = Field(default=0, ge=0, le=8, description="Which strike of a multi-attack")
    faces: list[int] | None = Faces
    entropy: str = Entropy


@NINJA_SLAYER.decides(Reroll)
def sixth_sense(t: NinjaTable, command: Reroll, actor: str) -> list[Draft]:
    state = t.started()
    character = guards.controlled(state, command.character, actor)
    if not character.sheet.sixth_sense:
        raise RuleViolation(
            "no_sixth_sense",
            "{character} lacks ●ニンジャ第六感 (base 【ニューロン】 13).",
            params={"character": character.name},
        )
    if character.sixth_sense_used:
        raise RuleViolation(
            "sixth_sense_used",
            "{character} already used ニンジャ第六感 this scenario.",
            params={"character": character.name},
        )
    attack = state.attacks.get(command.check_seq)
    if attack is not None and attack.attacker == character.id:
        return reroll_strike(t, state, character, command, attack)
    evasion = state.evasions.get(command.check_seq)
    if evasion is not None and evasion.character == character.id:
        return reroll_evasion(t, state, character, command, evasion)
    memo = state.checks.get(command.check_seq)
    if memo is None or memo.character != character.id:
        raise RuleViolation(
            "not_a_check",
            "Event {check_seq} is not a check of {character} that can still be rolled again (an "
            "evasion: only before play moves on to another phase).",
            params={"check_seq": command.check_seq, "character": character.name},
        )
    if memo.purpose in NOT_CHECKS:
        raise RuleViolation("not_a_check", "Tables and damage rolls are not checks.")
    detail = checks.again(t.dice, memo.detail, faces=command.faces, entropy=command.entropy)
    shown, sealed, audience = checks.placed(character, detail)
    rerolled = CheckRolled(
        character=character.id,
        purpose=memo.purpose,
        stat=memo.stat,
        success=checks.successes(detail) > 0,
        successes=checks.successes(detail),
        reroll_of=command.check_seq,
        detail=shown,
        secret=sealed,
    )
    return [
        Draft(SixthSense(character=character.id, of_seq=command.check_seq)),
        Draft(rerolled, audience=audience),
    ]
