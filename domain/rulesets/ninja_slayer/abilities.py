"""Once-only abilities: ●アドレナリン・ブースト (per combat) and ●ニンジャ第六感 (per scenario)."""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.game import GameState
from domain.records import Draft

from . import checks, guards
from .commands import Adrenaline, Reroll
from .difficulty import Modifier
from .events import AdrenalineBoost, CheckDetail, CheckRolled, SixthSense
from .numbers import DrawNumbers
from .reroll_strike import reroll_strike

NOT_CHECKS = ("table", "damage")  # 決定表やダメージ値の決定などは判定とみなさない


def adrenaline(game: GameState, command: Adrenaline, actor: str) -> list[Draft]:
    state = guards.rules(game)
    character = guards.able(guards.controlled(state, command.character, actor))
    guards.combat(state)
    if not character.sheet.ninja:
        raise RuleViolation("not_a_ninja", "Only ninjas have アドレナリン・ブースト.")
    if character.adrenaline_used:
        raise RuleViolation(
            "adrenaline_used", f"{character.name} already used アドレナリン・ブースト this combat."
        )
    guards.spend("精神力", "not_enough_seishin", 1, character.now.seishin)
    return [Draft(AdrenalineBoost(character=character.id))]


def sixth_sense(game: GameState, command: Reroll, actor: str) -> list[Draft]:
    state = guards.rules(game)
    character = guards.controlled(state, command.character, actor)
    if not character.sheet.sixth_sense:
        raise RuleViolation(
            "no_sixth_sense", f"{character.name} lacks ●ニンジャ第六感 (base 【ニューロン】 13)."
        )
    if character.sixth_sense_used:
        raise RuleViolation(
            "sixth_sense_used", f"{character.name} already used ニンジャ第六感 this scenario."
        )
    attack = state.attacks.get(command.check_seq)
    if attack is not None and attack.attacker == character.id:
        return reroll_strike(game, state, character, command, attack)
    memo = state.checks.get(command.check_seq)
    if memo is None or memo.character != character.id:
        raise RuleViolation(
            "not_a_check", f"Event {command.check_seq} is not a check of {character.name}."
        )
    if memo.purpose in NOT_CHECKS:
        raise RuleViolation("not_a_check", "Tables and damage rolls are not checks.")
    before = CheckDetail.model_validate(memo.detail)
    # The same pool and difficulty, rolled again; 即応ダイス were paid for with the first roll.
    detail = checks.run(
        game,
        before.pool,
        before.base_difficulty,
        [Modifier.model_validate(m) for m in before.modifiers],
        faces=command.faces,
        entropy=command.entropy,
        number=DrawNumbers(game).take(command.faces),
    )
    fields, audience = checks.placed(character, detail)
    rerolled = CheckRolled(
        character=character.id,
        purpose=memo.purpose,
        stat=memo.stat,
        success=checks.successes(detail) > 0,
        successes=checks.successes(detail),
        reroll_of=command.check_seq,
        **fields,
    )
    return [
        Draft(SixthSense(character=character.id, of_seq=command.check_seq)),
        Draft(rerolled, audience=audience),
    ]
