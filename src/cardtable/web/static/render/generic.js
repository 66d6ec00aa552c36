// The generic table: draws any game's view (the table as a person in that seat sees it) from the
// view alone, for a game without a renderer of its own (or a view shape a game's renderer does not
// know). Card objects ({id, name, type, text, numbers...}) become card faces; lists of cards become
// zones; lists of records with a seat or a name become one box per player; everything else is a
// labelled value.
import { el, words } from "../common.js";
import { face, zone } from "./cards.js";

export const ENGINE_KEYS = new Set(["game", "seat", "seat_names", "turn", "current_player", "is_over", "prompt"]);
const CARD_SKIP = new Set(["id", "name", "type", "text"]);
const SEAT_KEYS = /^(seat|turn_of|current_player|first|side_to_play|owner_seat|winner)$/;

export function isCard(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v) && Number.isInteger(v.id) && typeof v.name === "string";
}

/** A card-like record without an id (the other side of a card, a summary): drawn as a card. */
export function isCardLike(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v) && typeof v.name === "string" && "type" in v && "text" in v;
}

export function seatName(view, seat) {
  return (view.seat_names && view.seat_names[seat]) || `P${seat + 1}`;
}

function isScalar(v) { return v === null || ["string", "number", "boolean"].includes(typeof v); }

function scalarText(key, value, view) {
  if (value === true) return "yes";
  if (value === false) return "no";
  if (value === null || value === undefined) return "—";
  if (Number.isInteger(value) && SEAT_KEYS.test(key) && view.seat_names && value >= 0 && value < view.seat_names.length) {
    return seatName(view, value);
  }
  return String(value);
}

/** Any card object as a face: its printed numbers listed in words, its text, cards under it. */
export function cardEl(card, ctx) {
  const details = [];
  const under = [];
  for (const [key, value] of Object.entries(card)) {
    if (CARD_SKIP.has(key) || value === null || value === "" || value === false) continue;
    if (isScalar(value)) details.push([words(key), scalarText(key, value, ctx.view)]);
    else if (Array.isArray(value) && value.every(isCard)) under.push(...value.map((c) => ({ id: c.id, title: c.name, type: c.type, text: c.text, label: words(key) })));
  }
  const node = face({ id: card.id, title: card.name, type: card.type, tone: String(card.type || "").toLowerCase().split(" ")[0], text: card.text, under, details }, ctx);
  const facts = details.slice(0, 4).map(([k, v]) => `${k} ${v}`).join(" · ");
  const cardNode = node.classList.contains("card") ? node : node.querySelector(".card");
  if (facts && cardNode) cardNode.insertBefore(el("div", { class: "card-facts" }, facts), cardNode.querySelector(":scope > .card-text"));
  return node;
}

/** One value of a view under its key: a card, a zone of cards, a box per player, facts. */
export function renderValue(key, value, ctx) {
  if (isCard(value) || isCardLike(value)) return zone(words(key), cardEl(value, ctx), { key });
  if (Array.isArray(value)) {
    if (!value.length) return el("div", { class: "fact" }, `${words(key)}: none`);
    if (value.every((v) => isCard(v) || isCardLike(v))) {
      return zone(`${words(key)} (${value.length})`, el("div", { class: "cards" }, ...value.map((c) => cardEl(c, ctx))), { key });
    }
    if (value.every(isScalar)) return el("div", { class: "fact" }, `${words(key)}: ${value.map((v) => scalarText(key, v, ctx.view)).join(", ")}`);
    return zone(words(key), value.map((item, i) => renderRecord(item, ctx, `${words(key)} ${i + 1}`)), { key });
  }
  if (value && typeof value === "object") return renderRecord(value, ctx, words(key));
  return el("div", { class: "fact" }, `${words(key)}: ${scalarText(key, value, ctx.view)}`);
}

/** A record (a player, a lane, a fight...): a titled box with its facts first, then its zones. */
export function renderRecord(record, ctx, fallbackTitle) {
  if (!record || typeof record !== "object" || Array.isArray(record)) return el("div", { class: "fact" }, scalarText("", record, ctx.view));
  let title = fallbackTitle;
  let mine = false;
  if (Number.isInteger(record.seat) && ctx.view.seat_names) {
    title = seatName(ctx.view, record.seat);
    mine = record.seat === ctx.view.seat;
  } else if (typeof record.name === "string") {
    title = record.name;
  }
  const box = el("div", { class: `group-box${mine ? " mine" : ""}` }, el("div", { class: "group-title" }, mine ? `${title} (you)` : title));
  box.append(renderEntries(record, ctx, new Set(["seat", "name"])));
  return box;
}

/** Every entry of an object: the scalar facts in one line, then the rest. */
export function renderEntries(object, ctx, skip = new Set()) {
  const facts = [];
  const rest = [];
  for (const [key, value] of Object.entries(object)) {
    if (skip.has(key) || value === null || value === undefined) continue;
    if (isScalar(value)) facts.push(`${words(key)}: ${scalarText(key, value, ctx.view)}`);
    else rest.push(renderValue(key, value, ctx));
  }
  return el("div", {}, facts.length ? el("div", { class: "facts" }, facts.join(" · ")) : "", ...rest);
}

/** The whole view, generic layout. */
export function render(view, ctx) {
  const rest = {};
  for (const [key, value] of Object.entries(view)) if (!ENGINE_KEYS.has(key)) rest[key] = value;
  return el("div", { class: "view generic" }, renderEntries(rest, ctx));
}
