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
    stunned_rounds: int
    left: bool
    moved: bool = False  # left, and its piece moved away (5.7)
    members: Sequence[int]
    firepower: int
    joined_round: int  # later than the round: a delayed arrival, not in the combat yet
    jammer: bool


class AttackView(_Frozen):
    """The attack under way, less what is sealed to its attacker (`Attack.suit`)."""

    attacker: int
    target: int
    card: str | None
    weapon: bool  # an obstacle's weapons (no card, no 格闘)
    lv: int
    firepower: int
    joiners: Sequence[int]
    awaiting: str
    defended_by: str | None
    declared_endurance: int | None
    counter: int | None
    sync_waiting: Sequence[int]
    minion_joins: int
    shift: int

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
    attack: AttackView | None
    deck: int  # cards left in the deck
    discard: list[str | None]  # the pile bottom first; a face-down card reads null
    continuing: Mapping[str, bool]
    discarding: Sequence[int]
    join_request: JoinRequest | None  # an onlooker's 実は参加していたチェック awaiting consent


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
                stunned_rounds=f.stunned_rounds,
                left=f.left,
                moved=f.moved,
                members=list(f.members),
                firepower=f.firepower,
                joined_round=f.joined_round,
                jammer=f.jammer,
            )
            for _, f in sorted(fight.fighters.items())
        ],
        order=list(fight.order),
        current=fight.current,
        phase=fight.phase,
        main_done=fight.main_done,
        attacked=fight.attacked,
        attack=AttackView.of(fight.attack),
        deck=len(fight.deck),
        discard=[None if i in hidden else c for i, c in enumerate(fight.discard)],
        continuing={str(n): go for n, go in sorted(fight.continuing.items())},
        discarding=list(fight.discarding),
        join_request=fight.join_request,
    )
