// ニンジャスレイヤー: what the GM declares outside the dice (the GM's fold of the pane), and the
// 余暇's sheet changes a player makes for its own PC. Each form sends one command of the ruleset:
// damage that is not an attack (`hazard`: a trap, the environment, 弾き飛ばし's 激突, L121, L160),
// 弾幕発生 on mobs' pending shots (`danmaku`, L128), ●部位損傷 marked and treated (`injure`,
// `treat`, L170–L177), 【万札】 into the 万札プール (`drop`, L116) and the sheet's changes
// (`change_sheet`, L37). The server is the judge: a refusal shows in the pane's error line.
import { el } from "../../api.js";
import { t } from "../../i18n.js";
import { called, statusWord } from "./names.js";

export const LADDER_NAMES = {
  K: "KIDS", E: "EASY", N: "NORMAL", H: "HARD", UH: "ULTRA-HARD", UH2: "ULTRA-HARD+1", UH3: "ULTRA-HARD+2",
};
const SOURCES = [["trap", "トラップ"], ["environment", "環境効果"], ["collision", "弾き飛ばしの激突"], ["other", "その他"]];
const TREATMENTS = ["余暇での治療", "サイバネ化", "再生能力"];
const CHANGE_KINDS = ["成長", "装備", "購入", "その他"];
// the sheet's numbers a change may move (growth.py's NUMBERS; 【万札】 has its own box)
const NUMBERS = [
  ["karate", "カラテ"], ["neuron", "ニューロン"], ["wazamae", "ワザマエ"], ["jitsu", "ジツ"],
  ["tairyoku", "体力"], ["seishin", "精神力"], ["kyakuryoku", "脚力"], ["emergency_dice", "緊急回避ダイス"],
  ["multi_attack", "連続攻撃"], ["multi_shot", "連射"], ["evasion_modifier", "回避修正"], ["initiative_modifier", "機先修正"],
];
const DEFEATED = ["気絶", "爆発四散", "removed"];
const GONE = ["removed", "爆発四散"];

export function select(name, label, options, chosen) {
  return el("select", { name, "aria-label": label },
    ...options.map(([value, text]) => el("option", { value, selected: value === chosen }, text)));
}

export function difficultySelect(name, label, chosen = "N") {
  return select(name, label, Object.entries(LADDER_NAMES), chosen);
}

const field = (label, input) => el("label", { class: "ns-field" }, `${label} `, input);
const text = (name, label, placeholder, value = "") =>
  el("input", { name, type: "text", maxlength: 200, placeholder, value, "aria-label": label, size: 12 });
const number = (name, label, { min = 0, max = 9999, value = 0 } = {}) =>
  el("input", { name, type: "number", min, max, value, size: 4, "aria-label": label });
const value = (input) => (input.value.trim() === "" ? undefined : Number(input.value));
function form(action, title, ...children) {
  return el("div", { class: "ns-gm-form", dataset: { form: action } }, el("h4", {}, title), ...children);
}
function submit(label, action, onclick) {
  return el("button", { type: "button", class: "ns-action", dataset: { action }, onclick }, label);
}

// ctx: { rules, send, gm (the reader is the GM), mine(character) (the reader's own PC) }
export function gmForms(ctx) {
  const { characters, combat, stage = "本編", dropped = [] } = ctx.rules;
  const all = Object.values(characters);
  const name = (c) => called(characters, c.id);
  const onMap = all.filter((c) => !GONE.includes(c.status) && (!combat || combat.participants.includes(c.id)));
  const out = [];
  if (!ctx.gm) {
    // 余暇: a player grows and buys for its own PC (the GM's otherwise)
    const own = all.filter((c) => ctx.mine(c));
    if (stage === "余暇" && own.length) out.push(sheetForm(ctx, own));
    return out;
  }

  // L121 any damage allows one 回避判定 (基本難易度 NORMAL); L160 弾き飛ばし: 「激突による1ダメージ…(『回避:NORMAL』)」
  if (onMap.length) {
    const target = select("hazard-target", "対象", onMap.map((c) => [c.id, name(c)]));
    const amount = number("hazard-amount", "ダメージ", { min: 1, max: 20, value: 1 });
    const source = select("hazard-source", "原因", SOURCES, "trap");
    const evasion = difficultySelect("hazard-evasion", "回避難易度", "N");
    const what = text("hazard-text", "内容", t("a pit, a wall…"));
    source.addEventListener("change", () => {
      if (source.value === "collision") { evasion.value = "N"; amount.value = "1"; if (!what.value) what.value = "壁に激突"; }
    });
    out.push(form("hazard", t("Declare damage (a trap, the surroundings, a collision)"),
      field("対象", target), field("ダメージ", amount), field("原因", source), field("回避難易度", evasion), field("内容", what),
      submit(t("Deal the damage"), "hazard", () => ctx.send({
        type: "hazard", target: target.value, amount: Number(amount.value), source: source.value,
        evasion: evasion.value, text: what.value.trim(),
      })),
      el("p", { class: "hint" }, t("One 『回避判定』 may be tried, once; the アトモスフィア does not affect it."))));
  }

  // L128 『弾幕発生』: mobs' shots at one character, evadable together, before the 回避判定
  if (combat) {
    const byTarget = new Map();
    for (const d of combat.damages.filter((x) => x.kind === "ranged" && x.mobs && !x.time_lag)) {
      byTarget.set(d.target, [...(byTarget.get(d.target) ?? []), d]);
    }
    for (const [target, shots] of byTarget) {
      if (shots.length < 2) continue;
      const amount = number(`danmaku-amount-${target}`, t("damage after the conversion"), { min: 0, max: 20, value: 1 });
      const evasion = difficultySelect(`danmaku-evasion-${target}`, "回避難易度", "N");
      const what = text(`danmaku-text-${target}`, "変換", t("the 弾幕 conversion"));
      out.push(form("danmaku", t("弾幕発生: {count} shots at {name} from {attackers}", { count: shots.length, name: called(characters, target), attackers: [...new Set(shots.map((d) => called(characters, d.attacker)))].join("・") }),
        field(t("damage after the conversion"), amount), field("回避難易度", evasion), field("変換", what),
        submit(t("Declare the 弾幕発生"), "danmaku", () => ctx.send({
          type: "danmaku", damages: shots.map((d) => d.id), amount: Number(amount.value), evasion: evasion.value,
          text: what.value.trim(),
        }))));
    }
  }

  if (stage === "本編") {
    // L116: defeated enemies' 【万札】 into the 万札プール (a sheet's, unless the amount says)
    const enemies = all.filter((c) => c.kind !== "pc" && DEFEATED.includes(c.status) && !dropped.includes(c.id));
    const who = select("drop-character", t("defeated enemy"),
      [...enemies.map((c) => [c.id, `${name(c)} (${statusWord(c.status)})`]), ["", t("not an enemy (loot)")]]);
    const amount = number("drop-amount", "万札", { min: 0, max: 9999, value: "" });
    amount.placeholder = t("the sheet's value");
    const reason = text("drop-reason", "理由", "ドロップ", "ドロップ");
    out.push(form("drop", t("万札 dropped (into the 万札 pool)"),
      field(t("defeated enemy"), who), field("【万札】", amount), field("理由", reason),
      submit(t("Put it in the 万札 pool"), "drop", () => ctx.send({
        type: "drop", character: who.value || undefined, amount: value(amount), reason: reason.value.trim() || "ドロップ",
      }))));

    // L170–L177: ●部位損傷 (a サツバツ! row's, or a ruling)
    if (onMap.length) {
      const who2 = select("injure-character", "キャラ", onMap.map((c) => [c.id, name(c)]));
      const part = text("injure-part", "部位", t("head, body, arm, leg…"));
      out.push(form("injure", "●部位損傷", field("キャラ", who2), field("部位", part),
        submit(t("Record the ●部位損傷"), "injure", () => ctx.send({ type: "injure", character: who2.value, part: part.value.trim() }))));
    }
  }

  // L171: a ●部位損傷 stays until treated (余暇での治療, サイバネ化, 再生能力)
  const hurt = all.flatMap((c) => Object.keys(c.injuries ?? {}).map((part) => [c, part]));
  if (hurt.length) {
    const which = select("treat-injury", "●部位損傷", hurt.map(([c, part], i) => [String(i), `${name(c)}: ${part}`]));
    const how = select("treat-how", "方法", TREATMENTS.map((t) => [t, t]), stage === "余暇" ? "余暇での治療" : "サイバネ化");
    out.push(form("treat", t("Remove a ●部位損傷"), field("●部位損傷", which), field("方法", how),
      submit(t("Remove it"), "treat", () => {
        const [c, part] = hurt[Number(which.value)];
        return ctx.send({ type: "treat", character: c.id, part, how: how.value });
      })));
  }

  if (all.length) out.push(sheetForm(ctx, all));
  return out;
}

// L37 「余暇」では、【万札】を費やして成長や強化を行ったり; a weapon picked up in the 本編 (GM)
function sheetForm(ctx, characters) {
  const stage = ctx.rules.stage ?? "本編";
  const who = select("sheet-character", "キャラ", characters.map((c) => [c.id, c.label ?? c.name]));
  const kind = select("sheet-kind", "種別", CHANGE_KINDS.map((k) => [k, k]), stage === "余暇" ? "成長" : "装備");
  const stat = select("sheet-stat", "能力値", [["", "—"], ...NUMBERS.map(([k, n]) => [k, `【${n}】`])]);
  const delta = number("sheet-delta", "増減", { min: -20, max: 20, value: 1 });
  const spent = number("sheet-manzatsu", t("【万札】 up or down"), { min: -9999, max: 9999, value: 0 });
  const weapon = text("sheet-weapon", "武器", t("the weapon's name"));
  const reason = text("sheet-reason", "理由", t("training, a purchase…"));
  return form("change_sheet", t("Change a sheet (成長, 装備, 購入)"),
    field("キャラ", who), field("種別", kind), field("能力値", stat), field("増減", delta), field("【万札】", spent),
    field("武器", weapon), field("理由", reason),
    submit(t("Change the sheet"), "change_sheet", () => {
      const changes = {};
      if (stat.value && Number(delta.value)) changes[stat.value] = Number(delta.value);
      if (Number(spent.value)) changes.manzatsu = Number(spent.value);
      const change = { kind: kind.value, changes, reason: reason.value.trim() };
      if (weapon.value.trim()) change.add_weapons = [{ name: weapon.value.trim() }];
      return ctx.send({ type: "change_sheet", character: who.value, change });
    }));
}
