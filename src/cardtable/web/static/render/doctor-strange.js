// Doctor Strange: the characters on the table by side (Evil above, Good below, this seat's side
// nearest), each with its attachments and its state (viable, incapacitated, controlled, captured),
// the fight in progress, and this seat's hand.
import { el } from "../common.js";
import * as g from "./generic.js";

export function render(view, ctx) {
  if (!Array.isArray(view.table)) return g.render(view, ctx);
  const used = new Set(["table", "hand", "discard", "killed", "exiled", "phase", "step", "turn_of", "hand_sizes", "deck_size"]);
  const mySide = view.seat === null ? null : g.seatName(view, view.seat);
  const sides = [...new Set(view.table.map((c) => c.side))];
  sides.sort((a, b) => (a === mySide) - (b === mySide));
  const facts = el("div", { class: "counts" },
    ...["phase", "step", "turn_of", "deck_size"].filter((k) => view[k] !== undefined && view[k] !== null)
      .map((k) => el("span", { class: "kv" }, el("b", {}, k.replace(/_/g, " ")), ": ", String(view[k]))),
    Array.isArray(view.hand_sizes) ? el("span", { class: "kv" }, el("b", {}, "cards in hand"), ": ",
      view.hand_sizes.map((n, s) => `${g.seatName(view, s)} ${n}`).join(", ")) : "");
  const rows = sides.map((side) => el("div", { class: `group-box${side === mySide ? " mine" : ""}`, "data-side": side },
    el("div", { class: "group-title" }, `${side}${side === mySide ? " (you)" : ""}`),
    el("div", { class: "cards" }, ...view.table.filter((c) => c.side === side).map((c) => g.cardEl(c, ctx)))));
  return el("div", { class: "view doctor-strange" },
    facts, ...rows,
    g.hand(view, ctx),
    g.remaining(view, ctx, used),
    g.folded("discard", view.discard, ctx), g.folded("killed", view.killed, ctx), g.folded("exiled", view.exiled, ctx));
}
