"""Building damage: its evasion difficulty, and who must take it without evading."""

from __future__ import annotations

from collections.abc import Sequence

from domain.model.records import Draft

from . import checks
from .combat_events import DamageTaken, EvasionRolled
from .details import CheckDetail
from .difficulty import harder, normalise
from .health import damaged, endured, reduced
from .state import AttackKind, Character, Combat, Damage

NAMUAMIDABUTSU = "ナムアミダブツ"
SATSUBATSU = "サツバツ"


def evasion_difficulty(
    combat: Combat,
    attacker: Character,
    kind: AttackKind,
    critical: str | None,
    shuriken: bool,
    base: str = "N",
) -> str:
    steps = 0
    if attacker.kind != "mob":  # mob damage ignores the atmosphere
        if kind in ("melee", "counter"):
            steps += combat.atmosphere
        elif shuriken and combat.atmosphere >= 2:  # ULTRA-HARD mode
            steps += 1
    if critical == NAMUAMIDABUTSU:
        steps += 1
    return harder(normalise(base), steps)


def counters_earned(
    character: Character, damages: Sequence[Damage], successes: int
) -> tuple[str, ...]:
    """カウンターカラテ (2-11): only a ninja counters, and only a melee attack whose successes its
    evasion exceeded (「成功しているダイス個数が敵の『攻撃判定』の成功数を上回っていた場合」)."""
    if successes == 0 or not character.sheet.ninja:
        return ()
    return tuple(
        dict.fromkeys(
            d.attacker for d in damages if d.kind == "melee" and successes > d.attack_successes
        )
    )


def evasion_rolled(
    character: Character,
    damages: Sequence[Damage],
    detail: CheckDetail,
    reroll_of: int | None = None,
) -> Draft:
    """The 回避判定's event, with the カウンターカラテ it earned; sealed like every check."""
    successes = checks.successes(detail)
    shown, sealed, audience = checks.placed(character, detail)
    event = EvasionRolled(
        character=character.id,
        damages=tuple(d.id for d in damages),
        success=successes > 0,
        successes=successes,
        counter_against=counters_earned(character, damages, successes),
        reroll_of=reroll_of,
        detail=shown,
        secret=sealed,
    )
    return Draft(event, audience=audience)


def evadable(target: Character) -> bool:
    """Mobs have no evasion dice; a 気絶 target is hit automatically."""
    return target.sheet.has_evasion(target.kind) and target.status == "active"


def strongest(damages: list[Damage]) -> Damage | None:
    """The unevaded critical the attacker rolls the table for (ナムアミダブツ! before サツバツ!)."""
    for kind in (NAMUAMIDABUTSU, SATSUBATSU):
        found = next((d for d in damages if d.critical == kind), None)
        if found is not None:
            return found
    return None


def taken(target: Character, damages: list[Damage]) -> Draft:
    dealt = sum(d.amount for d in damages)
    amount = dealt - reduced(target, damages)
    after = damaged(target, amount)
    critical = strongest(damages)
    event = DamageTaken(
        character=target.id,
        amount=dealt,
        # An unrevealed sheet's ダメージ軽減 is the GM's: the folds work it out again.
        reduced=dealt - amount if target.revealed else 0,
        damages=tuple(d.id for d in damages),
        status=after.status,
        unevaded_critical=critical.critical if critical else None,
        critical_from=critical.attacker if critical else None,
        # How much 【精神力】 took would tell an unrevealed sheet's 【精神力】: shown only when
        # the sheet is public (the folds work it out again from the state).
        endured=endured(target, amount) if target.revealed else 0,
    )
    return Draft(event)
