"""6.1 ESPジャマー: a character's own ESPジャマーLV:X ability, used at its holder's choice.

l.1252–1259: 「ESPジャマーLV:X[戦闘][対抗(Cカード使用)][EM] Cカードが使用された時(同調の処理を
行った後)、使用されたCカードの最終的なLVが1~Xの場合のみ使用できる。使用されたCカードの使用を無効
にし、手札に戻させる。ただし、[攻撃]や[逃避]の行動は行われたものとして扱われる。ESPジャマーの効果を
受けたキャラクターはタイミングが合致していれば別の行動を行うことができる。ただし、手札に戻された
Cカードはラウンド終了時まで使用できない。」 3.1 l.272–274: 「[対抗(X)] (X)という行動/状況/カード等
に対して使用できることを表す特性です。同時に使用宣言があった場合は、当事者同士で相談して決めて
ください。」

`jam {ability}`: a character fighting in the combat whose sheet holds an ability with the
[対抗(Cカード使用)] timing and an LV printed in its name (「ESPジャマーLV:3」) voids the attack
C-card waiting for its answer — after its 同調, at its final LV, 1 to X —, the very window in
which the card's use has been made and nothing has come of it yet. The ability is named aloud
(its timing is not only [全般]/[通常]/[戦闘], 3.1 l.261–262); what the void does is the obstacle
jammer's (`JammerUsed`, ruling CL-082): every card of the attack back in its hand and locked until
the round end, no power spent, the attacker's [攻撃] counted and its main action open again.
Whether the sheet holds it, and its X, are the holder's secret: a refusal goes to it alone.
Other C-card uses (an escape, a defence or an escape answering, a 特殊 card) are resolved in the
command that makes them, before anyone could answer: a jammer on those stays the table's
(ruling CL-106).
"""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.combat.activation import in_combat
from domain.rulesets.chojin_locke.combat.conditions import fainted
from domain.rulesets.chojin_locke.combat.jammer import attack_jammed
from domain.rulesets.chojin_locke.combat.timed import chosen
from domain.rulesets.chojin_locke.guards import living
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable

JAM = "対抗(Cカード使用)"


@CHOJIN_LOCKE.command("jam")
class Jam(Command):
    """Your character's ESPジャマーLV:X ([対抗(Cカード使用)], named aloud) voids the attack C-card
    waiting for its answer, if its final LV is 1–X (6.1 l.1252–1259)."""

    ability: str = Field(min_length=1, max_length=60)


@CHOJIN_LOCKE.decides(Jam)
def jam(t: ChojinTable, command: Jam, actor: str) -> list[Draft]:
    state, fight = in_combat(t)
    number = t.seat_of(actor)
    mine = fight.fighters.get(number)
    if mine is None or mine.left or mine.joined_round > fight.round:
        raise RuleViolation("not_fighting", "Only a character fighting in this combat jams.")
    attack = fight.attack
    if attack is None or attack.card is None or attack.awaiting != "response":
        # l.1253 「Cカードが使用された時(同調の処理を行った後)」 (ruling CL-106)
        raise RuleViolation(
            "no_card_to_jam",
            "An ESPジャマー is used 「Cカードが使用された時(同調の処理を行った後)」: Kiroku "
            "runs it on an attack card waiting for its answer (ruling CL-106).",
        )
    if attack.attacker == number:
        raise RuleViolation("own_card", "Your ESPジャマー is for another's C-card.")
    if fainted(fight, mine):
        raise RuleViolation("fainted", "A fainted character uses no [対抗(X)] (6.1 l.1267).")
    if mine.proxy:
        raise RuleViolation(
            "proxy_in_use", "While your 代理 fights, only its own abilities are used (3.1)."
        )
    used = chosen(state, living(state, number), command.ability, None, JAM)
    level = used.level()
    if level is None or not 1 <= attack.lv <= level:
        # said to the holder alone: its X is on its sealed sheet
        raise RuleViolation(
            "jammer_lv",
            "「{used}」 is used only on a C-card whose final LV is 1–{value} (6.1 l.1254): this "
            "one "
            "is LV {lv}.",
            params={"used": used.name, "value": level or 0, "lv": attack.lv},
        )
    return [Draft(attack_jammed(state, attack, number, used.name))]
