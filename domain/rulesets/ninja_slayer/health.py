"""What damage and 【精神力】 loss do to a character (2-12: ダメージの解決と行動不能)."""

from __future__ import annotations

from collections.abc import Sequence

from .state import Character, Current, Damage, Status


def endurance(character: Character, now: Current) -> Current:
    """ニンジャ耐久力の発露 (2-12, L143 and L149): a ninja whose 【体力】 would go below 0 while
    【精神力】 is left is not blown up at once — 「ただし、【精神力】が残っていればまだ望みはある」,
    and hit while 気絶 「…【精神力】が残っているならば、上記の『ニンジャ耐久力の発露』ルールに従って
    軽減を続けられる」. The rule's box is missing from the scrape: each point below 0 is taken
    from 【精神力】 instead while any is left, the ninja holding at 【体力】 0 (気絶); only what
    【精神力】 cannot absorb takes 【体力】 below 0 (docs/rulings.md, ruling NS-035)."""
    if not character.sheet.ninja or character.status in ("爆発四散", "removed"):
        return now
    excess = -now.tairyoku
    if excess <= 0 or now.seishin <= 0:
        return now
    absorbed = min(excess, now.seishin)
    return now.model_copy(
        update={"tairyoku": now.tairyoku + absorbed, "seishin": now.seishin - absorbed}
    )


def status_after(character: Character, now: Current) -> Status:
    if character.status in ("爆発四散", "removed"):
        return character.status
    if character.kind == "mob":
        # モブ敵: 体力 0 以下 or 精神力 negative → off the map.
        return "removed" if now.tairyoku <= 0 or now.seishin < 0 else "active"
    ninja = character.sheet.ninja
    if now.tairyoku < 0:
        return "爆発四散" if ninja else "removed"
    if now.seishin <= -1:
        # A ninja drops to 体力 0 and faints; a non-ninja boss is taken off the map.
        return "気絶" if ninja else "removed"
    if now.tairyoku == 0:
        return "気絶"
    # Restoring 体力 alone never wakes a 気絶 character (only items such as ZBR do).
    return character.status


def apply(character: Character, now: Current) -> Character:
    now = endurance(character, now)
    status = status_after(character, now)
    if character.sheet.ninja and now.seishin <= -1 and status == "気絶":
        now = now.model_copy(update={"tairyoku": 0})
    return character.model_copy(update={"now": now, "status": status})


def damaged(character: Character, amount: int) -> Character:
    return apply(
        character, character.now.model_copy(update={"tairyoku": character.now.tairyoku - amount})
    )


def endured(character: Character, amount: int) -> int:
    """How much of `amount` 【精神力】 absorbed (ニンジャ耐久力の発露), for the log."""
    return character.now.seishin - damaged(character, amount).now.seishin


def revived(character: Character) -> bool:
    """End of combat: 気絶 with 精神力 ≥ 1 revives at 体力 1 / 精神力 0."""
    return character.status == "気絶" and character.now.seishin >= 1


def reduced(target: Character, damages: Sequence[Damage]) -> int:
    """What ダメージ軽減 takes off: 「最終ダメージに対する『ダメージ軽減』」 (L163), from each
    damage's final value, never below 0 (ruling NS-042)."""
    cut = target.sheet.damage_reduction
    return sum(min(d.amount, cut) for d in damages)
