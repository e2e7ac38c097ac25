"""The combat as the table sees it (issue #20, 17.): fighters, hand counts, initiative cards,
the order, whose turn and phase, the attack, the deck's size and the discard pile with face-down
cards as backs. A hand is its seat's alone: it is read under the seat's `me` (view.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from domain.rulesets.chojin_locke.combat.state import Attack, Combat, JoinRequest, Maintained
from domain.rulesets.chojin_locke.playing_cards import PlayingCard


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class FighterView(_Frozen):
    id: int
    name: str
    kind: str
    seat: int | None
    hand: int  # how many C-cards it holds: public, never which
    hand_limit: int
    minions: int
    initiative: PlayingCard | None
    acted: bool
    defence: Maintained | None
    stunned_rounds: int  # 気絶: rounds left, this one included (0: not fainted)
    left: bool
    moved: bool = False  # left, and its piece moved away (5.7)
    members: Sequence[int]
    firepower: int
    joined_round: int  # later than the round: a delayed arrival, not in the combat yet
    jammer: bool
    jammer_lv: int  # the X of its ESPジャマーLV:X
    illusion_immune: bool  # 「幻覚の効果を受けない」
    esp_level: int  # an エスパー NPC's
    shift: int  # an エスパー NPC's [格闘:X]
    proxy: bool = False  # a [代理:X] fights in its place (3.1 l.373: only that it is used is said)
    from_square: bool = False  # an NPC the square's effect brought (6.2 l.1341–1344)


class AttackView(_Frozen):
    """The attack under way, less what is sealed to its attacker (`Attack.suit`)."""

    attacker: int
    target: int
    card: str | None
    weapon: bool  # an obstacle's weapons (no card, no 格闘)
    remnant: bool  # a 残留思念's attack (no answer)
    lv: int
    firepower: int
    joiners: Sequence[int]
    joined_cards: Sequence[str]
    hinderers: Sequence[int]  # 残留思念 that hindered it (妨害)
    awaiting: str
    defended_by: str | None
    declared_endurance: int | None
    counter: int | None
    sync_waiting: Sequence[int]
    minion_joins: int
    shift: int
    counters: Sequence[str] = ()  # [対抗(攻撃)] abilities and cards its target used on it

    @classmethod
    def of(cls, attack: Attack | None) -> AttackView | None:
        if attack is None:
            return None
        return cls.model_validate(attack.model_dump(exclude={"suit"}))


class CombatView(_Frozen):
    square: str
    stage: str
    started_by: int
    round: int
    step: str
    fighters: list[FighterView]
    order: Sequence[int]
    current: int | None
    phase: str
    main_done: bool
    attacked: bool
    # 3.1 l.293–300: the current fighter's [攻撃]/[逃避] actions this combat turn (ruling CL-096)
    turn_actions: Sequence[str] = ()
    attack: AttackView | None
    deck: int  # cards left in the deck
    discard: list[str | None]  # the pile bottom first; a face-down card reads null
    continuing: Mapping[str, bool]
    discarding: Sequence[int]
    join_request: JoinRequest | None  # an onlooker's 実は参加していたチェック awaiting consent
    join_checked: Sequence[int] = ()  # seats that made 実はそこにいた/実は生きていた this combat
    mystery: Sequence[int] = ()  # fighters that declared 謎の特殊能力 this combat (not which)
    # [死亡時]: who has just died and has its window open, with the abilities it used there
    dying: Mapping[str, Sequence[str]] = {}


def combat_view(fight: Combat) -> CombatView:
    hidden = set(fight.face_down)
    return CombatView(
        square=fight.square,
        stage=fight.stage,
        started_by=fight.started_by,
        round=fight.round,
        step=fight.step,
        fighters=[
            FighterView(
                id=f.id,
                name=f.name,
                kind=f.kind,
                seat=f.seat,
                hand=len(fight.hands.get(f.id, ())),
                hand_limit=f.hand_limit,
                minions=f.minions,
                initiative=f.initiative,
                acted=f.acted,
                defence=f.defence,
                stunned_rounds=max(f.fainted_until - fight.round + 1, 0),
                left=f.left,
                moved=f.moved,
                members=list(f.members),
                firepower=f.firepower,
                joined_round=f.joined_round,
                jammer=f.jammer,
                jammer_lv=f.jammer_lv,
                illusion_immune=f.illusion_immune,
                esp_level=f.esp_level,
                shift=f.shift,
                proxy=f.proxy,
                from_square=f.from_square,
            )
            for _, f in sorted(fight.fighters.items())
        ],
        order=list(fight.order),
        current=fight.current,
        phase=fight.phase,
        main_done=fight.main_done,
        attacked=fight.attacked,
        turn_actions=list(fight.turn_actions),
        attack=AttackView.of(fight.attack),
        deck=len(fight.deck),
        discard=[None if i in hidden else c for i, c in enumerate(fight.discard)],
        continuing={str(n): go for n, go in sorted(fight.continuing.items())},
        discarding=list(fight.discarding),
        join_request=fight.join_request,
        join_checked=list(fight.join_checked),
        mystery=list(fight.mystery),
        dying={str(n): list(used) for n, used in sorted(fight.dying.items())},
    )
