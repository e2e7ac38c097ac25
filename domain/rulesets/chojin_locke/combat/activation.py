"""5.3 発動チェック, and `play_card`: a C-card used as the combat turn's main action.

5.3 l.1017–1031: 「発動チェックの成功・失敗に関わらず、使用されたCカードは捨て札に置かれ、
ESPパワーを使用したCカードのLV分だけ消費します。
 1.使用するCカードを手札から場に公開します。
 2.自分のESP能力レベルを宣言します。
   宣言したESP能力レベルがCカードのLV以上の場合、発動チェックは成功となります。
   宣言したESP能力レベルがCカードのLVより低い場合、3へ移行します。
 3.CカードのLVと宣言したESP能力レベルの差の数だけ精神力チェックを行います。
   この精神力チェックは精神力の値と精神力チェックを行う回数を宣言してから行います。
   全ての精神力チェックに成功した場合、発動チェックは成功となります。
   1回でも精神力チェックに失敗した場合、発動チェックは失敗となります。」

The declarations are checked against the sealed sheet first (declarations.py): a refusal goes
only to the declarer and nothing is appended. The remaining power below the ESP level lowers
it (stats.current), so a spent character cannot declare its printed level.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.lifecycle_events import RollRecord
from domain.model.records import Draft
from domain.rulesets.chojin_locke.cards import COUNTER_ATTACK, MAIN, CombatCard, CombatKind
from domain.rulesets.chojin_locke.combat import exclusive, illusion, jammer, negation
from domain.rulesets.chojin_locke.combat.action_events import AttackLanded, CardActivated
from domain.rulesets.chojin_locke.combat.conditions import fainted
from domain.rulesets.chojin_locke.combat.initiative import in_play
from domain.rulesets.chojin_locke.combat.leaving import party_leaves
from domain.rulesets.chojin_locke.combat.npc import struck
from domain.rulesets.chojin_locke.combat.start import forced_targets
from domain.rulesets.chojin_locke.combat.state import Attack, Combat, Fighter
from domain.rulesets.chojin_locke.declarations import check_declaration, declared_roll
from domain.rulesets.chojin_locke.guards import living, playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState, Player

TIMING_NAMES = {MAIN: "主要", COUNTER_ATTACK: "対抗(攻撃)"}


def in_combat(t: ChojinTable) -> tuple[ChojinState, Combat]:
    state = playing(t)
    if state.combat is None:
        raise RuleViolation("no_combat", "No combat is running.")
    if state.combat.step != "turns":
        raise RuleViolation("not_combat_turns", "C-cards are used in the combat turns (5.2).")
    return state, state.combat


def my_fighter(state: ChojinState, combat: Combat, t: ChojinTable, actor: str) -> Player:
    number = t.seat_of(actor)
    someone = combat.fighters.get(number)
    if someone is None or someone.left:
        raise RuleViolation("not_fighting", "Your character is not in this combat.")
    return living(state, number)


def main_action(t: ChojinTable, actor: str) -> tuple[ChojinState, Combat, Player]:
    """The acting fighter's combat turn, main phase, no main action yet, no attack pending."""
    state, combat = in_combat(t)
    me = my_fighter(state, combat, t, actor)
    if combat.current != me.seat:
        raise RuleViolation("not_your_combat_turn", "It is not your combat turn.")
    if combat.phase != "main":
        raise RuleViolation("wrong_phase", "This is a main action (主要フェイズ).")
    if combat.main_done:
        raise RuleViolation("main_action_used", "You have already taken this combat turn's main.")
    if combat.attack is not None:
        raise RuleViolation("attack_pending", "The attack under way is resolved first.")
    return state, combat, me


def no_proxy(combat: Combat, seat: int) -> None:
    """3.1 l.375–376: 「代理を使用している間はコンバットカードを捨てることができません。
    また、コンバットカードや能力カード等、代理が持つ特殊能力以外は使用することができません。」"""
    someone = combat.fighters.get(seat)
    if someone is not None and someone.proxy:
        raise RuleViolation(
            "proxy_in_use", "While your 代理 fights, only its own abilities are used (3.1)."
        )


def target_of(state: ChojinState, combat: Combat, me: Player, target: int | None) -> Fighter:
    """5.4 l.1039–1040: 「攻撃Cカードを使用する対象1体(攻撃対象)を宣言します。」; never one's
    party member (6.1 l.1232)."""
    if target is None:
        raise RuleViolation("target_required", "Name the fighter you attack (target).")
    someone = combat.fighters.get(target)
    gone = target in state.players and not state.players[target].alive
    if someone is not None and someone.kind in ("obstacle", "esper") and someone.members:
        gone = all(e <= 0 for e in someone.members)  # every member dead (6.2)
    if someone is None or someone.left or gone or target == me.seat:
        ids = ", ".join(str(f.id) for f in in_play(state) if f.id != me.seat)
        raise RuleViolation(
            "bad_target", "Attack another fighter in this combat ({ids}).", params={"ids": ids}
        )
    if target in state.party_of(me.seat):
        # 6.1 l.1232 (ruling CL-100): the party is public (formed and dissolved in the open)
        raise RuleViolation(
            "party_member_target",
            "「戦闘中、同じパーティーであるキャラクターを攻撃対象に選択できません。」 "
            "(6.1 パーティー): attack someone outside your party.",
        )
    forced = forced_targets(state, me.seat)
    if forced and target not in forced:
        # 3.2 l.401–402: 「シルエットカードが同一のキャラクターが戦闘に参加しており、自分が攻撃を
        # 行う場合、必ずシルエットカードが同一のキャラクターを攻撃対象に選択しなければいけません。」
        names = ", ".join(str(n) for n in forced)
        raise RuleViolation(
            "must_target_twin",
            "A character with your silhouette card fights here: attack it ({names}).",
            params={"names": names},
        )
    if someone.kind == "remnant":
        # 6.1 l.1189: 「基本的に残留思念は接触テレパスやゲート以外の行動の対象に選択できず」
        # (ruling CL-081; 接触テレパス and ゲート are card texts, the table's)
        raise RuleViolation(
            "remnant_not_a_target",
            "A 残留思念 cannot be chosen as the target of an action but 接触テレパス or ゲート "
            "(6.1 l.1189).",
        )
    if someone.kind == "character" and target not in state.players:
        # an NPC character with a sheet is the table's (ruling CL-061); an エスパー NPC is not
        raise RuleViolation(
            "npc_target_table_resolved", "NPC characters are resolved by the table (ruling)."
        )
    return someone


def held_card(
    state: ChojinState, combat: Combat, holder: int, name: str, kind: str, timing: str
) -> CombatCard:
    """A C-card in `holder`'s hand (sealed: a refusal goes to its holder alone), usable as
    `kind` at `timing` (5.3 l.996–998: one kind chosen)."""
    if name not in combat.hands.get(holder, ()):
        raise RuleViolation(
            "card_not_in_hand", "{name} is not in your hand.", params={"name": name}
        )
    if not jammer.usable(combat, holder, name):
        # 6.1 l.1259: 「手札に戻されたCカードはラウンド終了時まで使用できない。」
        raise RuleViolation(
            "card_locked",
            "{name} came back to your hand by an ESPジャマー: not usable before the round ends.",
            params={"name": name},
        )
    card = state.catalog.combat_card(name)
    if card is None:
        raise RuleViolation(
            "unknown_card", "{name} is not a C-card of this game's catalog.", params={"name": name}
        )
    if kind not in card.kinds:
        kinds = "/".join(card.kinds)
        raise RuleViolation(
            "wrong_kind",
            "{name} is {kinds}, not {kind}.",
            params={"name": name, "kinds": kinds, "kind": kind},
        )
    if not card.usable_as(kind, timing):
        raise RuleViolation(
            "wrong_timing",
            "{name} as {kind} is not a [{timing}] card.",
            params={"name": name, "kind": kind, "timing": TIMING_NAMES[timing]},
        )
    return card


@dataclass(frozen=True)
class Check:
    rolls: tuple[RollRecord, ...]
    success: bool


def activation(
    t: ChojinTable, me: Player, card: CombatCard, esp_level: int, willpower: int | None
) -> Check:
    """発動チェック: checks the declarations privately, then rolls (LV − declared) 2D6 ≤ the
    declared willpower. Every check declared is rolled (l.1029: 「精神力チェックを行う回数を
    宣言してから行います」); the activation fails if any fails (ruling CL-051)."""
    check_declaration(me, "esp_level", esp_level)
    checks = max(card.lv - esp_level, 0)
    if checks == 0:
        return Check(rolls=(), success=True)
    if willpower is None:
        raise RuleViolation(
            "willpower_required",
            "Below the card's LV {lv}: declare your 精神力 for {checks} 精神力チェック.",
            params={"lv": card.lv, "checks": checks},
        )
    check_declaration(me, "willpower", willpower)
    rolled = [declared_roll(t.dice, "2D6", willpower, None) for _ in range(checks)]
    return Check(rolls=tuple(r.record for r in rolled), success=all(r.success for r in rolled))


def sync_waiting(
    state: ChojinState, combat: Combat, attacker: Fighter, target: int
) -> tuple[int, ...]:
    """5.5 l.1089–1090: who may 同調 to an attack — characters who have not had their combat
    turn this round, neither the attacker nor its target; and the attacker itself while it has
    手下 (3.1 l.325–326). Whether anyone holds a suitable card is not looked at: that is
    sealed (each answers `sync` or `no_sync`)."""
    joiners = [
        f.id
        for f in in_play(state)
        if f.kind == "character"
        and f.id not in (attacker.id, target)
        and not f.acted
        and not fainted(combat, f)  # 6.1 l.1266: a fainted character does nothing
    ]
    if attacker.minions > 0:
        joiners.insert(0, attacker.id)
    return tuple(joiners)


def at_response(state: ChojinState, attack: Attack) -> list[Draft]:
    """The attack reaches its target (5.4 2.). A fainted target is hit at once (6.1 l.1267,
    ruling CL-084). A maintained defence answers it at once:
    l.1055–1056 「防御を維持しているキャラクターは攻撃に対して別の防御や回避を行うことは
    できません。また、維持されている防御のLV以上の攻撃が行われた場合、その防御を貫通して攻撃が
    命中します。」 — pierced (a hit) at its LV or more, blocked below. Otherwise the target
    answers (`respond`)."""
    assert state.combat is not None
    target = state.combat.fighters[attack.target]
    if fainted(state.combat, target):
        # 6.1 l.1267: 「相手の行動に対する[対抗(X)]も行うことができません。」: hit (ruling CL-084)
        hit = AttackLanded(
            attacker=attack.attacker,
            target=attack.target,
            lv=attack.lv,
            firepower=attack.firepower,
            outcome="hit",
        )
        return [Draft(hit)]
    kept = target.defence
    if kept is None:
        return []
    pierced = attack.lv >= kept.lv
    landed = AttackLanded(
        attacker=attack.attacker,
        target=attack.target,
        lv=attack.lv,
        firepower=attack.firepower,
        outcome="hit" if pierced else "blocked",
        by=kept.card,
        pierced=pierced,
    )
    return [Draft(landed)]


@CHOJIN_LOCKE.command("play_card")
class PlayCard(Command):
    """A C-card as the combat turn's main action (5.2, 5.3): revealed, the ESP level declared;
    below its LV, as many 精神力チェック at the declared willpower. An attack names its target."""

    card: str = Field(min_length=1, max_length=80)
    kind: CombatKind
    target: int | None = Field(default=None, ge=1)
    esp_level: int = Field(ge=0, le=12)
    willpower: int | None = Field(default=None, ge=1, le=99)


@CHOJIN_LOCKE.decides(PlayCard)
def play_card(t: ChojinTable, command: PlayCard, actor: str) -> list[Draft]:
    state, combat, me = main_action(t, actor)
    no_proxy(combat, me.seat)
    card = held_card(state, combat, me.seat, command.card, command.kind, MAIN)
    exclusive.check(combat, me.seat, [command.kind])  # 3.1 l.295, l.300 (ruling CL-096)
    target: Fighter | None = None
    attacking = command.kind == "攻撃"
    if attacking:
        target = target_of(state, combat, me, command.target)
    elif card.illusion and command.target is not None and command.target != me.seat:
        target = illusion.target_of(state, me.seat, command.target)  # a 幻覚, as its text asks
    elif command.target is not None and command.target != me.seat:
        raise RuleViolation(
            "no_target", "{kind} cards name no target here.", params={"kind": command.kind}
        )
    illusion.check_main(state, me.seat, card, target)  # 6.2 l.1315–1318
    check = activation(t, me, card, command.esp_level, command.willpower)
    waiting: tuple[int, ...] = ()
    if attacking and target is not None and check.success and card.sync:
        waiting = sync_waiting(state, combat, combat.fighters[me.seat], target.id)
    event = CardActivated(
        fighter=me.seat,
        card=card.name,
        kind=command.kind,
        use="main",
        lv=card.lv,
        firepower=card.firepower if command.kind == "攻撃" else 0,
        target=target.id if target is not None else None,
        esp_level=command.esp_level,
        willpower=command.willpower if check.rolls else None,
        rolls=check.rolls,
        success=check.success,
        sync_waiting=waiting,
    )
    drafts = [Draft(event)]
    jammed = jammer.on_use(t, state, event)  # 6.2 l.1307–1310: an obstacle's ESPジャマー
    if jammed:
        return drafts + jammed
    kept = negation.on_escape(state, event)  # 6.2 l.1330–1332: an エスパー's テレポート
    drafts += kept
    if command.kind == "逃避" and check.success and not kept:
        drafts += party_leaves(state, me.seat)  # 6.1 l.1241
    if check.success:
        drafts += illusion.took(state, me.seat, card, target.id if target else None, "main")
    if attacking and target is not None and check.success and not waiting:
        attack = Attack(
            attacker=me.seat, target=target.id, card=card.name, lv=card.lv, firepower=card.firepower
        )
        drafts += at_response(state, attack)
    return drafts + struck(t, state, drafts)
