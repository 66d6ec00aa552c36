// Army of Darkness (Rules of Kalle): the players around the table, the others across the top in turn
// order from this seat's left, this seat at the bottom. Each player's plate shows the character (its
// side as a colour), the hand's size, what the player still needs to win and a coming side switch;
// the monsters, allies and items in front of the player lie beside it, grouped as on a table. The
// deck, the discard pile and the card being played are in the middle.
import { el } from "../common.js";
import { back, face, pile, plate, row, sentence, zone } from "./cards.js";
import * as g from "./generic.js";

export const title = "Army of Darkness";

export function spec(card) {
  const type = String(card.type || "");
  return {
    id: card.id, title: card.name, type: type === "necronomicon" ? "the Necronomicon" : type, tone: type,
    text: card.text, details: [["Type", sentence(type)]],
  };
}

/** A player's place: plate and the cards in front of them (monsters, allies, items). */
function seatArea(p, view, ctx, mine) {
  const name = g.seatName(view, p.seat);
  const good = p.side === "good";
  const note = [`${sentence(p.side)}`, mine && view.seat !== null ? "you" : "", view.turn_of === p.seat ? "their turn" : ""].filter(Boolean).join(" · ");
  const extra = [el("div", { class: "needs" }, sentence(p.needs))];
  if (p.switching) extra.push(el("div", { class: "chip warn" }, sentence(p.switching)));
  if ((p.known_in_hand || []).length) {
    extra.push(zone(mine ? "known to all in your hand" : "known in their hand", row(p.known_in_hand.map((c) => face({ ...spec(c), size: "strip-row" }, ctx)), { cls: "souls" }), { cls: "flat", place: `known-${name}` }));
  }
  const node = plate({
    name: `${name} · ${p.character}`, note, seat: name, mine: mine && view.seat !== null,
    deciding: view.current_player === p.seat && !view.is_over, tone: good ? "good" : "evil",
    stats: [
      { v: p.hand_size, label: p.hand_size === 1 ? "card in hand" : "cards in hand", t: "cards in hand" },
      p.switches ? { v: p.switches, label: p.switches === 1 ? "side switch" : "side switches", t: "times switched sides" } : null,
    ],
    extra,
  });
  ctx.seat(node, name);
  const group = (label, cards) => {
    const sorted = [...cards].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    return zone(`${label} (${cards.length})`, cards.length ? row(sorted.map((c) => face({ ...spec(c), size: "tile" }, ctx)), { cls: "tiles" }) : el("div", { class: "lane-empty" }, "none"),
      { cls: `flat tabled ${label}`, place: `${label}-${name}` });
  };
  // What opposes a good player is a monster, an evil player an ally: the foes come first.
  const foes = good ? group("monsters", p.monsters || []) : group("allies", p.allies || []);
  const support = good ? group("allies", p.allies || []) : group("monsters", p.monsters || []);
  return el("div", { class: `aod-seat${mine ? " mine" : ""} side-${p.side}`, "data-seat": p.seat, "data-place": `seat-${name}` },
    node, el("div", { class: "aod-tabled" }, foes, support, group("items", p.items || [])));
}

export function render(view, ctx) {
  if (!Array.isArray(view.players)) return g.render(view, ctx);
  const n = view.players.length;
  const me = view.seat === null ? 0 : view.seat;
  const order = [];
  for (let k = 1; k < n; k++) order.push(view.players[(me + k) % n]);
  const middle = [
    back({ label: "the deck", count: view.deck_size, size: "mini", place: "deck" }),
    pile(view.discard, spec, ctx, { label: "discard pile", size: "mini", place: "discard", empty: "discard pile: empty" }),
  ];
  if (view.being_played) middle.push(el("div", { class: "pile", "data-place": "playing" }, face({ ...spec(view.being_played), size: "mini", state: ["glow"] }, ctx), el("div", { class: "pile-label" }, "being played")));
  if (view.returning) middle.push(el("div", { class: "pile", "data-place": "returning" }, face({ ...spec(view.returning), size: "mini", state: ["glow"] }, ctx), el("div", { class: "pile-label" }, "coming back")));
  const lists = [];
  const discard = view.discard || [];
  if (discard.length > 1) {
    const all = el("details", { class: "pile-list", "data-place": "discard-list" }, el("summary", {}, `the whole discard pile (${discard.length})`),
      row(discard.slice(0, -1).map((c) => face({ ...spec(c), size: "strip-row" }, ctx)), { cls: "souls" }));
    if (all.querySelector(".playable")) all.open = true;
    lists.push(all);
  }
  if ((view.removed || []).length) {
    lists.push(el("details", { class: "pile-list", "data-place": "removed" }, el("summary", {}, `out of the game by the Rules of Kalle (${view.removed.length})`),
      row(view.removed.map((c) => face({ ...spec(c), size: "strip-row" }, null)), { cls: "souls" })));
  }
  if (view.hand) {
    ctx.dock(zone(`your hand (${view.hand.length})`, row(view.hand.map((c) => face(spec(c), ctx)), { scroll: true, cls: "hand-cards" }), { key: "hand", cls: "hand", place: "hand" }));
  }
  const turnOf = Number.isInteger(view.turn_of) ? view.players[view.turn_of] : null;
  return el("div", { class: "view army-of-darkness" },
    el("div", { class: "table-info" }, el("span", {}, [turnOf ? `${g.seatName(view, turnOf.seat)} (${turnOf.character})'s turn` : "", sentence(view.step)].filter(Boolean).join(" · ")),
      view.result ? el("span", { class: "end" }, sentence(view.result)) : ""),
    el("div", { class: `aod-others n${order.length}` }, ...order.map((p) => seatArea(p, view, ctx, false))),
    el("div", { class: "aod-middle", "data-place": "middle" }, row(middle, { cls: "middle-piles" }), ...lists),
    seatArea(view.players[me], view, ctx, true));
}
