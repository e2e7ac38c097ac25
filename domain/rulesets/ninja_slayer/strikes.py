"""One rolled strike of an attack: hit, critical, and the damage it deals (if any)."""

from __future__ import annotations

from . import checks
from .damage import evasion_difficulty
from .details import CheckDetail, Strike
from .state import Character, Combat, Damage, StrikeTerms


def resolve(
    combat: Combat,
    holder: Character,
    target: Character,
    detail: CheckDetail,
    terms: StrikeTerms,
    *,
    damage_id: int,
    attack_seq: int,
    strikes_on_target: int,
) -> tuple[Strike, Damage | None]:
    successes = checks.successes(detail)
    hit = successes > 0 or target.status == "気絶"  # a fainted target is hit automatically
    critical = None
    # サツバツ!: only a ninja's melee attack (the dice language reports it only on a hit).
    if terms.kind == "melee" and holder.sheet.ninja and checks.criticals(detail):
        critical = checks.criticals(detail)[0]
    damage = None
    if hit:
        damage = Damage(
            id=damage_id,
            attacker=holder.id,
            target=target.id,
            amount=terms.amount,
            kind=terms.kind,
            difficulty=evasion_difficulty(
                combat, holder, terms.kind, critical, terms.shuriken, terms.evasion
            ),
            attack_successes=successes,
            critical=critical,
            # Two or more attacks on one target by 連続攻撃 (or ●時間差 shots) come apart.
            time_lag=strikes_on_target > 1 and (terms.kind == "melee" or terms.time_lag),
            attack_seq=attack_seq,
            mobs=holder.name if holder.kind == "mob" else None,
        )
    strike = Strike(
        target=target.id,
        hit=hit,
        successes=successes,
        critical=critical,
        damage=damage.id if damage else None,
    )
    return strike, damage
