"""One rolled strike of an attack: hit, critical, and the damage it deals (if any)."""

from __future__ import annotations

from . import checks
from .criticals import critical_of
from .damage import evasion_difficulty
from .details import CheckDetail, Strike
from .rolls import matches
from .state import Character, Combat, Damage, StrikeTerms


def _critical(holder: Character, terms: StrikeTerms, detail: CheckDetail | None) -> str | None:
    """サツバツ!: only a ninja's (L153), only on a hit; melee unless the declared ability lets
    its shots crit (L92); by the dice language's 【6,6】, or the ability's pattern."""
    if detail is None or not holder.sheet.ninja:
        return None
    rule = terms.critical
    if rule is not None and (terms.kind == "melee" or rule.ranged):
        return critical_of(rule, checks.faces(detail))
    if terms.kind == "melee" and checks.criticals(detail):
        return checks.criticals(detail)[0]
    return None


def resolve(
    combat: Combat,
    holder: Character,
    target: Character,
    detail: CheckDetail | None,
    terms: StrikeTerms,
    *,
    damage_id: int,
    attack_seq: int,
    strikes_on_target: int,
) -> tuple[Strike, Damage | None]:
    """`detail` is None for a mob's attack made to succeed without dice (L16): 1 success."""
    successes = checks.successes(detail) if detail is not None else 1
    hit = successes > 0 or target.status == "気絶"  # a fainted target is hit automatically
    critical = _critical(holder, terms, detail) if successes > 0 else None
    damage = None
    if hit:
        amount = terms.amount
        # L209 「出目【6】を含んで成功した各『近接攻撃』は、『痛打+1』となる」: one strike's own
        # 痛打, the largest counting (L157 「適用できる『痛打』はいずれか1個のみ」).
        if (
            terms.strike_tsuda
            and detail is not None
            and successes > 0
            and matches(terms.strike_pattern, checks.faces(detail))
        ):
            amount += max(0, terms.strike_tsuda - terms.tsuda)
        hissatsu = terms.critical is not None and critical == terms.critical.hissatsu
        damage = Damage(
            id=damage_id,
            attacker=holder.id,
            target=target.id,
            amount=amount,
            kind=terms.kind,
            difficulty=evasion_difficulty(
                combat,
                holder,
                terms.kind,
                None if hissatsu else critical,
                terms.shuriken,
                terms.critical.evasion if hissatsu and terms.critical else terms.evasion,
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
