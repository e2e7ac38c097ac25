"""A campaign in one game: the scenario's stages and the 万札プール (2-2, 2-10).

L35 「シナリオは「ダンゴウ」→「シナリオ本編」→「評価」→「余暇」の単位で構成され、
上記の順番で進行する」;
L37 「シナリオ本編で獲得していた金品は「万札プール」に貯められており、本編終了後にチーム内で
山分けされる。続く「余暇」では、【万札】を費やして成長や強化を行ったり」; L116 「倒した敵から
ドロップした【万札】は、全て自動的にプレイヤー側の「万札プール」に回収されたとみなし…「万札
プール」に集められた【万札】は、シナリオ終了時に換金され山分けされる」.

The 本編 ends with `end_scenario` (its ScenarioEnded opens the 評価); `split_pool` shares the
pool out in the 評価; `scenario_stage` moves on to the 余暇, then to the next scenario's
ダンゴウ and its 本編.
"""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import KirokuError, RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Items, Message
from domain.model.records import Draft

from . import guards
from .changes import noted, with_characters
from .rules import NINJA_SLAYER, NinjaTable
from .state import STAGES, NinjaState, Stage
from .words import said

NEXT: dict[Stage, Stage] = {"ダンゴウ": "本編", "評価": "余暇", "余暇": "ダンゴウ"}


def stage(state: NinjaState, *allowed: Stage, what: str) -> None:
    """Refuse `what` outside the stages that allow it."""
    if state.stage not in allowed:
        where = tuple(allowed)
        code = "not_in_honpen" if allowed == ("本編",) else "wrong_stage"
        raise RuleViolation(
            code,
            "{what}は{where}で行う (いまはシナリオ{scenario}の{stage})。",
            params={"what": what, "where": where, "scenario": state.scenario, "stage": state.stage},
        )


@NINJA_SLAYER.event
class StageChanged(Event):
    """The scenario moves on to its next stage (a new scenario begins with its ダンゴウ)."""

    scenario: int
    stage: Stage


@NINJA_SLAYER.folds(StageChanged)
def _stage_changed(state: NinjaState, event: StageChanged, seq: int) -> NinjaState:
    state = state.model_copy(
        update={"scenario": event.scenario, "stage": event.stage, "staged": True}
    )
    if event.stage != "ダンゴウ":
        return state
    # 「『●部位損傷』が1箇所でも残った状態で次のシナリオを開始した場合」: what is carried in now;
    # 「シナリオ開始時に、キャラクターは所持している武器の数に応じて即応ダイスを獲得する」 (L28),
    # so weapons bought in the 余暇 count.
    carried = [
        c.model_copy(
            update={
                "carried": tuple(c.injuries),
                "now": c.now.model_copy(
                    update={
                        "reaction": c.sheet.starting_reaction_dice(),
                        "emergency": c.sheet.emergency_dice,
                    }
                ),
            }
        )
        for c in state.characters.values()
    ]
    return with_characters(state, *carried).model_copy(update={"dropped": ()})


@NINJA_SLAYER.says(StageChanged)
def _says_stage(e: StageChanged) -> Message:
    return Message(N_("シナリオ{scenario}: {stage}"), {"scenario": e.scenario, "stage": e.stage})


@NINJA_SLAYER.command("scenario_stage")
class ScenarioStage(Command):
    """GM: the next stage — ダンゴウ → 本編; 評価 → 余暇 → the next scenario's ダンゴウ (the
    本編 ends with `end_scenario`). A game opening in its first 本編 may go back to its
    ダンゴウ first."""

    stage: Stage


@NINJA_SLAYER.decides(ScenarioStage)
def scenario_stage(t: NinjaTable, command: ScenarioStage, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "move the scenario on")
    if state.combat is not None:
        raise RuleViolation("combat_in_progress", "End the combat first.")
    guards.nothing_pending(state)
    opening = (
        state.scenario == 1
        and state.stage == "本編"
        and command.stage == "ダンゴウ"
        and not state.staged
        and state.combats == 0
        and not any(c.history for c in state.characters.values())
    )
    if not opening and NEXT.get(state.stage) != command.stage:
        follows = "end_scenario (本編 → 評価)" if state.stage == "本編" else NEXT[state.stage]
        raise RuleViolation(
            "wrong_stage",
            "シナリオは{STAGES}の順に進む: {stage}の次は{follows}。",
            params={"STAGES": "→".join(STAGES), "stage": state.stage, "follows": follows},
        )
    if state.stage == "評価" and state.pool:
        raise RuleViolation(
            "pool_not_split",
            "万札プールの{pool}を山分けしてから余暇に進む (split_pool)。",
            params={"pool": state.pool},
        )
    scenario = state.scenario + 1 if state.stage == "余暇" else state.scenario
    return [Draft(StageChanged(scenario=scenario, stage=command.stage))]


@NINJA_SLAYER.event
class Dropped(Event):
    """【万札】 into the 万札プール: a defeated enemy's drop, or loot the GM names."""

    amount: int
    character: str | None = None
    reason: str


@NINJA_SLAYER.folds(Dropped)
def _dropped(state: NinjaState, event: Dropped, seq: int) -> NinjaState:
    dropped = (*state.dropped, event.character) if event.character else state.dropped
    return state.model_copy(update={"pool": state.pool + event.amount, "dropped": dropped})


@NINJA_SLAYER.says_named(Dropped)
def _says_dropped(e: Dropped, names: Names) -> Message:
    dropped = {"amount": e.amount, "reason": said(e.reason)}  # the GM's words, or ドロップ
    if e.character is None:
        return Message(N_("万札プール +{amount} ({reason})"), dropped)
    return Message(
        N_("万札プール +{amount} ({character}の{reason})"),
        {**dropped, "character": names.of(e.character)},
    )


@NINJA_SLAYER.command("drop")
class Drop(Command):
    """GM, 本編: a defeated enemy's 【万札】 (its sheet's, unless `amount` says) or found loot."""

    character: str | None = Field(default=None, description="The defeated enemy")
    amount: int | None = Field(default=None, ge=0, le=9999)
    reason: str = Field(default="ドロップ", min_length=1, max_length=200)


DEFEATED = ("気絶", "爆発四散", "removed")


@NINJA_SLAYER.decides(Drop)
def drop(t: NinjaTable, command: Drop, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "fill the 万札プール")
    stage(state, "本編", what=N_("万札のドロップ"))
    if command.character is None:
        if command.amount is None:
            raise KirokuError("amount_required", "ドロップした【万札】の額を書く (amount)。")
        return [Draft(Dropped(amount=command.amount, reason=command.reason))]
    enemy = guards.character(state, command.character)
    if enemy.kind == "pc":
        raise RuleViolation(
            "not_an_enemy",
            "{enemy}は敵ではない: 万札はPCからはドロップしない。",
            params={"enemy": enemy.name},
        )
    if enemy.status not in DEFEATED:
        raise RuleViolation(
            "not_defeated", "{enemy}はまだ倒されていない。", params={"enemy": enemy.name}
        )
    if enemy.id in state.dropped:
        raise RuleViolation(
            "already_dropped",
            "{enemy}の【万札】はもう万札プールにある。",
            params={"enemy": enemy.name},
        )
    amount = enemy.sheet.manzatsu if command.amount is None else command.amount
    return [Draft(Dropped(amount=amount, character=enemy.id, reason=command.reason))]


@NINJA_SLAYER.event
class PoolSplit(Event):
    """The 評価: the 万札プール shared out among the PCs."""

    shares: dict[str, int]


@NINJA_SLAYER.folds(PoolSplit)
def _split(state: NinjaState, event: PoolSplit, seq: int) -> NinjaState:
    for pc, share in event.shares.items():
        found = state.characters.get(pc)
        if found is None:
            continue
        sheet = found.sheet.model_copy(update={"manzatsu": found.sheet.manzatsu + share})
        state = with_characters(state, found.model_copy(update={"sheet": sheet}))
        state = noted(state, pc, seq, f"万札プールの山分け: 【万札】+{share}")
    return state.model_copy(update={"pool": 0})


@NINJA_SLAYER.says_named(PoolSplit)
def _says_split(e: PoolSplit, names: Names) -> Message:
    shares = Items(
        Message(N_("{pc} {share}"), {"pc": names.of(pc), "share": share})
        for pc, share in e.shares.items()
    )
    return Message(N_("万札プールを山分け: {shares}"), {"shares": shares})


@NINJA_SLAYER.command("split_pool")
class SplitPool(Command):
    """GM, 評価: share the 万札プール out (`shares` adding up to it; equal shares if omitted)."""

    shares: dict[str, int] | None = Field(default=None, max_length=20)


@NINJA_SLAYER.decides(SplitPool)
def split_pool(t: NinjaTable, command: SplitPool, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "split the 万札プール")
    stage(state, "評価", what=N_("万札プールの山分け"))
    pcs = [c.id for c in state.characters.values() if c.kind == "pc" and c.status != "爆発四散"]
    shares = command.shares
    if shares is None:
        if not pcs or state.pool % len(pcs):
            raise RuleViolation(
                "shares_required",
                "万札プールの{pool}は{n_pcs}人で割り切れない: 分け方を書く (shares)。",
                params={"pool": state.pool, "n_pcs": len(pcs)},
            )
        shares = {pc: state.pool // len(pcs) for pc in pcs}
    for pc, share in shares.items():
        if pc not in pcs or share < 0:
            raise KirokuError(
                "bad_share",
                "{pc}には分けられない (生きているPCに0以上を)。",
                params={"pc": state.characters[pc].name if pc in state.characters else pc},
            )
    if sum(shares.values()) != state.pool:
        raise KirokuError(
            "shares_mismatch",
            "分け前の合計{values}が万札プールの{pool}と合わない。",
            params={"values": sum(shares.values()), "pool": state.pool},
        )
    return [Draft(PoolSplit(shares=shares))]
