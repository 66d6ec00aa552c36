// Mr. Card Game (Kingdom of Loathing): the map as its grid of locations (the monster on top of each,
// the cards still below), the players, and the shared piles (Heap, trainer, display cases) as they
// are in the view; this seat's hand last.
import { el } from "../common.js";
import * as g from "./generic.js";

function location(place, ctx) {
  const title = `${place.location ?? ""}${Number.isInteger(place.hidden_cards) ? ` · ${place.hidden_cards} below` : ""}`;
  const body = g.isCard(place.monster) ? g.cardEl(place.monster, ctx) : el("div", { class: "muted" }, place.empty ? "cleared" : "—");
  return el("div", { class: "cell", "data-location": place.location ?? "" }, el("div", { class: "cell-title" }, title), body);
}

export function render(view, ctx) {
  if (!Array.isArray(view.map)) return g.render(view, ctx);
  const used = new Set(["map", "hand", "players"]);
  const columns = Math.max(1, ...view.map.map((p) => (Number.isInteger(p.column) ? p.column + 1 : 1)));
  const sorted = [...view.map].sort((a, b) => (a.row ?? 0) - (b.row ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  const grid = el("div", { class: "grid3", style: `grid-template-columns: repeat(${columns}, minmax(0, 1fr))` },
    ...sorted.map((p) => location(p, ctx)));
  const players = Array.isArray(view.players)
    ? el("div", { class: "cards" }, ...view.players.map((p, i) => el("div", { style: "flex: 1 1 280px" }, g.renderRecord(p, ctx, g.seatName(view, i)))))
    : "";
  // The hand first (most decisions name its cards), then the map, the players and the shared piles.
  return el("div", { class: "view mr-card-game" },
    g.hand(view, ctx),
    el("div", { class: "zone", "data-zone": "map" }, el("div", { class: "zone-title" }, "the map"), grid),
    players,
    g.remaining(view, ctx, used));
}
