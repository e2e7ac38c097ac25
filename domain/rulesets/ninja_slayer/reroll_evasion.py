"""●ニンジャ第六感 on a 回避判定 (2-16): 「これはあらゆる判定を対象にでき、失敗した判定だけでなく、
成功している判定を敢えて振り直すこともできる」 — the new roll's outcome replaces the one applied."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.model.errors import RuleViolation
from domain.model.records import Draft

from . import checks, guards
from .combat_events import DamageUndone
from .damage import evasion_rolled, taken
from .events import SixthSense
from .rules import NinjaTable
from .state import Character, EvasionMemo, NinjaState

if TYPE_CHECKING:
    from .abilities import Reroll


def reroll_evasion(
    t: NinjaTable, state: NinjaState, character: Character, command: Reroll, memo: EvasionMemo
) -> list[Draft]:
    combat = guards.combat(state)
    if memo.counter_against and not any(
        r.evasion_seq == command.check_seq for r in combat.counters
    ):
        raise RuleViolation(
            "counter_declared",
            "The カウンターカラテ this evasion earned was already dealt: the evasion stands.",
        )
    detail = checks.again(
        t.dice, memo.detail, faces=command.faces, entropy=command.entropy, command="EV"
    )
    successes = checks.successes(detail)
    drafts = [
        Draft(SixthSense(character=character.id, of_seq=command.check_seq)),
        evasion_rolled(character, memo.damages, detail, reroll_of=command.check_seq),
    ]
    if memo.success and successes == 0:  # evaded before, hit now
        drafts.append(taken(character, list(memo.damages)))
    elif not memo.success and successes > 0:  # hit before, evaded now
        drafts.append(
            Draft(
                DamageUndone(
                    character=character.id,
                    amount=memo.tairyoku_before - character.now.tairyoku,
                    seishin=memo.seishin_before - character.now.seishin,
                    status=memo.status_before,
                )
            )
        )
    return drafts
