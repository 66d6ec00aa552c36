// Mr. Card Game (Kingdom of Loathing): the whole table on one screen. The other players across the top
// (meat, cards, bonuses, display case); in the middle the map (a monster on each location, its item
// side at its foot, this combat's score against it), the Sorceress' Tower, the quests and nemesis piles,
// the trainer and the Heap; this seat's plate, display case, skills and hand docked at the bottom.
// Long zones scroll inside their own box. The game names stat cards by kind (``stat=mus1``): each stat
// card of the hand offers what a card of its kind can do now.
import { el } from "../common.js";
import { face, plate, row, sentence, slot, zone } from "./cards.js";
import * as g from "./generic.js";

export const title = "Mr. Card Game";

const STATS = ["Muscle", "Mysticality", "Moxie"];
const SHORT = { Muscle: "Mus", Mysticality: "Mys", Moxie: "Mox" };
const MANEUVERS = { melee: "melee", spell: "spell", ranged: "ranged", evade: "defense" };

/** "Beefiness (Muscle 2)" -> "Mus 2"; "any type, value 2" -> "any 2". */
function dropShort(drop) {
  const m = /\((Muscle|Mysticality|Moxie) (\d)\)/.exec(String(drop || ""));
  if (m) return `${SHORT[m[1]]} ${m[2]}`;
  const any = /value (\d)/.exec(String(drop || ""));
  return any ? `any ${any[1]}` : "";
}

/** A bonus record {melee: 1, evade: 2} in words: "+1 melee, +2 defense". */
function bonusWords(bonus) {
  return Object.entries(bonus || {}).filter(([, v]) => typeof v === "number" && v)
    .map(([k, v]) => `${v > 0 ? "+" : ""}${v} ${MANEUVERS[k] || k}`).join(", ");
}

function elementCorner(element) {
  if (!element) return null;
  return { v: element, k: element, t: element === "none" ? "no element" : `element: ${element}` };
}

function itemTone(type) {
  const t = String(type || "");
  if (/weapon/.test(t)) return "weapon";
  if (/food|booze|combat item|potion/.test(t)) return "consumable";
  if (/hat|pants|accessory|shirt|back|equipment/.test(t)) return "equipment";
  return "item";
}

/** An item (item side up): price, power on the anvil, AutoSell value, its abilities in words. */
function itemSpec(item) {
  const corners = {};
  const details = [["Type", item.type]];
  if (Number.isInteger(item.meat_cost)) { corners.tl = { v: item.meat_cost, k: "meat", t: `costs ${item.meat_cost} meat in the Heap` }; details.push(["Heap price", `${item.meat_cost} meat`]); }
  if (Number.isInteger(item.power)) { corners.tr = { v: item.power, k: "power", t: `power ${item.power} (its equipment power)` }; details.push(["Power", item.power]); }
  if (Number.isInteger(item.autosell)) { corners.bl = { v: item.autosell, k: "cost", t: `AutoSells for ${item.autosell} meat` }; details.push(["AutoSell", `${item.autosell} meat`]); }
  const bonus = bonusWords(item.bonus);
  if (bonus) details.push(["Bonus", bonus]);
  const state = [];
  const tokens = [];
  const stateWords = [];
  if (item.equipped === false) { state.push("dim"); tokens.push({ text: "not equipped" }); stateWords.push("not equipped"); }
  if (item.equipped === true) stateWords.push("equipped");
  if (item.used_this_turn) { state.push("turned"); stateWords.push("used this turn (turned)"); }
  return { id: item.id, title: item.name, type: item.type, tone: itemTone(item.type), corners, text: item.text, details, state, tokens, stateWords };
}

/** A monster on the map (or a nemesis): power, element, meat and stat drop; its item side below. */
function monsterSpec(m) {
  const corners = {
    tl: { v: m.power, k: "power", t: `power ${m.power}` },
    tr: elementCorner(m.element),
    bl: Number.isInteger(m.meat) ? { v: m.meat, k: "meat", t: `${m.meat} meat when killed` } : null,
    br: m.stat_drop ? { v: dropShort(m.stat_drop), k: "plain", t: `drops ${m.stat_drop}` } : null,
  };
  const details = [["Power", m.power], ["Element", m.element], ["Meat", m.meat], ["Stat drop", m.stat_drop], ["Location", m.location]];
  if (m.negative_effect) details.push(["Back", m.negative_effect]);
  let second = null;
  if (m.item_side) {
    const s = itemSpec(m.item_side);
    second = { title: s.title, type: s.type, tone: s.tone, text: s.text, details: s.details, corners: { tr: s.corners.tr } };
  }
  return { id: m.id, title: m.name, type: m.type === "monster" ? "monster" : m.type, tone: "monster", corners, text: m.text, second, details };
}

/** A skill: meat to train it, mojo to use it, its abilities; used (turned), active, permed. */
function skillSpec(s) {
  const corners = {};
  if (Number.isInteger(s.cost)) corners.tl = { v: s.cost, k: "meat", t: `train it for ${s.cost} meat` };
  if (s.mojo !== null && s.mojo !== undefined) corners.tr = { v: s.mojo, k: "mojo", t: `${s.mojo} mojo to use` };
  const state = [];
  const tokens = [];
  const stateWords = [];
  if (s.used_this_turn) { state.push("turned"); stateWords.push("used this turn (turned)"); }
  if (s.active) { state.push("glow"); tokens.push({ text: "active", tone: "good" }); }
  if (s.permed) tokens.push({ text: "permed", tone: "gold" });
  const details = [["Class", s.class], ["Kind", s.ability], ["Training cost", `${s.cost} meat`]];
  if (s.mojo !== null && s.mojo !== undefined) details.push(["Mojo", s.mojo]);
  const bonus = bonusWords(s.bonus);
  if (bonus) details.push(["Bonus", bonus]);
  return { id: s.id, title: s.name, type: `${s.type} · ${s.class}`, tone: s.type === "skill" ? "skill" : "spell", corners, text: s.text, details, state, tokens, stateWords };
}

/** A stat card (or a kind of them, with a count): suit and value, like a playing card. The band says
 * the suit short ("Mys", as the map's stat drops do): a small card has no room for "Mysticality", and
 * its colour says the suit anyway. */
function statSpec(c) {
  const v = { v: c.value, k: c.stat, t: `${c.stat} ${c.value}` };
  return {
    id: c.id, title: c.name, type: SHORT[c.stat] || c.stat, tone: c.stat, corners: { tl: v, br: v }, count: c.count,
    text: "", details: [["Stat", c.stat], ["Value", c.value], ...(c.count > 1 ? [["Cards", c.count]] : [])],
  };
}

/** Any other card object of the view (bosses, the Sorceress, class cards, negative effects). */
function anySpec(c) {
  if (!c) return null;
  if (c.type === "stat") return statSpec(c);
  if (c.item_side !== undefined || c.type === "monster") return monsterSpec(c);
  if (c.ability !== undefined && c.class !== undefined && c.cost !== undefined) return skillSpec(c);
  if (c.autosell !== undefined || c.meat_cost !== undefined) return itemSpec(c);
  const corners = {};
  const details = [];
  if (Number.isInteger(c.power)) { corners.tl = { v: c.power, k: "power", t: `power ${c.power}` }; details.push(["Power", c.power]); }
  if (c.element) { corners.tr = elementCorner(c.element); details.push(["Element", c.element]); }
  if (Number.isInteger(c.meat)) { corners.bl = { v: c.meat, k: "meat", t: `${c.meat} meat` }; details.push(["Meat", c.meat]); }
  if (c.stat_drop) { corners.br = { v: dropShort(c.stat_drop), k: "plain", t: `drops ${c.stat_drop}` }; details.push(["Stat drop", c.stat_drop]); }
  if (c.negative_effect) details.push(["Back", c.negative_effect]);
  if (c.form) details.push(["Form", c.form]);
  if (c.hidden_in_tower) details.push(["Still in the Tower", Object.entries(c.hidden_in_tower).map(([k, v]) => `${k}: ${v}`).join(", ")]);
  if (c.defeated) details.push(["Defeated", c.defeated]);
  if (c.boss) details.push(["Boss", c.boss]);
  if (c.class && c.side) details.push(["Side up", c.side]);
  const type = String(c.type || "");
  const tone = /boss|Sorceress|tower/.test(type) ? "boss" : /negative/.test(type) ? "negative" : /class/.test(type) ? "class" : "item";
  return { id: c.id, title: c.name, type, tone, corners, text: c.text, details };
}

function mini(s, ctx, extra = {}) { return face({ ...s, size: "mini", ...extra }, ctx); }
function tile(s, ctx, extra = {}) { return face({ ...s, size: "tile", ...extra }, ctx); }

/** The score a combat puts against a monster, as a badge over its card. */
function scoreBadge(target) {
  if (!target) return "";
  // One short line over the monster's other side (its name stays in sight); the words in full on hover.
  const words = `your score ${target.score} against its power ${target.power}: ${target.beaten ? "beaten" : "not beaten"}`;
  return el("div", { class: `score ${target.beaten ? "beats" : "short"}`, "data-score": target.score, title: words },
    `${target.score} vs ${target.power}: ${target.beaten ? "beaten" : "not beaten"}`);
}

/** A location pile: its monster (item side at its foot) and how many cards are still below. */
function locationCell(place, ctx, targets, cls = "") {
  const monster = g.isCard(place.monster) ? place.monster : null;
  const below = Number.isInteger(place.hidden_cards) ? place.hidden_cards : 0;
  let body;
  if (monster) {
    const s = monsterSpec(monster);
    s.details.push(["Still below", (place.still_below || []).join(", ") || "nothing"]);
    // A map card is a little wider than a mini card and as tall as its words: every name on it (the
    // monster, its item side) wraps onto a second line instead of being cut.
    body = face({ ...s, size: "map" }, ctx);
    // This combat's score lies over the card's band (its power and element are in the score's words
    // and the targets table), so the names below it stay in sight.
    const target = targets.get(monster.id);
    if (target) body.append(scoreBadge(target));
  } else body = slot(place.empty ? "cleared" : "empty", { size: "mini" });
  return el("div", { class: `cell map-cell ${cls}`, "data-location": place.location ?? "", "data-place": `loc-${place.location}`, title: place.location },
    el("div", { class: "cell-caption" }, place.location ?? ""),
    el("span", { class: "below", title: below ? `${below} cards below` : "no card below" }, below ? `+${below}` : "last"),
    body);
}

function combatBox(combat) {
  const facts = [];
  if (combat.maneuver) facts.push(sentence(combat.maneuver));
  facts.push(`damage ${combat.damage}`, `cards played ${combat.cards_played_total}`);
  if (combat.power_reduction) facts.push(`monsters −${combat.power_reduction} power`);
  const extra = bonusWords(combat.bonus_this_combat);
  if (extra) facts.push(`this combat ${extra}`);
  const vs = Object.entries(combat.extra_damage_against || {}).map(([e, n]) => `+${n} vs ${e}`);
  if (vs.length) facts.push(vs.join(", "));
  const rows = (combat.targets || []).map((t) => el("tr", { class: t.beaten ? "beats" : "" },
    el("td", { class: "monster" }, t.monster), el("td", {}, t.element),
    el("td", { class: "n", "data-label": "power" }, String(t.power)),
    el("td", { class: "n", "data-label": "score" }, String(t.score)),
    el("td", { class: t.beaten ? "" : "not-beaten" }, t.beaten ? "beaten" : "—"),
    el("td", { "data-label": "counter" }, t.counter_attack === null || t.counter_attack === undefined ? "" : String(t.counter_attack))));
  const hasCounter = (combat.targets || []).some((t) => t.counter_attack);
  return el("div", { class: "fight-box", "data-zone": "combat" },
    el("div", { class: "fight-head" }, `${combat.player}'s combat`),
    el("div", { class: "fight-sum" }, facts.join(" · ")),
    combat.against_sorceress ? el("div", {}, `score ${combat.against_sorceress.score} against the Sorceress (needs ${combat.against_sorceress.needs})`) : "",
    rows.length ? el("div", { class: "table-scroll" }, el("table", { class: "facts-table", "data-zone": "targets" },
      el("thead", {}, el("tr", {}, ...["monster", "element", "power", "score", "", hasCounter ? "counter" : ""].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows))) : "",
    combat.counter_attack ? el("div", { class: "counter" }, `Counter-attack from ${combat.counter_attack.from}: block ${combat.counter_attack.still_to_block} more (${combat.counter_attack.type}); if not blocked: ${combat.counter_attack.if_not_blocked}`) : "");
}

function marchBox(march) {
  return el("div", { class: "fight-box", "data-zone": "march" },
    el("div", { class: "fight-head" }, march.announcer ? `The March on the Tower (announced by ${march.announcer})` : "The March on the Tower"),
    march.order.length ? el("div", {}, `combat order: ${march.order.join(", ")}`) : "",
    ...(march.totals || []).map((t) => el("div", {}, `${t.player}: ${t.total} of ${t.needs}`)),
    march.eliminated.length ? el("div", { class: "muted" }, `eliminated: ${march.eliminated.join(", ")}`) : "");
}

/** The twelve stat piles: a row per stat, a column per value, each cell its card's name and count. */
function statPiles(piles) {
  const byStat = new Map(STATS.map((s) => [s, new Map()]));
  for (const p of piles) {
    if (!byStat.has(p.stat)) byStat.set(p.stat, new Map());
    byStat.get(p.stat).set(p.value, p);
  }
  const values = [...new Set(piles.map((p) => p.value))].sort((a, b) => a - b);
  return el("details", { class: "stat-piles", "data-zone": "stat_piles" }, el("summary", {}, "stat piles: cards left"),
    el("div", { class: "table-scroll" }, el("table", { class: "facts-table" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), ...values.map((v) => el("th", {}, `value ${v}`)))),
      el("tbody", {}, ...[...byStat].filter(([, r]) => r.size).map(([stat, r]) => el("tr", {}, el("th", {}, stat),
        ...values.map((v) => {
          const p = r.get(v);
          if (!p) return el("td", {}, "");
          return el("td", { class: p.left === 0 ? "muted" : "" }, el("div", {}, p.name), el("div", { class: "sub-line" }, `${p.left} left`));
        })))))));
}

/** A player's plate: meat, mojo, cards, kills, bonuses; ``cards``: its display case and skills. */
function playerPlate(p, view, ctx, mine) {
  const b = p.bonuses || {};
  const bonus = ["melee", "spell", "ranged", "evade"].map((k) => `${MANEUVERS[k]} +${b[k] ?? 0}`).join(" · ");
  const more = Object.entries(b).filter(([k, v]) => !["melee", "spell", "ranged", "evade", "against"].includes(k) && v)
    .map(([k, v]) => `${k} ${v > 0 ? "+" : ""}${v}`);
  const against = Object.entries(b.against || {}).map(([e, r]) => `vs ${e}: ${bonusWords(r)}`);
  const notes = [];
  if (p.certificate) notes.push("holds the Certificate");
  if (p.out_of_the_game) notes.push("out of the game");
  if (mine && view.seat !== null) notes.push("you");
  const stats = [
    { k: "meat", v: p.meat, label: "meat", t: `${p.meat} meat` },
    p.mojo ? { k: "mojo", v: p.mojo, label: "mojo", t: `${p.mojo} mojo` } : null,
    { v: p.hand_size, label: "in hand", t: "cards in hand" },
    { v: p.deck_size, label: "in deck", t: "cards in the deck" },
    { v: (p.discard || []).reduce((n, c) => n + (c.count || 1), 0), label: "discarded", t: "cards in the discard pile" },
    { v: p.kills, label: p.kills === 1 ? "kill" : "kills", t: "monsters killed" },
    Number.isInteger(p.runs_completed) ? { v: p.runs_completed, label: "runs", t: "ascension runs completed" } : null,
  ];
  const extra = [el("div", { class: "bonuses", title: [bonus, ...more, ...against].join("; ") }, bonus, more.length ? ` · ${more.join(" · ")}` : "", against.length ? ` · ${against.join(" · ")}` : "")];
  const node = plate({
    name: p.seat, note: notes.join(" · "), seat: p.seat, mine: mine && view.seat !== null,
    deciding: (view.seat_names || []).indexOf(p.seat) === view.current_player && !view.is_over, stats, extra,
  });
  if (p.out_of_the_game) node.classList.add("out");
  ctx.seat(node, p.seat);
  return node;
}

/** The cards of a player's own area: display case, skills, escrow, class, negative effects, karma. */
function playerCards(p, ctx, size) {
  const make = size === "tile" ? tile : (sp, c) => face({ ...sp, size: "strip-row" }, c);
  const parts = [];
  const add = (titleText, cards, toSpec, key) => {
    if (!cards || !cards.length) return;
    parts.push(zone(`${titleText} (${cards.length})`, row(cards.map((c) => make(toSpec(c), ctx)), { cls: "tiles" }), { cls: `flat ${key}`, place: `${key}-${p.seat}` }));
  };
  if (p.class) add("class", [p.class], anySpec, "class");
  add("display case", p.display_case, itemSpec, "display");
  add("skills", p.skills, skillSpec, "skills");
  add("escrow", p.escrow, itemSpec, "escrow");
  add("negative effects", p.negative_effects, anySpec, "negative");
  add("Instant Karma", p.instant_karma, anySpec, "karma");
  if (p.store_face_down) {
    parts.push(zone("Mr. Store", row([el("span", { class: "chip", title: "Mr. Store items face down" }, `${p.store_face_down} face down`),
      ...(p.store_known_face_down || []).map((c) => make(itemSpec(c), ctx))], { cls: "tiles" }), { cls: "flat store", place: `store-${p.seat}` }));
  }
  return parts;
}

export function render(view, ctx) {
  if (!Array.isArray(view.map) || !Array.isArray(view.players)) return g.render(view, ctx);
  const targets = new Map();
  if (view.combat && Array.isArray(view.combat.targets)) {
    for (const t of view.combat.targets) if (Number.isInteger(t.card)) targets.set(t.card, t);
  }
  const meName = view.seat === null ? null : g.seatName(view, view.seat);
  const me = view.players.find((p) => p.seat === meName) || null;
  const n = view.players.length;
  const meIndex = me ? view.players.indexOf(me) : -1;
  const others = [];
  for (let k = 1; k <= n; k++) {
    const p = view.players[(Math.max(meIndex, 0) + k) % n];
    if (p !== me) others.push(p);
  }

  // The middle: the map (or the playmat), the Tower and the quests, the trainer and the Heap.
  const middle = [];
  const byLocation = new Map(view.map.map((p) => [p.location, p]));
  for (const p of view.nemesis || []) byLocation.set(p.location, { ...p, nemesis: true });
  const tower = towerZone(view, ctx, targets);
  const quests = questsZone(view, ctx);
  const heap = heapZone(view, ctx);
  if (view.layout && Array.isArray(view.layout.spaces)) {
    const lay = view.layout;
    const cells = lay.spaces.map((s) => {
      const at = `grid-row: ${s.row + 1}; grid-column: ${s.column + 1}`;
      if (s.holds === "location" || s.holds === "nemesis location") {
        const p = byLocation.get(s.space);
        return Object.assign(p ? locationCell(p, ctx, targets, s.holds === "nemesis location" ? "nemesis" : "") : el("div", { class: "cell" }, slot(s.space, { size: "mini" })), { style: at });
      }
      if (s.holds === "tower") return el("div", { class: "cell", style: at }, tower);
      if (s.holds === "heap") return el("div", { class: "cell", style: at }, heap);
      if (s.holds === "quests") return el("div", { class: "cell", style: at }, quests || slot("no quests", { size: "mini" }));
      return el("div", { class: "cell spare", style: at, title: s.space });
    });
    middle.push(zone(lay.name ? sentence(lay.name) : "the map", el("div", { class: "playmat", style: `grid-template-columns: repeat(${lay.columns}, auto)` }, ...cells), { key: "map", cls: "map-zone" }));
  } else {
    const columns = Math.max(1, ...view.map.map((p) => (Number.isInteger(p.column) ? p.column + 1 : 1)));
    const sorted = [...view.map].sort((a, b) => (a.row ?? 0) - (b.row ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    middle.push(zone("the map", el("div", { class: "map-grid", style: `grid-template-columns: repeat(${columns}, auto)` }, ...sorted.map((p) => locationCell(p, ctx, targets))), { key: "map", cls: "map-zone" }));
    // The Tower and the quest pile side by side (each one card wide), the nemesis piles under them.
    const side = [quests ? el("div", { class: "tower-quests" }, tower, quests) : tower];
    if (view.nemesis) {
      side.push(zone("nemesis piles", el("div", { class: "nemesis-grid" }, ...view.nemesis.map((p) => locationCell(p, ctx, targets, "nemesis"))), { key: "nemesis" }));
    }
    middle.push(el("div", { class: "mcg-column tower-column" }, ...side));
  }
  const shop = [trainerZone(view, ctx)];
  if (!view.layout) shop.push(heap);
  if (view.middle && view.middle.length) shop.push(zone("class cards in the middle", row(view.middle.map((c) => tile(anySpec(c), ctx)), { cls: "tiles" }), { key: "middle" }));
  if (Array.isArray(view.stat_piles)) shop.push(statPiles(view.stat_piles));
  middle.push(el("div", { class: "mcg-column shop-column" }, ...shop));

  if (view.combat) ctx.aside(combatBox(view.combat));
  if (view.march) ctx.aside(marchBox(view.march));
  if (view.paying) ctx.aside(el("div", { class: "aside-card" }, mini(skillSpec(view.paying.card), null), el("div", {}, `casting for ${view.paying.cost}; mojo pool ${view.paying.mojo_pool}`)));

  // This seat's area, docked: plate, hand, display case, skills (spectators: the first player's).
  const mine = me || view.players[0];
  const plateNode = playerPlate(mine, view, ctx, !!me);
  const dock = [plateNode];
  if (Array.isArray(view.hand)) {
    const hand = zone(`your hand (${view.hand.reduce((k, c) => k + (c.count || 1), 0)})`,
      row(view.hand.map((c) => {
        const node = face({ ...statSpec(c), size: "mini" }, ctx);
        node.dataset.kind = c.kind;
        ctx.kind(node, c.kind);
        return node;
      }), { cls: "hand-cards" }), { key: "hand", cls: "hand", place: "hand" });
    dock.push(hand);
  }
  const own = playerCards(mine, ctx, "tile");
  if (Array.isArray(view.store) && view.store.length) {
    own.push(zone(`your Mr. Store items (${view.store.length})`, row(view.store.map((c) => tile(itemSpec(c), ctx)), { cls: "tiles" }), { key: "store", cls: "flat", place: "my-store" }));
  }
  if (own.length) dock.push(el("div", { class: "own-cards fits-as-strips" }, ...own));
  if (Array.isArray(view.deck) && view.deck.length) {
    plateNode.append(el("div", { class: "deck-note", title: "the cards in your deck (their order is hidden)" },
      `deck: ${view.deck.map((c) => `${c.count}× ${SHORT[c.stat]} ${c.value}`).join(", ")}`));
  }
  ctx.dock(el("div", { class: "mcg-dock", "data-place": "me" }, ...dock));

  const playmat = view.layout ? " playmat-on" : "";
  return el("div", { class: `view mr-card-game${playmat}` },
    el("div", { class: "table-info" }, el("span", {}, [`round ${view.round} of at most ${view.turn_limit}`, view.whose_turn ? `${view.whose_turn === "the March on the Tower" ? view.whose_turn : `${view.whose_turn}'s turn`}` : "", view.phase ? sentence(view.phase) : "",
      view.certificate ? `Certificate: ${view.certificate}` : "", view.meat_pool !== null && view.meat_pool !== undefined ? `meat left in the supply: ${view.meat_pool}` : ""].filter(Boolean).join(" · "))),
    others.length ? el("div", { class: `mcg-others n${others.length}` }, ...others.map((p) => el("div", { class: "mcg-other", "data-place": `seat-${p.seat}` },
      playerPlate(p, view, ctx, false), el("div", { class: "other-cards" }, ...playerCards(p, ctx, "strip"))))) : "",
    el("div", { class: "mcg-middle" }, ...middle));
}

function towerZone(view, ctx, targets) {
  const s = view.sorceress;
  if (!s) return "";
  const sp = anySpec(s);
  const t = Number.isInteger(s.id) ? targets.get(s.id) : null;
  return zone("the Sorceress' Tower", el("div", { class: "cell tower" }, t ? scoreBadge(t) : "", face({ ...sp, size: "map" }, ctx)), { key: "tower", place: "tower" });
}

function questsZone(view, ctx) {
  if (!Array.isArray(view.quests)) return "";
  const q = view.quests;
  if (!q.length) return zone("quests", slot("all bosses beaten", { size: "mini" }), { key: "quests" });
  const top = face({ ...anySpec(q[0]), size: "map" }, ctx);
  const rest = q.slice(1);
  return zone(`quests (${q.length})`, el("div", { class: "pile", "data-pile": q.length }, el("div", { class: "pile-stack" }, top),
    rest.length ? el("details", { class: "pile-list" }, el("summary", {}, `${rest.length} more`), row(rest.map((c) => face({ ...anySpec(c), size: "strip-row" }, ctx)), { cls: "souls" })) : ""), { key: "quests", place: "quests" });
}

function heapZone(view, ctx) {
  const heap = view.heap || [];
  if (!heap.length) return zone("the Heap", slot("the Heap is empty", { size: "mini" }), { key: "heap", place: "heap" });
  return zone(`the Heap (${heap.length})`, row(heap.map((c) => tile(anySpec(c), ctx)), { cls: "tiles heap-list" }), { key: "heap", place: "heap" });
}

function trainerZone(view, ctx) {
  const trainer = view.trainer || [];
  const cells = trainer.map((t) => {
    if (t && t.class !== undefined && "top" in t && "face_down" in t) {
      return el("div", { class: "cell trainer-pile" }, el("div", { class: "cell-caption" }, t.class),
        t.top ? mini(skillSpec(t.top), ctx) : slot("empty", { size: "mini" }), el("div", { class: "cell-foot" }, `${t.face_down} below`));
    }
    return t ? mini(skillSpec(t), ctx) : slot("empty", { size: "mini" });
  });
  const pileNote = `draw pile ${view.skill_pile ?? 0} · discard ${(view.skill_discard || []).length}`;
  return zone("the trainer", [el("div", { class: `trainer-grid n${cells.length}` }, ...cells), el("div", { class: "cell-foot" }, pileNote)], { key: "trainer", place: "trainer" });
}
