// Mr. Card Game (Kingdom of Loathing): what is being fought first (the combat's score against each
// target, the March), then the hand, the map as its grid of locations (the monster on top of each,
// marked with this combat's score against it; each stat card in the hand offers what can be done
// with a card of its kind), the players, the stat piles as one small table, and
// the shared piles (Sorceress, Heap, trainer) as they are in the view.
import { el, words } from "../common.js";
import * as g from "./generic.js";

const STATS = ["Muscle", "Mysticality", "Moxie"];

/** A wide table in a box of its own that scrolls sideways on a narrow screen (the page never does). */
function scroller(table) {
  return el("div", { class: "table-scroll" }, table);
}

/** The score a combat puts against the monster of ``place``, as a badge, or "". */
function scoreBadge(target) {
  if (!target) return "";
  const beaten = target.beaten ? "beaten" : "not beaten";
  return el("div", { class: `score ${target.beaten ? "beats" : "short"}`, "data-score": target.score },
    `score ${target.score} vs power ${target.power}: ${beaten}`);
}

function location(place, ctx, targets) {
  const title = `${place.location ?? ""}${Number.isInteger(place.hidden_cards) ? ` · ${place.hidden_cards} below` : ""}`;
  const monster = g.isCard(place.monster) ? place.monster : null;
  const body = monster ? g.cardEl(monster, ctx) : el("div", { class: "muted" }, place.empty ? "cleared" : "—");
  return el("div", { class: "cell", "data-location": place.location ?? "" },
    el("div", { class: "cell-title" }, title), monster ? scoreBadge(targets.get(monster.id)) : "", body);
}

/** The targets of a combat as a table: the score against each, and whether it beats it. */
function combatBox(combat, ctx) {
  const facts = {};
  for (const [key, value] of Object.entries(combat)) {
    const empty = value !== null && typeof value === "object" && Object.keys(value).length === 0;
    if (key !== "targets" && !empty) facts[key] = value;  // an empty list or record says nothing
  }
  const rows = (combat.targets || []).map((t) => el("tr", { class: t.beaten ? "beats" : "" },
    el("td", {}, t.monster), el("td", {}, t.element), el("td", { class: "n" }, String(t.power)),
    el("td", { class: "n" }, String(t.score)), el("td", {}, t.beaten ? "beaten" : "—"),
    el("td", {}, t.counter_attack === null || t.counter_attack === undefined ? "" : String(t.counter_attack))));
  const table = rows.length
    ? scroller(el("table", { class: "facts-table", "data-zone": "targets" },
      el("thead", {}, el("tr", {}, ...["monster", "element", "power", "your score", "", "counter-attack"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows)))
    : "";
  return el("div", { class: "group-box", "data-zone": "combat" }, el("div", { class: "group-title" }, `combat — ${combat.player ?? ""}`),
    g.renderEntries(facts, ctx, new Set(["player"])), table);
}

/** The twelve stat piles: a row per stat, a column per value, each cell its card's name and count. */
function statPiles(piles) {
  const byStat = new Map(STATS.map((s) => [s, new Map()]));
  for (const pile of piles) {
    if (!byStat.has(pile.stat)) byStat.set(pile.stat, new Map());
    byStat.get(pile.stat).set(pile.value, pile);
  }
  const values = [...new Set(piles.map((p) => p.value))].sort((a, b) => a - b);
  return el("div", { class: "zone", "data-zone": "stat_piles" }, el("div", { class: "zone-title" }, "stat piles (cards left)"),
    scroller(el("table", { class: "facts-table" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), ...values.map((v) => el("th", {}, `value ${v}`)))),
      el("tbody", {}, ...[...byStat].filter(([, row]) => row.size).map(([stat, row]) => el("tr", {}, el("th", {}, stat),
        ...values.map((v) => {
          const pile = row.get(v);
          if (!pile) return el("td", {}, "");
          return el("td", { class: pile.left === 0 ? "muted" : "", title: `${pile.name} (${pile.kind})` },
            el("div", {}, pile.name), el("div", { class: "sub-line" }, `${pile.kind} · ${pile.left} left`));
        })))))));
}

/** The legal actions that put a stat card of ``kind`` to use (a maneuver, a play, a discard, mojo, a
 * block, an upgrade from it): the game names stat cards by kind, not by id. */
function kindActions(ctx, kind) {
  const forms = [`stat=${kind}`, `from=${kind}`];
  return (ctx.legal || []).filter((item) => item.action.split(" ").some((w) => forms.includes(w)));
}

/** The hand, each stat card clickable for what can be done with a card of its kind. */
function hand(view, ctx) {
  const node = g.hand(view, ctx);
  if (!node || !ctx.offer) return node;
  node.querySelectorAll(":scope > .cards > .card").forEach((cardNode, i) => {
    const card = view.hand[i];
    if (card && typeof card.kind === "string" && !Number.isInteger(card.id)) ctx.offer(cardNode, kindActions(ctx, card.kind));
  });
  return node;
}

export function render(view, ctx) {
  if (!Array.isArray(view.map)) return g.render(view, ctx);
  const used = new Set(["map", "hand", "players", "combat", "march", "stat_piles", "round", "whose_turn", "certificate", "phase", "turn_limit"]);
  const targets = new Map();
  if (view.combat && Array.isArray(view.combat.targets)) {
    for (const t of view.combat.targets) if (Number.isInteger(t.card)) targets.set(t.card, t);
  }
  const facts = el("div", { class: "counts" },
    ...["phase", "round", "whose_turn", "certificate", "turn_limit"].filter((k) => view[k] !== undefined && view[k] !== null)
      .map((k) => el("span", { class: "kv" }, el("b", {}, words(k)), ": ", String(view[k]))));
  const columns = Math.max(1, ...view.map.map((p) => (Number.isInteger(p.column) ? p.column + 1 : 1)));
  const sorted = [...view.map].sort((a, b) => (a.row ?? 0) - (b.row ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  const grid = el("div", { class: "grid3", style: `grid-template-columns: repeat(${columns}, minmax(0, 1fr))` },
    ...sorted.map((p) => location(p, ctx, targets)));
  const players = Array.isArray(view.players)
    ? el("div", { class: "cards" }, ...view.players.map((p, i) => el("div", { style: "flex: 1 1 280px" }, g.renderRecord(p, ctx, g.seatName(view, i)))))
    : "";
  // What is being fought and the hand first (most decisions are there), then the map, the players
  // and the shared piles.
  return el("div", { class: "view mr-card-game" },
    facts,
    view.combat ? combatBox(view.combat, ctx) : "",
    view.march ? g.renderRecord(view.march, ctx, "the March on the Tower") : "",
    hand(view, ctx),
    el("div", { class: "zone", "data-zone": "map" }, el("div", { class: "zone-title" }, "the map"), grid),
    players,
    Array.isArray(view.stat_piles) ? statPiles(view.stat_piles) : "",
    g.remaining(view, ctx, used));
}
