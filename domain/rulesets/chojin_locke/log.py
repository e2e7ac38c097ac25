"""How the table reads this ruleset's events in the log (domain/logline.py): one line each, as
the players would say it at the table (「席3: ESP能力レベル4を宣言、チェック成功」), from what the
reader may see. A sheet, a card in hand, an ambush or a key is sealed to its holder: for anyone
else its line says that it happened, never what it was."""

from __future__ import annotations

from domain.logline import roll_line

from . import base_events, card_events, party_events, setup_events, turn_events
from .cards import CharacterSheet
from .combat import flow_events
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
    "main": "メインフェイズ",
    "square": "マス目フェイズ",
    "combat": "戦闘フェイズ",
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
    return f"惑星編開始: 手番順 {_seats(e.order)} (最初は{_seat(e.first)}, 出目 {e.draw.faces})"


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
    return f"{_seat(e.seat)}が能力カード「{e.card}」を使う{tags}: {e.text}"


@_says(card_events.AbilityUsed)
def _ability(e: card_events.AbilityUsed) -> str:
    tags = f" [{'・'.join(e.tags)}]" if e.tags else ""
    return f"{_seat(e.seat)}が能力「{e.ability}」を使う{tags}"


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
    return f"{_seat(e.seat)}が戦闘を発生させる ({e.square}): {_fighters(e.fighters)}{freed}"


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
