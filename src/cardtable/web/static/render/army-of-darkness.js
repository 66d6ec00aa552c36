// Army of Darkness: every player's character, side and cards in front of her, what each still needs
// to win, the card being played, and this seat's hand.
import { el } from "../common.js";
import * as g from "./generic.js";

export function render(view, ctx) {
  if (!Array.isArray(view.players)) return g.render(view, ctx);
  const used = new Set(["players", "hand", "discard", "removed", "deck_size", "step", "turn_of"]);
  const facts = el("div", { class: "counts" },
    ...["step", "deck_size"].filter((k) => view[k] !== undefined && view[k] !== null)
      .map((k) => el("span", { class: "kv" }, el("b", {}, k.replace(/_/g, " ")), ": ", String(view[k]))),
    Number.isInteger(view.turn_of) ? el("span", { class: "kv" }, el("b", {}, "turn of"), ": ", g.seatName(view, view.turn_of)) : "");
  const players = el("div", { class: "cards" }, ...view.players.map((p) =>
    el("div", { style: "flex: 1 1 280px", "data-seat": p.seat }, g.renderRecord(p, ctx, p.character || ""))));
  return el("div", { class: "view army-of-darkness" },
    facts, players,
    g.hand(view, ctx),
    g.remaining(view, ctx, used),
    g.folded("discard", view.discard, ctx), g.folded("removed", view.removed, ctx));
}
