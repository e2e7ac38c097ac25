"""How the table reads this ruleset's events in the log (domain/model/logline.py): one line each, as
the players would say it at the table (「席3: ESP能力レベル4を宣言、チェック成功」), from what the
reader may see. A sheet, a card in hand, an ambush or a key is sealed to its holder: for anyone
else its line says that it happened, never what it was."""

from __future__ import annotations

from domain.model.logline import roll_line

from . import base_events, card_events, party_events, setup_events, turn_events
from .cards import CharacterSheet
from .combat import (
    action_events,
    before_events,
    conditions,
    counter,
    death,
    esper,
    fainting,
    flow_events,
    illusion,
    jammer,
    joining_events,
    leaving,
    main_ability,
    negation,
    obstacles,
    remnant,
)
from .rules import CHOJIN_LOCKE
from .state import Cell, Position

_says = CHOJIN_LOCKE.says

STATS = {
    "esp_level": "ESP能力レベル",
    "esp_power": "ESPパワー",
    "endurance": "耐久力",
    "willpower": "精神力",
}
PHASES = {
    "check": "チェックフェイズ",
    "support1": "支援フェイズ1",
    "support2": "支援フェイズ2",
    "main": "主要フェイズ",  # seed L540–547: the turn's phases by name
    "square": "マスの効果発動フェイズ",
    "combat": "戦闘発生フェイズ",  # 2020 (L547); the 2002 turn calls it 戦闘フェーズ
    "victory": "勝利宣言フェイズ",
    "recovery": "回復フェイズ",
    "move": "移動フェイズ",
    "instruction": "指示フェイズ",
    "destruction": "破壊フェイズ",
}
PURPOSES = {
    "check": "チェック",
    "teleport": "テレポート",
    "conversion": "説得",
    "intrusion": "侵入",
}
ACTIONS = {"recover": "回復", "treat": "治療", "pass": "パス", "teleport_failed": "テレポート失敗"}
MOVES = {"move": "移動", "spaceport": "宇宙港へ移動", "teleport": "テレポート"}
ENTRIES = {"entry": "入口から侵入", "intrusion": "強行侵入", "random": "ランダムな位置に侵入"}
SIDES = {"explorer": "探索側", "base": "基地側"}
ENDINGS = {
    "victory": "勝利",
    "sole_victory": "単独勝利",
    "keys_destroyed": "キーがすべて破壊された",
    "all_dead": "全員死亡",
    "all_out": "全員脱落",
    "vigil": "待機の終わり",
    "host": "ホストが終了",
}
STAGE_ENDS = {
    "no_cards": "惑星カードがなくなった",
    "information": "情報がそろった",
    "explorers_dead": "探索者が全滅した",
}


def _seat(n: int | None) -> str:
    return "—" if n is None else f"席{n}"


def _seats(seats: tuple[int, ...]) -> str:
    return "・".join(_seat(n) for n in seats)


def _place(p: Position) -> str:
    return f"惑星{p.planet}の宇宙港" if p.square == 0 else f"惑星{p.planet}のマス{p.square}"


def _cell(c: Cell) -> str:
    return f"基地({c.row},{c.col})"


def _sheet(sheet: CharacterSheet) -> str:
    stats = " ".join(f"{label}{getattr(sheet, key)}" for key, label in STATS.items())
    leader = " (L)" if sheet.leader else ""
    return f"{sheet.name}{leader} [{sheet.rank} {sheet.alignment}] {stats}"


def _ok(success: bool) -> str:
    return "成功" if success else "失敗"


# ------------------------------------------------------------------------------ setup (4.1)


@_says(setup_events.SheetsShuffled)
def _sheets_shuffled(e: setup_events.SheetsShuffled) -> str:
    return f"キャラクターシートを切り混ぜる (第{e.deal}配布)"


@_says(setup_events.SheetDealt)
def _sheet_dealt(e: setup_events.SheetDealt) -> str:
    sheet = f": {_sheet(e.secret.sheet)}" if e.secret else ""
    return f"{_seat(e.seat)}にキャラクターシートを配る (第{e.deal}配布){sheet}"


@_says(setup_events.SheetRefused)
def _sheet_refused(e: setup_events.SheetRefused) -> str:
    which = "前のシートに戻す" if e.kind == "refuse_previous" else "シートを拒否"
    return f"{_seat(e.seat)}: {which}"


@_says(setup_events.RebalanceClosed)
def _rebalance(e: setup_events.RebalanceClosed) -> str:
    redeal = f"、配り直し: {_seats(e.redeal)}" if e.redeal else ""
    return f"陣営の調整を終える ({'釣り合い' if e.balanced else '不均衡'}{redeal})"


@_says(setup_events.CharactersFixed)
def _fixed(e: setup_events.CharactersFixed) -> str:
    return f"キャラクター確定 (悪 {e.evil}人)"


@_says(setup_events.CardsShuffled)
def _cards_shuffled(e: setup_events.CardsShuffled) -> str:
    return f"トランプを切り混ぜる ({_seats(e.seats)}に配る)"


@_says(setup_events.CardDealt)
def _card_dealt(e: setup_events.CardDealt) -> str:
    card = e.secret
    shown = f": {'黒' if card.color == 'black' else '赤'}の{card.rank}" if card else ""
    return f"{_seat(e.seat)}にトランプを配る{shown}"


@_says(setup_events.SilhouetteChosen)
def _silhouette_chosen(e: setup_events.SilhouetteChosen) -> str:
    chosen = f": {e.secret.silhouette}" if e.secret else ""
    return f"{_seat(e.seat)}がシルエットカードを選ぶ{chosen}"


@_says(setup_events.SilhouettesRevealed)
def _silhouettes(e: setup_events.SilhouettesRevealed) -> str:
    shown = ", ".join(
        f"{_seat(seat)} {name} ({SIDES[e.sides[seat]]})"
        if seat in e.sides
        else f"{_seat(seat)} {name}"
        for seat, name in sorted(e.silhouettes.items())
    )
    return f"シルエット公開: {shown}"


@_says(setup_events.SilhouetteChanged)
def _silhouette_changed(e: setup_events.SilhouetteChanged) -> str:
    return f"{_seat(e.seat)}のシルエット: {e.silhouette} ({SIDES[e.side]})"


@_says(setup_events.PlanetsLaid)
def _planets(e: setup_events.PlanetsLaid) -> str:
    return f"惑星カード{e.cards}枚を伏せて並べる (伏兵{e.ambushes})"


@_says(setup_events.AmbushPlaced)
def _ambush(e: setup_events.AmbushPlaced) -> str:
    where = f": 惑星{e.secret.planet}のマス{e.secret.square}" if e.secret else ""
    return f"{_seat(e.seat)}が伏兵を置く{where}"


@_says(setup_events.PieceEntered)
def _piece(e: setup_events.PieceEntered) -> str:
    return f"{_seat(e.seat)}のコマが惑星{e.planet}に入る"


@_says(setup_events.PlanetStageBegun)
def _planet_stage(e: setup_events.PlanetStageBegun) -> str:
    faces = "・".join(map(str, e.draw.faces))
    return f"惑星編開始: 手番順 {_seats(e.order)} (最初は{_seat(e.first)}, 出目 {faces})"


# ------------------------------------------------------------------------------ turns (4.3)


@_says(turn_events.TurnBegun)
def _turn(e: turn_events.TurnBegun) -> str:
    skipped = f" (飛ばす: {_seats(e.skipped)})" if e.skipped else ""
    return f"{_seat(e.seat)}の手番 ({e.number}){skipped}"


@_says(turn_events.PhaseEntered)
def _phase(e: turn_events.PhaseEntered) -> str:
    return f"{_seat(e.seat)} {PHASES.get(e.phase, e.phase)}"


@_says(turn_events.Checked)
def _checked(e: turn_events.Checked) -> str:
    roll = f" [{roll_line(e.roll)}]" if e.roll else ""
    reason = f" ({e.reason})" if e.reason else ""
    return (
        f"{_seat(e.seat)}: {STATS[e.stat]}{e.declared}を宣言、"
        f"{PURPOSES[e.purpose]}{_ok(e.success)}{roll}{reason}"
    )


@_says(turn_events.Acted)
def _acted(e: turn_events.Acted) -> str:
    stat = f" {STATS.get(e.stat, e.stat)}" if e.stat else ""
    target = f" → {_seat(e.target)}" if e.target is not None else ""
    return f"{_seat(e.seat)}: {ACTIONS[e.action]}{stat}{target}"


@_says(turn_events.Moved)
def _moved(e: turn_events.Moved) -> str:
    return f"{_seat(e.seat)}: {MOVES[e.how]} → {_place(e.to)}"


@_says(turn_events.SquareTurned)
def _square(e: turn_events.SquareTurned) -> str:
    return f"{_seat(e.seat)}が惑星{e.planet}のマス{e.square}をめくる: {e.card} ({e.kind}) {e.text}"


@_says(turn_events.ConditionSet)
def _condition(e: turn_events.ConditionSet) -> str:
    damage = [
        f"{label}-{amount}"
        for label, amount in (("耐久力", e.endurance_damage), ("精神力", e.willpower_damage))
        if amount
    ]
    extra = f" {' '.join(damage)}" if damage else ""
    return f"{_seat(e.seat)}: {e.condition}{extra} ({e.reason})"


@_says(turn_events.Converted)
def _converted(e: turn_events.Converted) -> str:
    return f"{_seat(e.seat)}が{_seat(e.target)}を{e.faction}に説得: {_ok(e.success)}"


@_says(turn_events.EscapeChecked)
def _escape(e: turn_events.EscapeChecked) -> str:
    escaped = "脱出" if e.escaped else "脱出できず"
    roll = roll_line(e.roll)
    return (
        f"{_seat(e.seat)} 脱出判定 ({e.modifier:+d}) 計{e.total}: {e.result} — {escaped} [{roll}]"
    )


@_says(turn_events.SheetOpened)
def _opened(e: turn_events.SheetOpened) -> str:
    return f"{_seat(e.seat)}がシートを公開: {_sheet(e.sheet)} — {e.faction}"


@_says(turn_events.VictoryDeclared)
def _victory(e: turn_events.VictoryDeclared) -> str:
    sole = "単独" if e.sole else ""
    return (
        f"{_seat(e.seat)}が{e.faction}の{sole}勝利を宣言 (返答待ち: {_seats(e.waiting) or 'なし'})"
    )


@_says(turn_events.VictoryAnswered)
def _victory_answer(e: turn_events.VictoryAnswered) -> str:
    return f"{_seat(e.seat)}: {'異議あり' if e.objects else '異議なし'}"


@_says(turn_events.PlanetStageEnded)
def _planet_stage_ended(e: turn_events.PlanetStageEnded) -> str:
    return f"惑星編終了: {STAGE_ENDS[e.reason]}"


@_says(turn_events.GameOver)
def _game_over(e: turn_events.GameOver) -> str:
    who = " ".join(x for x in (e.faction or "", _seat(e.seat) if e.seat else "") if x)
    return f"ゲーム終了: {ENDINGS[e.reason]}" + (f" ({who})" if who else "")


# ------------------------------------------------------------------------------ cards


@_says(card_events.PlanetCardsFlipped)
def _flipped(e: card_events.PlanetCardsFlipped) -> str:
    return f"{_seat(e.seat)}が惑星カードをめくる: {'・'.join(e.cards)} (獲得 {e.gains})"


@_says(card_events.AbilityDeckShuffled)
def _ability_deck(e: card_events.AbilityDeckShuffled) -> str:
    return "能力カードの山を切り混ぜる"


@_says(card_events.AbilityCardDrawn)
def _ability_drawn(e: card_events.AbilityCardDrawn) -> str:
    card = f": {e.secret.card}" if e.secret else ""
    return f"{_seat(e.seat)}が能力カードを引く{card}"


@_says(card_events.AbilityCardUsed)
def _ability_card(e: card_events.AbilityCardUsed) -> str:
    tags = f" [{'・'.join(e.tags)}]" if e.tags else ""
    left = " — 戦闘から離脱" if e.escaped else ""
    return f"{_seat(e.seat)}が能力カード「{e.card}」を使う{tags}: {e.text}{left}"


@_says(card_events.AbilityUsed)
def _ability(e: card_events.AbilityUsed) -> str:
    """A named ability reads with its name; one used without it (3.1, lines 261–262, 373) as
    the table heard it — 「能力を使う」 or 「代理を使う」 — plus, for its user, the sealed name."""
    if e.ability is not None:
        tags = f" [{'・'.join(e.tags)}]" if e.tags else ""
        left = " — 戦闘から離脱" if e.escaped else ""
        return f"{_seat(e.seat)}が能力「{e.ability}」を使う{tags}{left}"
    said = "代理を使う" if e.proxy else "能力を使う (名前は伏せて)"
    mine = f" — 秘密: 「{e.secret.ability}」" if e.secret is not None else ""
    return f"{_seat(e.seat)}が{said}{mine}"


# ------------------------------------------------------------------------------ parties


@_says(party_events.PartyProposed)
def _proposed(e: party_events.PartyProposed) -> str:
    return f"{_seat(e.leader)}がパーティを提案: {_seats(e.partners)}"


@_says(party_events.PartyAnswered)
def _answered(e: party_events.PartyAnswered) -> str:
    return f"{_seat(e.seat)}: パーティに{'加わる' if e.accepts else '加わらない'}"


@_says(party_events.PartyFormed)
def _formed(e: party_events.PartyFormed) -> str:
    return f"パーティ結成: {_seat(e.leader)} と {_seats(e.partners)}"


@_says(party_events.PartyDissolved)
def _dissolved(e: party_events.PartyDissolved) -> str:
    return f"{_seat(e.leader)}のパーティ解散" + (" (強制)" if e.forced else "")


@_says(party_events.PartyTeleportDeclared)
def _party_teleport(e: party_events.PartyTeleportDeclared) -> str:
    direction = {"left": " 左へ", "right": " 右へ", None: ""}[e.direction]
    faces = f" 出目 {list(e.faces)}" if e.faces else ""
    return (
        f"{_seat(e.seat)}: パーティでテレポート ESP能力レベル{e.declared}を宣言{direction}{faces}"
    )


# ------------------------------------------------------------------------------ 秘密基地編


@_says(base_events.BaseLaid)
def _base_laid(e: base_events.BaseLaid) -> str:
    return f"秘密基地を伏せて並べる (キー{e.keys}個)"


@_says(base_events.KeyPlaced)
def _key(e: base_events.KeyPlaced) -> str:
    where = f": {_cell(Cell(row=e.secret.row, col=e.secret.col))}" if e.secret else ""
    return f"{_seat(e.seat)}がキーを置く{where}"


@_says(base_events.BaseStageBegun)
def _base_stage(e: base_events.BaseStageBegun) -> str:
    outside = f" (外: {_seats(e.outside)})" if e.outside else ""
    faces = f" 出目 {list(e.draw.faces)}" if e.draw else ""
    return f"秘密基地編開始: 最初は{_seat(e.first)}{outside}{faces}"


@_says(base_events.BaseEntered)
def _entered(e: base_events.BaseEntered) -> str:
    return f"{_seat(e.seat)}が{ENTRIES[e.how]} → {_cell(e.to)}"


@_says(base_events.BaseMoved)
def _base_moved(e: base_events.BaseMoved) -> str:
    return f"{_seat(e.seat)}: {MOVES[e.how]} → {_cell(e.to)}"


@_says(base_events.BaseCardTurned)
def _base_card(e: base_events.BaseCardTurned) -> str:
    destroyed = " — 破壊" if e.destroyed else ""
    cell = _cell(Cell(row=e.row, col=e.col))
    return f"{_seat(e.seat)}が{cell}をめくる: {e.card} ({e.kind}){destroyed}"


@_says(base_events.SheetInspected)
def _inspected(e: base_events.SheetInspected) -> str:
    seen = f": {_sheet(e.secret.sheet)}" if e.secret else ""
    return f"{_seat(e.seat)}が{_seat(e.target)}のシートを見る{seen}"


@_says(base_events.TeleportGranted)
def _teleport(e: base_events.TeleportGranted) -> str:
    return f"{_seat(e.seat)}: テレポート{e.squares}マス"


@_says(base_events.KeyDestroyed)
def _key_destroyed(e: base_events.KeyDestroyed) -> str:
    return f"{_seat(e.seat)}が{_cell(Cell(row=e.row, col=e.col))}のキーを破壊"


# ------------------------------------------------------------------------------ 戦闘 (chapter 5)

COMBAT_STEPS = {
    "joining": "戦闘参加フェイズ",
    "moving": "コマ移動フェイズ",
    "before": "戦闘前フェイズ",
    "hands": "手札の受け取り",
    "initiative": "イニシアチブ決定",
    "turns": "戦闘手番",
    "round_end": "ラウンド終了フェイズ",
}
COMBAT_PHASES = {
    "check": "チェックフェイズ",
    "support1": "支援フェイズ1",
    "main": "主要フェイズ",
    "support2": "支援フェイズ2",
}
COMBAT_ENDS = {
    "no_attack": "このラウンドに攻撃行動がなかった",
    "nobody_continues": "戦闘を続ける者がいない",
    "one_left": "戦闘参加者が1体以下",
    "deck_exhausted": "Cカードの山札が尽きた",
}


def _fighter(n: int) -> str:
    return _seat(n) if n < 101 else f"NPC{n}"


def _fighters(ids: tuple[int, ...]) -> str:
    return "・".join(_fighter(n) for n in ids)


def _card_name(color: str, rank: int) -> str:
    return f"{'黒' if color == 'black' else '赤'}{rank}"


@_says(flow_events.CombatStarted)
def _combat_started(e: flow_events.CombatStarted) -> str:
    freed = f" (拘束・逮捕解除: {_fighters(e.released)})" if e.released else ""
    carried = " (戦闘離脱後: 状態を継続したまま)" if e.carried is not None else ""
    return (
        f"{_seat(e.seat)}が戦闘を発生させる ({e.square}){carried}: {_fighters(e.fighters)}{freed}"
    )


@_says(flow_events.CombatStepEntered)
def _combat_step(e: flow_events.CombatStepEntered) -> str:
    return f"戦闘 {e.round}ラウンド目: {COMBAT_STEPS[e.step]}"


@_says(flow_events.CombatDeckShuffled)
def _combat_deck(e: flow_events.CombatDeckShuffled) -> str:
    return f"Cカード{e.cards}枚の山札を切り混ぜる"


@_says(flow_events.CombatCardsDrawn)
def _combat_drawn(e: flow_events.CombatCardsDrawn) -> str:
    cards = f": {'・'.join(e.secret.cards)}" if e.secret else ""
    return f"{_fighter(e.fighter)}がCカードを{e.count}枚引く{cards}"


@_says(flow_events.InitiativeDealt)
def _initiative(e: flow_events.InitiativeDealt) -> str:
    ranked = [n for n in e.order if n in e.cards] + [n for n in e.cards if n not in e.order]
    cards = ", ".join(
        f"{_fighter(n)} {_card_name(e.cards[n].color, e.cards[n].rank)}" for n in ranked
    )
    return f"{e.round}ラウンド目のイニシアチブ: {cards} (行動順 {_fighters(e.order)})"


@_says(flow_events.CombatTurnBegun)
def _combat_turn(e: flow_events.CombatTurnBegun) -> str:
    only = " (同調済み: チェックフェイズのみ)" if e.check_only else ""
    return f"{_fighter(e.fighter)}の戦闘手番{only}"


@_says(flow_events.CombatPhaseEntered)
def _combat_phase(e: flow_events.CombatPhaseEntered) -> str:
    return f"{_fighter(e.fighter)} {COMBAT_PHASES[e.phase]}"


@_says(flow_events.CombatTurnEnded)
def _combat_turn_ended(e: flow_events.CombatTurnEnded) -> str:
    return f"{_fighter(e.fighter)}の戦闘手番終了"


@_says(flow_events.CombatPassed)
def _combat_passed(e: flow_events.CombatPassed) -> str:
    return f"{_fighter(e.fighter)}: パス"


@_says(flow_events.CombatCardDiscarded)
def _combat_discarded(e: flow_events.CombatCardDiscarded) -> str:
    card = f": {e.secret.card}" if e.secret else ""
    return f"{_fighter(e.fighter)}がCカードを1枚伏せて捨てる{card}"


@_says(flow_events.CombatRoundEnding)
def _round_ending(e: flow_events.CombatRoundEnding) -> str:
    attacked = "攻撃行動あり" if e.attacked else "攻撃行動なし"
    return f"{e.round}ラウンド目終了 ({attacked})"


@_says(flow_events.ContinueAnswered)
def _continue(e: flow_events.ContinueAnswered) -> str:
    return f"{_fighter(e.fighter)}: {'戦闘を続ける' if e.go_on else '戦闘を続けない'}"


@_says(flow_events.CombatContinues)
def _continues(e: flow_events.CombatContinues) -> str:
    waiting = f" (手札を捨てる: {_fighters(e.waiting)})" if e.waiting else ""
    return f"戦闘継続{waiting}"


@_says(flow_events.HandDiscardedDown)
def _discarded_down(e: flow_events.HandDiscardedDown) -> str:
    cards = f": {'・'.join(e.secret.cards)}" if e.secret and e.secret.cards else ""
    return f"{_fighter(e.fighter)}が手札を{e.count}枚伏せて捨てる{cards}"


@_says(flow_events.CombatRoundBegun)
def _round_begun(e: flow_events.CombatRoundBegun) -> str:
    return f"戦闘 {e.round}ラウンド目: コマ移動フェイズ"


@_says(flow_events.CombatEnded)
def _combat_ended(e: flow_events.CombatEnded) -> str:
    return f"戦闘終了 ({COMBAT_ENDS[e.reason]}、{e.round}ラウンド目)"


# ------------------------------------------------------------------------------ combat (5.3–5.6)

USES = {"main": "使用", "response": "で対抗", "sync": "で同調", "minion_sync": "で手下が同調"}
OUTCOMES = {"hit": "命中", "blocked": "防御された", "evaded": "回避された (戦闘から離脱)"}
CAUSES = {"endurance": "耐久力", "willpower": "精神力"}


@_says(action_events.CardActivated)
def _activated(e: action_events.CardActivated) -> str:
    target = f" → {_fighter(e.target)}" if e.target is not None and e.use == "main" else ""
    esp = f"、ESP能力レベル{e.esp_level}を宣言" if e.esp_level is not None else ""
    checks = ""
    if e.rolls:
        rolls = " / ".join(roll_line(r) for r in e.rolls)
        checks = f"、精神力{e.willpower}で精神力チェック{len(e.rolls)}回 [{rolls}]"
    ok = "" if e.use == "minion_sync" else f"、発動{_ok(e.success)}"
    card = f"Cカード「{e.card}」(LV{e.lv} {e.kind}){USES[e.use]}"
    return f"{_fighter(e.fighter)}: {card}{target}{esp}{checks}{ok}"


@_says(action_events.SyncDeclined)
def _declined(e: action_events.SyncDeclined) -> str:
    return f"{_fighter(e.fighter)}: 同調しない"


@_says(action_events.AttackLanded)
def _landed(e: action_events.AttackLanded) -> str:
    by = f" ({e.by}{'を貫通' if e.pierced else ''})" if e.by else ""
    return (
        f"{_fighter(e.attacker)}の攻撃 (LV{e.lv} 火力{e.firepower}) → "
        f"{_fighter(e.target)}: {OUTCOMES[e.outcome]}{by}"
    )


@_says(action_events.MeleeDeclared)
def _melee(e: action_events.MeleeDeclared) -> str:
    shift = f" [格闘:{e.shift}]" if e.shift else ""
    suit = " (スーツ込み)" if e.secret and e.secret.suit else ""
    who = f"{_fighter(e.attacker)}: {_fighter(e.target)}に格闘"
    return f"{who}、耐久力{e.endurance}を宣言{shift}{suit}"


@_says(action_events.MeleeAnswered)
def _melee_answered(e: action_events.MeleeAnswered) -> str:
    shift = f" [格闘:{e.shift}]" if e.shift else ""
    suit = " (スーツ込み)" if e.secret and e.secret.suit else ""
    back = "反撃する" if e.fights_back else "反撃しない"
    return f"{_fighter(e.target)}: 耐久力{e.endurance}を宣言{shift}{suit}、{back}"


@_says(action_events.DamageRolled)
def _damage(e: action_events.DamageRolled) -> str:
    suit = " (スーツ)" if e.secret and e.secret.suit else ""
    suit += " (代理)" if e.proxy else ""
    member = f"の{e.member + 1}人目" if e.member is not None else ""
    return (
        f"{_fighter(e.roller)}の損害判定 → {_fighter(e.target)}{member}: 火力{e.firepower} 対 "
        f"耐久力{e.endurance}{suit} ({e.column}) [{roll_line(e.roll)}] ダメージ{e.damage}"
    )


@_says(death.FighterDied)
def _fighter_died(e: death.FighterDied) -> str:
    return f"{_fighter(e.fighter)}が死亡 ({CAUSES[e.cause]}) — 戦闘から外れる"


def _used(ability: str | None, card: str | None, tags: tuple[str, ...]) -> str:
    what = f"能力カード「{card}」" if card is not None else f"能力「{ability}」"
    tagged = f" [{'・'.join(tags)}]" if tags else ""
    return f"{what}{tagged}"


@_says(counter.CounterAbilityUsed)
def _counter_ability(e: counter.CounterAbilityUsed) -> str:
    effect = f": {e.effect}" if e.effect else ""
    text = f" ({e.text})" if e.text else ""
    avoid = {"blocked": " — 攻撃を防御", "evaded": " — 攻撃を回避"}.get(e.avoid or "", "")
    return (
        f"{_fighter(e.seat)}が{_fighter(e.attacker)}の攻撃に[対抗(攻撃)]: "
        f"{_used(e.ability, e.card, e.tags)}{text}{effect}{avoid}"
    )


@_says(main_ability.MainAbilityUsed)
def _main_ability(e: main_ability.MainAbilityUsed) -> str:
    effect = f": {e.effect}" if e.effect else ""
    text = f" ({e.text})" if e.text else ""
    then = " — 効果なし、別の主要行動へ" if e.no_effect else " — 戦闘から離脱" if e.escaped else ""
    return f"{_fighter(e.seat)}の主要行動: {_used(e.ability, e.card, e.tags)}{text}{effect}{then}"


@_says(death.DeathWindowOpened)
def _death_window(e: death.DeathWindowOpened) -> str:
    return f"{_fighters(e.seats)}の死亡時: [死亡時]の能力を使うか、宣言を待つ"


@_says(death.DeathAbilityUsed)
def _death_ability(e: death.DeathAbilityUsed) -> str:
    effect = f": {e.effect}" if e.effect else ""
    text = f" ({e.text})" if e.text else ""
    return f"{_seat(e.seat)}が死亡時に{_used(e.ability, e.card, e.tags)}を使う{text}{effect}"


@_says(death.DeathWindowClosed)
def _death_window_closed(e: death.DeathWindowClosed) -> str:
    return f"{_seat(e.seat)}: 死亡時の宣言を終える"


@_says(action_events.ProxyUsed)
def _proxy(e: action_events.ProxyUsed) -> str:
    return f"{_fighter(e.fighter)}: 代理を{'退却させる' if e.withdrawn else '使用'}"


# ------------------------------------------------------------------ 戦闘参加 / 戦闘前 (5.1)

JOIN_CHECKS = {"there": "実はそこにいた", "alive": "実は生きていた", "joined": "実は参加していた"}


@_says(joining_events.JoinChecked)
def _join_checked(e: joining_events.JoinChecked) -> str:
    who = _seat(e.seat) if e.seat is not None else f"{e.person}"
    line = f"{who} {JOIN_CHECKS[e.check]}チェック 計{e.total}: {e.result} [{roll_line(e.roll)}]"
    if e.remnant_roll is not None:
        line += f" — 残留思念チャート: {e.remnant_result} [{roll_line(e.remnant_roll)}]"
    return line


@_says(joining_events.JoinedCombat)
def _joined_combat(e: joining_events.JoinedCombat) -> str:
    kind = {"character": "", "obstacle": " (障害)", "remnant": " (残留思念)"}[e.kind]
    who = _seat(e.seat) if e.kind == "character" else e.name
    when = f" ({e.joined_round}ラウンド目から)" if e.joined_round > 1 else ""
    power = f" 火力{e.firepower}" if e.kind != "character" and e.firepower else ""
    return f"{who}{kind}が戦闘に参加{when}{power}"


@_says(joining_events.JoinRequested)
def _join_requested(e: joining_events.JoinRequested) -> str:
    return f"{e.person}の実は参加していたチェック: 全員の同意を求める ({_seats(e.waiting)})"


@_says(joining_events.JoinAnswered)
def _join_answered(e: joining_events.JoinAnswered) -> str:
    return f"{_seat(e.seat)}: {'同意' if e.consents else '同意しない'}"


@_says(joining_events.ArrivedOnSquare)
def _arrived(e: joining_events.ArrivedOnSquare) -> str:
    return f"{_seat(e.seat)}のコマが戦闘のマス {e.square} へ移動"


@_says(joining_events.RemnantsLeft)
def _remnants_left(e: joining_events.RemnantsLeft) -> str:
    return f"残留思念が戦闘から離脱: {_fighters(e.ids)}"


@_says(before_events.MysteryAbilityRolled)
def _mystery(e: before_events.MysteryAbilityRolled) -> str:
    which = ""
    if e.secret is not None:
        which = f" (「{e.secret.ability}」)" if e.secret.ability else " (効果なし)"
    return f"{_seat(e.seat)}: 謎の特殊能力{which} [{roll_line(e.roll)}]"


@_says(before_events.BeforeAbilityUsed)
def _before_ability(e: before_events.BeforeAbilityUsed) -> str:
    which = f" 「{e.secret.ability}」" if e.secret is not None else ""
    effect = f": {e.effect}" if e.effect else " (自分への効果)"
    return f"{_seat(e.seat)}: [戦闘前]の能力を使用{which}{effect}"


@_says(before_events.MinionsDeclared)
def _minions(e: before_events.MinionsDeclared) -> str:
    which = f" (「{e.secret.ability}」 手下:{e.secret.level})" if e.secret is not None else ""
    return f"{_seat(e.seat)}: 手下{e.count}人を宣言{which} — 手札上限+{e.count}"


@_says(obstacles.ObstacleJoined)
def _obstacle(e: obstacles.ObstacleJoined) -> str:
    members = "・".join(str(n) for n in e.members)
    jammer = f" ESPジャマーLV:{e.jammer_lv}所持" if e.jammer else ""
    jammer += " 幻覚の効果を受けない" if e.illusion_immune else ""
    jammer += " マスの効果による" if e.square is not None else ""
    return (
        f"障害「{e.name}」が戦闘に参加 ({_fighter(e.fighter)}: {len(e.members)}人、"
        f"耐久力 {members}、火力{e.firepower}{jammer})"
    )


@_says(obstacles.ObstacleAttacked)
def _obstacle_attacked(e: obstacles.ObstacleAttacked) -> str:
    how = ""
    if e.roll is not None:
        how = f" (ランダム: {_fighters(e.candidates)}から [{roll_line(e.roll)}])"
    if e.melee:
        # 6.2 l.1298–1301: a 格闘, each member fighting on its own (ruling CL-078)
        return f"{_fighter(e.fighter)}が格闘攻撃 → {_fighter(e.target)}{how}: LV{e.lv}"
    return (
        f"{_fighter(e.fighter)}が武器で攻撃 → {_fighter(e.target)}{how}: LV{e.lv} 火力{e.firepower}"
    )


# ------------------------------------------------------------------------------ leaving (5.7)
AFTERMATH_PHASES = {
    "square": "マスの効果発動フェイズ",
    "support": "支援フェイズ",
    "combat": "戦闘発生フェイズ",
}


@_says(leaving.EscapeMoved)
def _escape_moved(e: leaving.EscapeMoved) -> str:
    where = _cell(e.cell) if e.cell is not None else _place(e.to) if e.to is not None else "?"
    return f"{_fighter(e.fighter)}: 戦闘から離脱して{where}へ移動"


@_says(leaving.AftermathPhaseEntered)
def _aftermath_phase(e: leaving.AftermathPhaseEntered) -> str:
    return f"戦闘離脱後の処理 {_seat(e.seat)}: {AFTERMATH_PHASES[e.phase]} (手札{e.hand}枚)"


@_says(leaving.CarriedRoundEnd)
def _carried_round_end(e: leaving.CarriedRoundEnd) -> str:
    then = "手札を捨てる (手札上限まで、さらに1枚まで)" if e.waiting else "手札上限まで引く"
    who = f"{_seat(e.seat)} (手札{e.hand}枚)"
    return f"戦闘離脱後の戦闘: 戦闘参加の前にラウンド終了フェイズ — {who}が{then}"


@_says(leaving.LeaversReset)
def _leavers_reset(e: leaving.LeaversReset) -> str:
    return (
        f"移動先でCカードが全て回収された: 全ての戦闘が終了 — {_seats(e.seats)}の"
        "消費ESPパワー・手札をリセット"
    )


@_says(leaving.AftermathDone)
def _aftermath_done(e: leaving.AftermathDone) -> str:
    cards = f": {'・'.join(e.secret.cards)}" if e.secret and e.secret.cards else ""
    return f"戦闘離脱後の処理 {_seat(e.seat)}: 終了、手札{e.count}枚を回収、ESPパワー回復{cards}"


# ------------------------------------------------- 残留思念, 気絶 (6.1 l.1180–1199, 1264–1270)
REMNANT_ANSWERS = {"sync": "同調", "hinder": "妨害", "none": "何もしない"}
SKIPS = {"fainted": "気絶中", "remnant_acted": "同調・妨害で行動済み"}


@_says(remnant.RemnantAttacked)
def _remnant_attacked(e: remnant.RemnantAttacked) -> str:
    asked = f" — 同調・妨害を待つ: {_fighters(e.waiting)}" if e.waiting else ""
    who = f"{_fighter(e.remnant)} (残留思念)"
    return f"{who}が攻撃 → {_fighter(e.target)}: 火力{e.firepower}{asked}"


@_says(remnant.RemnantAnswered)
def _remnant_answered(e: remnant.RemnantAnswered) -> str:
    power = f" (火力{e.firepower})" if e.answer != "none" else ""
    return f"{_fighter(e.remnant)} (残留思念): {REMNANT_ANSWERS[e.answer]}{power}"


@_says(remnant.RemnantAttackCancelled)
def _remnant_cancelled(e: remnant.RemnantAttackCancelled) -> str:
    return (
        f"{_fighter(e.remnant)} (残留思念)の攻撃 → {_fighter(e.target)}: "
        f"火力{e.firepower}、打ち消された"
    )


@_says(conditions.CombatTurnSkipped)
def _turn_skipped(e: conditions.CombatTurnSkipped) -> str:
    return f"{_fighter(e.fighter)}の戦闘手番はスキップ ({SKIPS[e.reason]})"


@_says(fainting.Fainted)
def _fainted(e: fainting.Fainted) -> str:
    why = f": {e.reason}" if e.reason else ""
    return f"{_fighter(e.fighter)}が気絶状態 ({e.rounds}ラウンド、{e.until}ラウンド目終了まで){why}"


@_says(conditions.FaintEnded)
def _faint_ended(e: conditions.FaintEnded) -> str:
    return f"{_fighters(e.fighters)}の気絶状態が終わる ({e.round}ラウンド目終了)"


# --------------------------------------------------------- ESPジャマー (6.1 l.1248–1262, 6.2)
JAMMED_USES = {"main": "使用", "response": "での対抗"}


@_says(jammer.JammerUsed)
def _jammer_used(e: jammer.JammerUsed) -> str:
    cards = "・".join(f"「{r.card}」→{_fighter(r.holder)}" for r in e.returned)
    return (
        f"{_fighter(e.jammer)}の{e.ability or 'ESPジャマー'}: "
        f"{_fighter(e.fighter)}の{e.kind}{JAMMED_USES[e.use]}"
        f" (LV{e.lv})を無効化 — 手札に戻る、ラウンド終了時まで使用不可: {cards}"
    )


@_says(jammer.JammerDestroyed)
def _jammer_destroyed(e: jammer.JammerDestroyed) -> str:
    why = f": {e.reason}" if e.reason else ""
    return f"{_fighter(e.fighter)}のESPジャマーが破壊された{why}"


# ------------------------------------------------------------- エスパー NPC (6.2 l.1320–1332)


@_says(negation.EscapeNegated)
def _escape_negated(e: negation.EscapeNegated) -> str:
    return (
        f"{_fighter(e.esper)}が「{e.card}」(LV{e.lv})を使用: {_fighter(e.fighter)}の"
        "テレポートの逃避効果を打ち消す — 戦闘に残る"
    )


@_says(esper.EsperJoined)
def _esper_joined(e: esper.EsperJoined) -> str:
    shift = f"、[格闘:{e.shift}]" if e.shift else ""
    shift += "、マスの効果による" if e.square is not None else ""
    return (
        f"エスパー「{e.name}」が戦闘に参加 ({_fighter(e.fighter)}: ESP能力レベル{e.esp_level}、"
        f"耐久力{e.endurance}{shift}、ESPパワー無限大)"
    )


@_says(esper.NpcTargetChosen)
def _npc_target(e: esper.NpcTargetChosen) -> str:
    how = ""
    if e.roll is not None:
        how = f" (ランダム: {_fighters(e.candidates)}から [{roll_line(e.roll)}])"
    return f"{_fighter(e.fighter)}の攻撃対象 → {_fighter(e.target)}{how}"


@_says(action_events.DefenceDropped)
def _defence_dropped(e: action_events.DefenceDropped) -> str:
    return f"{_fighter(e.fighter)}: 防御の維持をやめる"


# ------------------------------------------------------------------ 幻覚 (6.2 l.1312–1318)


@_says(illusion.IllusionTook)
def _illusion_took(e: illusion.IllusionTook) -> str:
    how = "の攻撃に対する" if e.use == "response" else "への"
    return (
        f"{_fighter(e.obstacle)}{how}{_fighter(e.fighter)}の幻覚「{e.card}」: "
        "障害は抵抗チェックを行えず、効果を受ける"
    )
