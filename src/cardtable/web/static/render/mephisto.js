// Mephisto: the table as it lies. The dungeon in the middle (2 rows of 3 for two players, the 3x3 grid
// with the deck in the centre for three or four), drawn from this seat's side; every player's weapons
// sit in the lanes where they fight (a seat across the table above the dungeon, a seat at the left or
// right beside its rows, as the view's lanes_seen says), with its seat plate, items and souls; this
// seat at the bottom with the attack each lane would bring; the deck, the discard pile and the card
// being resolved beside the dungeon; the hand last.
import { el } from "../common.js";
import { back, face, pile, plate, row, sentence, slot, zone } from "./cards.js";
import * as g from "./generic.js";

export const title = "Mephisto";

/** A Mephisto card object as a face: the printed numbers in their corners. */
export function spec(card, extra = {}) {
  const type = card.type;
  const corners = {};
  const details = [];
  const dur = Number.isInteger(card.durability_left) ? `${card.durability_left}/${card.durability}` : card.durability;
  if (type === "monster") {
    corners.tl = { v: card.attack, k: "attack", t: `attack ${card.attack}` };
    corners.tr = { v: card.souls, k: "souls", t: `${card.souls} soul points` };
    details.push(["Attack", card.attack], ["Soul points", card.souls]);
  } else {
    corners.tl = { v: card.cost, k: "cost", t: `costs ${card.cost} (cards discarded)` };
    details.push(["Cost", card.cost === 0 ? "free" : `${card.cost} (discard that many cards)`]);
    if (type === "weapon") {
      corners.tr = { v: card.attack, k: "attack", t: `attack ${card.attack}` };
      corners.br = { v: card.range, k: "range", t: `range ${card.range}: it sits in its owner's lane ${card.range}` };
      details.push(["Attack", card.attack], ["Range", `${card.range} (it fights in its owner's lane ${card.range})`]);
    }
    if (type === "weapon" || type === "item") {
      corners.bl = { v: dur, k: "durability", t: Number.isInteger(card.durability_left) ? `durability ${card.durability_left} left of ${card.durability}` : `durability ${card.durability}` };
      details.push(["Durability", Number.isInteger(card.durability_left) ? `${card.durability_left} left of ${card.durability}` : card.durability]);
    }
  }
  const state = [];
  const stateWords = [];
  if (card.activated_this_turn) { state.push("turned"); stateWords.push("activated this turn (turned)"); }
  if (Number.isInteger(card.durability_left) && card.durability_left < card.durability) stateWords.push("damaged");
  const under = Array.isArray(card.attached) ? card.attached.map((a) => ({ ...spec(a), label: "attached" })) : [];
  return {
    id: card.id, title: card.name, type, tone: type, corners, text: card.text, state, stateWords, under, details, ...extra,
  };
}

function mini(card, ctx, extra = {}) { return face({ ...spec(card), size: "mini", ...extra }, ctx); }

/** Where a player sits as this reader sees the table. */
function position(p) {
  if (p.sits === "you" || p.sits === "near side") return "me";
  if (p.sits === "on your left") return "left";
  if (p.sits === "on your right") return "right";
  return "across";
}

const ROWS = { far: 0, middle: 1, near: 2 };

function dungeonCell(space, ctx, fightIds) {
  const caption = el("div", { class: "cell-tag", title: `lane ${space.lane}, ${space.place}` }, `${space.place} · ${space.lane}`);
  let body;
  if (g.isCard(space.card)) body = face({ ...spec(space.card), size: "mini", state: fightIds.has(space.card.id) ? ["glow"] : [] }, ctx);
  else if (space.face_down) body = back({ label: "face down, out of play", size: "mini" });
  else if (Number.isInteger(space.deck)) body = back({ label: "the deck", count: space.deck, size: "mini", place: "deck" });
  else body = slot("empty space", { size: "mini" });
  return el("div", { class: "cell dungeon-cell", "data-lane": space.lane, "data-place": `dungeon-${space.lane}-${space.place}` }, caption, body);
}

/** A seat's plate: name, favor, soul points, hand size; its souls, items and known hand cards. */
function playerPlate(p, view, ctx, where) {
  const mine = where === "me";
  const seatNo = (view.seat_names || []).indexOf(p.name);
  const deciding = seatNo >= 0 && seatNo === view.current_player && !view.is_over;
  const items = (p.in_play || []).filter((c) => c.type !== "weapon");
  const known = p.known_in_hand || [];
  const extra = [];
  // This seat's items lie face up in front of it; the others' are listed compactly (inspect shows all).
  const item = (c) => (mine ? mini(c, ctx) : face({ ...spec(c), size: "strip-row" }, ctx));
  if (items.length) extra.push(zone("items in play", row(items.map(item), { cls: mine ? "" : "souls" }), { place: `items-${p.name}`, cls: "flat" }));
  if (p.souls && p.souls.length) {
    extra.push(zone(`souls (${p.souls.length})`, row(p.souls.map((c) => face({ ...spec(c), size: "strip-row" }, ctx)), { cls: "souls" }), { place: `souls-${p.name}`, cls: "flat" }));
  }
  if (known.length) extra.push(zone("known in their hand", row(known.map((c) => face({ ...spec(c), size: "strip-row" }, ctx)), { cls: "souls" }), { place: `known-${p.name}`, cls: "flat" }));
  const note = [p.team ? `team ${p.team}` : "", mine && view.seat !== null ? "you" : where === "me" ? "near side" : ""].filter(Boolean).join(" · ");
  const node = plate({
    name: p.name, note, mine: mine && view.seat !== null, deciding, seat: p.name,
    tone: p.team ? `team${(view.seat_names || []).indexOf(p.name) % 2}` : "",
    stats: [
      { k: "cost", v: p.favor, label: "favor", t: `${p.favor} favor` },
      { k: "souls", v: p.soul_points, label: "soul points", t: `${p.soul_points} soul points` },
      { k: "hand", v: p.cards_in_hand, label: p.cards_in_hand === 1 ? "card in hand" : "cards in hand", t: "cards in hand" },
      p.attack_bonus_this_turn ? { k: "attack", v: `+${p.attack_bonus_this_turn}`, label: "attack this turn", t: "attack bonus this turn" } : null,
    ],
    extra,
  });
  ctx.seat(node, p.name);
  return node;
}

/** The weapons of ``p`` in its lane ``lane`` (1..3). */
function weaponsIn(p, lane, ctx, fightIds) {
  return (p.in_play || []).filter((c) => c.type === "weapon" && c.range === lane)
    .map((c) => face({ ...spec(c), size: "mini", state: [...spec(c).state, ...(fightIds.has(c.id) ? ["glow"] : [])] }, ctx));
}

function laneCell(p, lane, ctx, fightIds, label, cls, area) {
  const cards = weaponsIn(p, lane, ctx, fightIds);
  return el("div", { class: `cell lane-cell ${cls}`, style: `grid-area: ${area}`, "data-place": `lane-${p.name}-${lane}` },
    el("div", { class: "cell-caption" }, label),
    cards.length ? row(cards, { cls: "lane-cards" }) : el("div", { class: "lane-empty" }, "no weapon"));
}

function myLaneCell(p, lane, view, ctx, fightIds, area) {
  const cards = weaponsIn(p, lane, ctx, fightIds);
  const sum = (view.your_lanes || []).find((l) => l.lane === lane);
  const fighting = view.fight && view.fight.lane === `lane ${lane}` && view.fight.fighter === p.name;
  let total = "";
  if (sum) {
    const wins = sum.monster_attack > 0 && sum.your_attack >= sum.monster_attack;
    total = el("div", { class: `lane-total${wins ? " wins" : sum.monster_attack ? " short" : ""}`, title: `your attack: ${sum.attack_from}` },
      el("b", {}, String(sum.your_attack)), ` vs ${sum.monster_attack}`,
      sum.favor_to_win_all ? el("span", { class: "gap" }, ` · ${sum.favor_to_win_all} favor short`) : "");
  }
  const node = el("div", { class: `cell lane-cell mine${fighting ? " fighting" : ""}`, style: `grid-area: ${area}`, "data-lane": lane, "data-place": `lane-${p.name}-${lane}` },
    el("div", { class: "cell-caption lane-caption" }, el("span", {}, view.seat === null ? `${p.name}'s lane ${lane}` : `your lane ${lane}`), total),
    cards.length ? row(cards, { cls: "lane-cards" }) : el("div", { class: "lane-empty" }, "no weapon"));
  ctx.lane(node, lane);
  return node;
}

export function render(view, ctx) {
  const dungeon = view.dungeon;
  if (!dungeon || !Array.isArray(dungeon.rows) || !Array.isArray(view.players)) return g.render(view, ctx);
  const players = view.players;
  const at = { me: null, across: null, left: null, right: null };
  for (const p of players) at[position(p)] = at[position(p)] || p;
  const me = at.me;
  const rows = dungeon.rows;
  const fightIds = new Set(view.fight ? [...view.fight.monsters, ...view.fight.weapons].map((c) => c.id) : []);
  const places = rows.map((r) => r[0].place);
  // The grid: [left] [lane 1] [lane 2] [lane 3] [right]; a row per dungeon row, the across seat's
  // lanes above, this seat's below.
  const cells = [];
  const wide = [];
  const narrow = [];
  const L = at.left;
  const R = at.right;
  // Column 1 (5) holds the left (right) seat's plate and lanes; without such a seat, this seat's
  // plate (the shared piles) runs down it.
  const left = (name) => (L ? name : "mp");
  const right = (name) => (R ? name : "piles");
  if (L || R || at.across) wide.push([L ? "lp" : at.across ? "ap" : ".", at.across ? "ap" : ".", at.across ? "ap" : ".", at.across ? "ap" : ".", R ? "rp" : at.across ? "ap" : "."]);
  if (L) narrow.push(["lp", "lp", "lp"], ["l1", "l2", "l3"]);
  if (R) narrow.push(["rp", "rp", "rp"], ["r1", "r2", "r3"]);
  // With nobody at the sides (one or two players), the across seat's plate runs down the left column
  // beside its lanes and the far half of the dungeon, this seat's plate beside the near half: the
  // table stays short enough for a screen.
  const compact = !L && !R && at.across;
  if (compact) wide.length = 0;
  if (at.across) {
    narrow.push(["ap", "ap", "ap"], ["a1", "a2", "a3"]);
    // A side seat's plate runs down beside the across seat's lanes.
    wide.push([compact ? "ap" : L ? "lp" : left("."), "a1", "a2", "a3", R ? "rp" : right(".")]);
  }
  rows.forEach((r, i) => {
    const name = (side, p) => {
      const lane = p.lanes_seen.findIndex((s) => s.row === places[i]);
      return lane >= 0 ? `${side}${lane + 1}` : ".";
    };
    const first = compact ? (i < Math.floor(rows.length / 2) ? "ap" : "mp") : L ? name("l", L) : "mp";
    wide.push([first, `d${i}0`, `d${i}1`, `d${i}2`, R ? name("r", R) : "piles"]);
    narrow.push([`d${i}0`, `d${i}1`, `d${i}2`]);
    r.forEach((space, j) => cells.push(Object.assign(dungeonCell(space, ctx, fightIds), { style: `grid-area: d${i}${j}` })));
  });
  wide.push(["mp", "m1", "m2", "m3", "piles"]);
  narrow.push(["m1", "m2", "m3"], ["mp", "mp", "mp"], ["piles", "piles", "piles"]);
  for (const [side, p] of [["l", at.left], ["r", at.right]]) {
    if (!p) continue;
    p.lanes_seen.forEach((s, k) => cells.push(laneCell(p, k + 1, ctx, fightIds, `${p.name}'s lane ${k + 1}`, `side-lane ${side}`, `${side}${k + 1}`)));
  }
  if (at.across) {
    // The across seat's lanes, each above the column it crosses.
    at.across.lanes_seen.forEach((s, k) => {
      if (s.lane) cells.push(laneCell(at.across, k + 1, ctx, fightIds, `${at.across.name}'s lane ${k + 1}`, "across-lane", `a${s.lane}`));
    });
  }
  if (me) for (const lane of [1, 2, 3]) cells.push(myLaneCell(me, lane, view, ctx, fightIds, `m${lane}`));
  const plateCell = (p, area, where) => el("div", { class: `cell plate-cell ${area}`, style: `grid-area: ${area}`, "data-place": `seat-${p.name}` }, playerPlate(p, view, ctx, where));
  if (at.left) cells.push(plateCell(at.left, "lp", "left"));
  if (at.right) cells.push(plateCell(at.right, "rp", "right"));
  if (at.across) cells.push(plateCell(at.across, "ap", "across"));
  if (me) cells.push(plateCell(me, "mp", "me"));
  // The shared piles: the deck (two players: beside the dungeon), the discard pile, the card resolving.
  const piles = [];
  if (!rows.some((r) => r.some((s) => Number.isInteger(s.deck)))) piles.push(back({ label: "the deck", count: view.progress ? view.progress.deck : null, size: "mini", place: "deck" }));
  piles.push(discardPile(view, ctx));
  if (view.resolving && view.resolving.card) {
    piles.push(el("div", { class: "resolving", "data-place": "resolving" }, face({ ...spec(view.resolving.card), size: "mini", state: ["glow"] }, ctx),
      el("div", { class: "pile-label" }, sentence(view.resolving.status))));
  }
  cells.push(el("div", { class: "cell piles-cell", style: "grid-area: piles", "data-place": "piles" }, ...piles));
  const toAreas = (lines) => lines.map((l) => `"${l.join(" ")}"`).join(" ");
  const board = el("div", {
    class: `mephisto-grid${at.left || at.right ? " sides" : ""}`,
    style: `--areas-wide: ${toAreas(wide)}; --areas-narrow: ${toAreas(narrow)}`,
  }, ...cells);
  if (view.fight) ctx.aside(fightBox(view.fight, ctx));
  if (view.resolving && view.resolving.card) ctx.aside(el("div", { class: "aside-card" }, face({ ...spec(view.resolving.card), size: "mini" }, null), el("div", {}, sentence(view.resolving.status))));
  if (view.hand) ctx.dock(hand(view, ctx));
  return el("div", { class: "view mephisto" }, info(view), board);
}

function discardPile(view, ctx) {
  const cards = view.discard_pile || [];
  const top = pile(cards, spec, ctx, { label: "discard pile", size: "mini", place: "discard", empty: "discard pile: empty" });
  if (cards.length < 2) return top;
  const all = el("details", { class: "pile-list", "data-place": "discard-list" },
    el("summary", {}, `all ${cards.length}`),
    row(cards.slice(0, -1).map((c) => mini(c, ctx)), { cls: "wrap" }));
  if (all.querySelector(".playable")) all.open = true;
  return el("div", { class: "discard" }, top, all);
}

function info(view) {
  const p = view.progress || {};
  const bits = [view.whose_turn ? sentence(view.whose_turn) : "", `deck ${p.deck ?? "?"}`, p.pass_through_deck ? `pass ${p.pass_through_deck}` : ""];
  if (p.ranking) bits.push(p.ranking);
  return el("div", { class: "table-info" }, el("span", {}, bits.filter(Boolean).join(" · ")), p.end ? el("span", { class: "end" }, `End: ${p.end}`) : "");
}

function fightBox(fight, ctx) {
  const wins = fight.favor_to_close_gap === 0;
  return el("div", { class: "fight-box", "data-zone": "fight" },
    el("div", { class: "fight-head" }, `${fight.fighter} fights in ${fight.lane}`),
    el("div", { class: `fight-total${wins ? " wins" : ""}` }, el("b", {}, String(fight.attack)), " attack vs ", el("b", {}, String(fight.needed)), ` — ${fight.summary.split(": ").slice(1).join(": ")}`),
    el("div", { class: "fight-from muted" }, `attack from ${fight.attack_from}`),
    fight.monsters.length ? row(fight.monsters.map((c) => face({ ...spec(c), size: "strip-row" }, null)), { cls: "souls" }) : "",
    fight.weapons.length ? row(fight.weapons.map((c) => face({ ...spec(c), size: "strip-row" }, null)), { cls: "souls" }) : "");
}

function hand(view, ctx) {
  const cards = view.hand || [];
  return zone(`your hand (${cards.length})`, row(cards.map((c) => face(spec(c), ctx)), { scroll: true, cls: "hand-cards" }), { key: "hand", cls: "hand", place: "hand" });
}
