"""What an audience may see: NPC numbers are the GM's (private PCs' their seat's) until revealed.

Every number a sheet gives away is a Private value addressed to those who may read the sheet;
the kit strips them for everyone else. The combat lists its public fields one by one, so a
field added to the state is shown only once it is added here.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from domain.model.audience import GM, PUBLIC
from domain.model.secrecy import Private, RulesView
from domain.model.table import TableView

from .atmosphere import elapsed
from .initiative import initiative
from .rules import NINJA_SLAYER
from .sheet import Kind, Sheet
from .state import (
    Character,
    Combat,
    CounterRight,
    CriticalDue,
    Current,
    Damage,
    NinjaState,
    Note,
    Phase,
    Stage,
    Status,
)


class CharacterView(RulesView):
    id: str
    name: str
    label: str  # what the lines call it: its name, a shared one with its number (ruling NS-054)
    owner: str
    kind: Kind
    status: Status
    revealed: bool
    weapon: str  # in plain sight
    sheet: Private[Sheet]
    now: Private[Current]
    initiative: Private[int]
    injuries: dict[str, int]  # ●部位損傷 and their ×s: told at the table when taken
    carried_injuries: int  # of those, carried into this scenario and not treated (penalty)
    history: Private[tuple[Note, ...]]
    sixth_sense_used: Private[bool]
    adrenaline_used: Private[bool]
    next_attack_difficulty: Private[int]


WASSHOI_DKK = 3  # 「1ターン中に合計3以上の【DKK】が発生したタイミング」


class CombatView(BaseModel):
    """Nothing private: every field is listed, so a new one in the state is not shown."""

    model_config = ConfigDict(frozen=True)

    turn: int
    phase: Phase
    order: tuple[str, ...]
    participants: tuple[str, ...]
    pc_ties: tuple[tuple[str, str], ...]
    boss_fight: bool
    atmosphere: int
    concentrating: bool
    moved: bool
    acted: bool
    switched: bool
    damages: tuple[Damage, ...]
    counters: tuple[CounterRight, ...]
    wasshoi_rolled: bool
    wasshoi_success: bool
    wasshoi_offered: bool  # 3 or more 【DKK】 gained this turn, Wasshoi! not yet rolled
    actor: str | None
    atmosphere_at_start: int
    count_from: int
    elapsed: int  # 経過ターン数 for the atmosphere
    dkk_this_turn: int
    placed: bool
    criticals: tuple[CriticalDue, ...]
    rows: tuple[
        CriticalDue, ...
    ]  # サツバツ! rows rolled (or カイシャク's) this phase: 即死! may follow
    entry_rolls: int


class NinjaView(RulesView):
    characters: dict[str, CharacterView]
    combats: int
    combat: CombatView | None
    hazards: tuple[Damage, ...]  # damage declared outside a combat, waiting
    scenario: int
    stage: Stage
    pool: int  # 万札プール
    dropped: tuple[str, ...]
    wasshoi_success: bool  # a Wasshoi! outside a combat succeeded: ニンジャスレイヤー may arrive


def character_view(character: Character, label: str) -> CharacterView:
    # the sheet's readers: the GM and the owner, everyone once it is revealed
    readers = (PUBLIC,) if character.revealed else tuple(dict.fromkeys((GM, character.owner)))
    return CharacterView(
        id=character.id,
        name=character.name,
        label=label,
        owner=character.owner,
        kind=character.kind,
        status=character.status,
        revealed=character.revealed,
        weapon=character.weapon,
        sheet=Private(character.sheet, readers),
        now=Private(character.now, readers),
        initiative=Private(initiative(character), readers),
        injuries=dict(character.injuries),
        carried_injuries=sum(1 for p in character.carried if p in character.injuries),
        history=Private(character.history, readers),
        sixth_sense_used=Private(character.sixth_sense_used, readers),
        adrenaline_used=Private(character.adrenaline_used, readers),
        next_attack_difficulty=Private(character.next_attack_difficulty, readers),
    )


def combat_view(combat: Combat) -> CombatView:
    return CombatView(
        turn=combat.turn,
        phase=combat.phase,
        order=combat.order,
        participants=combat.participants,
        pc_ties=combat.pc_ties,
        boss_fight=combat.boss_fight,
        atmosphere=combat.atmosphere,
        concentrating=combat.concentrating,
        moved=combat.moved,
        acted=combat.acted,
        switched=combat.switched,
        damages=combat.damages,
        counters=combat.counters,
        wasshoi_rolled=combat.wasshoi_rolled,
        wasshoi_success=combat.wasshoi_success,
        wasshoi_offered=combat.dkk_this_turn >= WASSHOI_DKK and not combat.wasshoi_rolled,
        actor=combat.actor,
        atmosphere_at_start=combat.atmosphere_at_start,
        count_from=combat.count_from,
        elapsed=elapsed(combat),
        dkk_this_turn=combat.dkk_this_turn,
        placed=combat.placed,
        criticals=combat.criticals,
        rows=combat.rows,
        entry_rolls=combat.entry_rolls,
    )


@NINJA_SLAYER.views
def view(t: TableView[NinjaState], audience: str) -> NinjaView:
    state = t.rules
    labels = NINJA_SLAYER.people(state, audience)
    characters = {i: character_view(c, labels.get(i, c.name)) for i, c in state.characters.items()}
    return NinjaView(
        characters=characters,
        combats=state.combats,
        combat=combat_view(state.combat) if state.combat is not None else None,
        hazards=state.hazards,
        scenario=state.scenario,
        stage=state.stage,
        pool=state.pool,
        dropped=state.dropped,
        wasshoi_success=state.wasshoi_success,
    )
