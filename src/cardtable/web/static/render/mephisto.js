// Mephisto: the dungeon as the grid it is on the table (2x3 for two players, 3x3 for three or four,
// seen from this seat's side), the other players across the table, this seat's lanes and hand below.
import { el, words } from "../common.js";
import * as g from "./generic.js";

function dungeonCell(space, ctx) {
  const caption = `lane ${space.lane} · ${space.place}`;
  let body;
  if (g.isCard(space.card)) body = g.cardEl(space.card, ctx);
  else if (space.face_down) body = el("div", { class: "muted" }, space.face_down);
  else if (Number.isInteger(space.deck)) body = el("div", { class: "muted" }, `the deck: ${space.deck} cards`);
  else body = el("div", { class: "muted" }, "empty");
  return el("div", { class: "cell", "data-lane": space.lane }, el("div", { class: "cell-title" }, caption), body);
}

export function render(view, ctx) {
  const dungeon = view.dungeon;
  if (!dungeon || !Array.isArray(dungeon.rows)) return g.render(view, ctx);
  const used = new Set(["dungeon", "players", "hand", "your_lanes", "discard_pile", "whose_turn", "progress"]);
  const players = Array.isArray(view.players) ? view.players : [];
  const others = players.filter((p) => p.sits !== "you");
  const me = players.filter((p) => p.sits === "you");
  const columns = Math.max(...dungeon.rows.map((r) => r.length));
  const grid = el("div", { class: "grid3", style: `grid-template-columns: repeat(${columns}, minmax(0, 1fr))` },
    ...dungeon.rows.flat().map((space) => dungeonCell(space, ctx)));
  const facts = el("div", { class: "counts" },
    view.whose_turn ? el("span", { class: "kv whose" }, view.whose_turn) : "",
    ...Object.entries(view.progress || {}).map(([k, v]) => el("span", { class: "kv" }, el("b", {}, words(k)), ": ", String(v))));
  // The dungeon and the hand first (where the decisions are), then the players, then the rest.
  return el("div", { class: "view mephisto" },
    facts,
    el("div", { class: "zone", "data-zone": "dungeon" }, el("div", { class: "zone-title" }, `dungeon — ${dungeon.seen_from || ""}`), grid),
    g.hand(view, ctx),
    el("div", { class: "cards" }, ...others.map((p) => el("div", { style: "flex: 1 1 260px" }, g.renderRecord(p, ctx, p.name)))),
    ...me.map((p) => g.renderRecord(p, ctx, p.name)),
    view.your_lanes ? g.renderValue("your_lanes", view.your_lanes, ctx) : "",
    g.remaining(view, ctx, used),
    g.folded("discard_pile", view.discard_pile, ctx));
}
