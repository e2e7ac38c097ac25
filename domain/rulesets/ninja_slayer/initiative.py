"""Turn order (2-3): highest initiative first; ≤0 counts as 1; ties as the rules settle them.

PC–PC ties are settled once and kept (「最初に1回だけ順番を決め、それを戦闘終了まで維持する」);
a PC acts before an enemy with the same initiative; enemy–enemy ties are the GM's choice, made
again every turn.

A settled PC tie is kept as the pairs it decided ("ben before aki"), not as one list: a tie
that appears later between other PCs is then a new question for the players, never answered
by where an earlier list happened to put them (docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.model.errors import RuleViolation

from .state import Character

Pair = tuple[str, str]  # (acts first, acts second)


def initiative(character: Character) -> int:
    return character.now.neuron + character.sheet.initiative_modifier


def order_value(character: Character) -> int:
    return max(1, initiative(character))


def _tied_groups(group: Sequence[Character]) -> list[list[str]]:
    by_value: dict[int, list[str]] = {}
    for member in group:
        by_value.setdefault(order_value(member), []).append(member.id)
    return [sorted(tied) for tied in by_value.values() if len(tied) > 1]


def _kept_order(tied: list[str], kept: set[Pair]) -> list[str] | None:
    """The order the kept pairs give `tied`, if they decide every pair of it (and agree)."""
    wins = {i: sum((i, j) in kept for j in tied if j != i) for i in tied}
    order = sorted(tied, key=lambda i: -wins[i])
    decided = all((a, b) in kept for n, a in enumerate(order) for b in order[n + 1 :])
    return order if decided else None


def _names(characters: dict[str, Character], ids: Sequence[str]) -> str:
    return ", ".join(characters[i].name for i in ids)


def settle_pc_ties(
    pcs: Sequence[Character], kept: Sequence[Pair], sent: Sequence[str]
) -> tuple[Pair, ...]:
    """Every PC tie among `pcs` settled: the kept pairs plus those `sent` decides now.

    A tie the kept pairs already decide keeps its order; an order sent against it is refused
    (said, not silently ignored). A tie not yet decided needs every tied PC in `sent`.
    """
    by_id = {c.id: c for c in pcs}
    pairs = set(kept)
    rank = {i: n for n, i in enumerate(dict.fromkeys(sent))}
    for tied in _tied_groups(pcs):
        listed = sorted((i for i in tied if i in rank), key=rank.__getitem__)
        order = _kept_order(tied, pairs)
        if order is not None:
            contradicted = any(order.index(a) > order.index(b) for a, b in _pairs(listed))
            if contradicted:
                raise RuleViolation(
                    "pc_tie_order_kept",
                    "{by_id} already settled their order ({by_id2}): it is kept, not decided "
                    "again.",
                    params={"by_id": _names(by_id, tied), "by_id2": _names(by_id, order)},
                )
            continue
        if len(listed) < len(tied):
            raise RuleViolation(
                "pc_tie_order_required",
                "{by_id} have the same initiative: the players decide their order once (list them "
                "in pc_tie_order).",
                params={"by_id": _names(by_id, tied)},
            )
        against = [(a, b) for a, b in _pairs(listed) if (b, a) in pairs]
        if against and _acyclic(tied, pairs):
            a, b = against[0]
            raise RuleViolation(
                "pc_tie_order_kept",
                "{b} already acts before {a}: that order is kept.",
                params={"b": by_id[b].name, "a": by_id[a].name},
            )
        pairs -= {(b, a) for a, b in _pairs(listed)}
        pairs |= set(_pairs(listed))
    return tuple(sorted(pairs))


def _pairs(order: Sequence[str]) -> list[Pair]:
    return [(a, b) for n, a in enumerate(order) for b in order[n + 1 :]]


def _acyclic(tied: list[str], pairs: set[Pair]) -> bool:
    """Whether the kept pairs among `tied` could still be one order (a later tie may have to
    reorder PCs whose separate earlier ties went round in a circle: then it may)."""
    left = set(tied)
    while left:
        first = [i for i in left if not any((j, i) in pairs for j in left)]
        if not first:
            return False
        left -= set(first)
    return True


def _require_enemy_ties(enemies: Sequence[Character], settled: Sequence[str]) -> None:
    for tied in _tied_groups(enemies):
        if any(i not in settled for i in tied):
            raise RuleViolation(
                "enemy_tie_order_required",
                "{tied} have the same initiative: the GM decides their order (list them in "
                "enemy_tie_order).",
                params={"tied": ", ".join(tied)},
            )


def turn_order(
    characters: Sequence[Character], pc_ties: Sequence[Pair], enemy_ties: Sequence[str]
) -> tuple[str, ...]:
    """The turn's order; PC ties must already be settled (settle_pc_ties)."""
    pcs = [c for c in characters if c.kind == "pc"]
    enemies = [c for c in characters if c.kind != "pc"]
    _require_enemy_ties(enemies, enemy_ties)
    kept = set(pc_ties)
    pc_rank: dict[str, int] = {}
    for tied in _tied_groups(pcs):
        order = _kept_order(tied, kept) or tied
        pc_rank.update({i: n for n, i in enumerate(order)})

    def key(c: Character) -> tuple[int, int, int]:
        if c.kind == "pc":
            return (-order_value(c), 0, pc_rank.get(c.id, 0))
        rank = enemy_ties.index(c.id) if c.id in enemy_ties else 0
        return (-order_value(c), 1, rank)

    return tuple(c.id for c in sorted(characters, key=key))


def legacy_pairs(order: Sequence[str]) -> tuple[Pair, ...]:
    """Events written before ties were kept as pairs carry one list: every pair it orders."""
    return tuple(sorted(_pairs(list(order))))
