"""Death in combat (issue #20, 14.): a character whose endurance or willpower is 0 or less, or
who took damage at or above an endurance it declared low, dies — the death the host's
set_condition applies (turn_events.died: face-up ability cards discarded, flags lost, the piece
off the board), its party dissolved, and it leaves the combat.

3.1 l.233–235: 「耐久力が0以下になったキャラクターは死亡します。…攻撃に対して耐久力を低く
宣言した場合は、ダメージが宣言した値以上になると死亡します。」; l.239: 精神力 「0以下になると
死亡します。」; 4.4 l.726–728: 「キャラクターが死亡した時、そのキャラクターのコマを盤上から
取り除き、そのキャラクターは死亡状態となります。」
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from domain.events import Event
from domain.records import Draft
from domain.rulesets.chojin_locke.changes import fighter_gone, players
from domain.rulesets.chojin_locke.combat.flow import next_turn
from domain.rulesets.chojin_locke.combat.flow_events import CombatTurnEnded
from domain.rulesets.chojin_locke.ending import end_game
from domain.rulesets.chojin_locke.host import nobody_acts
from domain.rulesets.chojin_locke.party_events import PartyDissolved
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.stats import current
from domain.rulesets.chojin_locke.turn_events import died


@CHOJIN_LOCKE.event
class FighterDied(Event):
    """A combatant died: `endurance` (0 or less, or damage at or above its declaration) or
    `willpower` (0 or less)."""

    fighter: int
    cause: Literal["endurance", "willpower"]


@CHOJIN_LOCKE.folds(FighterDied)
def _died(state: ChojinState, event: FighterDied, seq: int) -> ChojinState:
    before = state.players.get(event.fighter)
    if before is not None:
        state = players(state, died(before.model_copy(update={"condition": "dead"}), before))
    return fighter_gone(state, event.fighter)


def look_ahead(t: ChojinTable, state: ChojinState, drafts: Iterable[Draft]) -> ChojinState:
    """The state after `drafts`, through the ruleset's own folds."""
    for offset, draft in enumerate(drafts):
        state = CHOJIN_LOCKE.fold(state, draft.event, t.next_seq + offset)
    return state


def wiped_out(before: ChojinState, after: ChojinState, number: int) -> bool:
    """An obstacle whose last living member died between `before` and `after`."""
    assert before.combat is not None and after.combat is not None
    was = before.combat.fighters.get(number)
    now = after.combat.fighters.get(number)
    if was is None or now is None or now.kind != "obstacle" or not now.members:
        return False
    return any(e > 0 for e in was.members) and all(e <= 0 for e in now.members)


def casualties(
    t: ChojinTable, state: ChojinState, drafts: list[Draft], killed: Iterable[int] = ()
) -> list[Draft]:
    """Who dies of `drafts` (the fighters in `killed` took damage at or above their declared
    endurance), each with its party dissolved; the game ends when nobody can act (4.2)."""
    after = look_ahead(t, state, drafts)
    assert after.combat is not None
    out: list[Draft] = []
    dissolved: set[int] = set()
    doomed = set(killed)
    for number in sorted(after.combat.fighters):
        if wiped_out(state, after, number):
            # 6.2 l.1296–1297: every member dead, the obstacle is out of the combat
            out.append(Draft(FighterDied(fighter=number, cause="endurance")))
            continue
        someone = after.players.get(number) if after.combat.fighters[number].seat else None
        if someone is None or someone.sheet is None or not someone.alive:
            continue
        if number in doomed or current(someone, "endurance") <= 0:
            out.append(Draft(FighterDied(fighter=number, cause="endurance")))
        elif current(someone, "willpower") <= 0:
            out.append(Draft(FighterDied(fighter=number, cause="willpower")))
        else:
            continue
        party = after.party_of(number)
        if len(party) > 1 and party[0] not in dissolved:
            # 6.1: a party that can no longer act as one is dissolved (ruling 29)
            dissolved.add(party[0])
            out.append(Draft(PartyDissolved(leader=party[0], forced=True)))
    if not out:
        return []
    after = look_ahead(t, state, [*drafts, *out])
    over = nobody_acts(after)
    if over is not None:
        return out + end_game(t, over)
    assert after.combat is not None
    turn = after.combat.current
    if turn is not None and (
        (turn in after.players and not after.players[turn].alive) or wiped_out(state, after, turn)
    ):
        # its combat turn ends with it (5.2): the next fighter's begins, or the round end
        ended = [Draft(CombatTurnEnded(fighter=turn))]
        out += ended + next_turn(t, look_ahead(t, after, ended), after=turn)
    return out
