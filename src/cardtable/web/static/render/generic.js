// The generic table: draws any game's view (the table as a person in that seat sees it) from the
// view alone. Card objects ({id, name, type, text, numbers...}) become readable cards; lists of
// cards become zones; lists of records with a seat or a name become one box per player; everything
// else is a labelled value. Game modules reuse these pieces for their own layouts.
import { el, words } from "../common.js";

export const ENGINE_KEYS = new Set(["game", "seat", "seat_names", "turn", "current_player", "is_over", "prompt"]);
const CARD_SKIP = new Set(["id", "name", "type", "text"]);
const SEAT_KEYS = /^(seat|turn_of|current_player|actor|first|side_to_play|owner_seat|winner)$/;

export function isCard(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v) && Number.isInteger(v.id) && typeof v.name === "string";
}

/** A card-like record without an id (the other side of a card, a summary): drawn as a card, not clickable. */
function isCardLike(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v) && typeof v.name === "string" && "type" in v && "text" in v;
}

export function seatName(view, seat) {
  return (view.seat_names && view.seat_names[seat]) || `P${seat + 1}`;
}

function scalarText(key, value, ctx) {
  if (value === true) return "yes";
  if (value === false) return "no";
  if (value === null || value === undefined) return "—";
  if (Number.isInteger(value) && SEAT_KEYS.test(key) && ctx.view.seat_names && value >= 0 && value < ctx.view.seat_names.length) {
    return seatName(ctx.view, value);
  }
  return String(value);
}

function isScalar(v) { return v === null || ["string", "number", "boolean"].includes(typeof v); }

/** A card as a person reads it: name, type, printed numbers, effect in words, what is attached. */
export function cardEl(card, ctx, extraClass = "") {
  const type = String(card.type ?? "");
  const node = el("div", { class: `card t-${type.toLowerCase().replace(/[^a-z]+/g, "-")} ${extraClass}`, "data-card": card.id ?? "" });
  node.append(el("div", { class: "name" }, card.name));
  if (type) node.append(el("div", { class: "type" }, type));
  const nums = el("div", { class: "nums" });
  const subs = [];
  for (const [key, value] of Object.entries(card)) {
    if (CARD_SKIP.has(key)) continue;
    if (isScalar(value)) {
      if (value === null || value === "" || value === false) continue;
      nums.append(el("span", { class: "num", title: words(key) }, value === true ? words(key) : `${words(key)} ${scalarText(key, value, ctx)}`));
    } else if (Array.isArray(value) && value.length && value.every(isCard)) {
      subs.push(el("div", { class: "sub" }, el("div", { class: "type" }, words(key)), ...value.map((c) => cardEl(c, ctx))));
    } else if (Array.isArray(value) && value.length && value.every(isScalar)) {
      nums.append(el("span", { class: "num" }, `${words(key)}: ${value.map((x) => scalarText(key, x, ctx)).join(", ")}`));
    } else if (isCard(value) || isCardLike(value)) {
      subs.push(el("div", { class: "sub" }, el("div", { class: "type" }, words(key)), cardEl(value, ctx)));
    } else if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length) {
      nums.append(el("span", { class: "num" }, `${words(key)}: ${Object.entries(value).map(([k, v]) => `${words(k)} ${isScalar(v) ? v : "…"}`).join(", ")}`));
    }
  }
  if (nums.childNodes.length) node.append(nums);
  if (card.text) node.append(el("div", { class: "text" }, card.text));
  node.append(...subs);
  if (Number.isInteger(card.id)) ctx.decorate(node, card.id);
  return node;
}

/** One value of a view under its key: a card, a zone of cards, a box per player, facts. */
export function renderValue(key, value, ctx) {
  if (isCard(value) || isCardLike(value)) {
    return el("div", { class: "zone" }, el("div", { class: "zone-title" }, words(key)), el("div", { class: "cards" }, cardEl(value, ctx)));
  }
  if (Array.isArray(value)) {
    if (!value.length) return el("div", { class: "kv" }, el("b", {}, words(key)), ": none");
    if (value.every((v) => isCard(v) || isCardLike(v))) {
      return el("div", { class: "zone", "data-zone": key }, el("div", { class: "zone-title" }, `${words(key)} (${value.length})`),
        el("div", { class: "cards" }, ...value.map((c) => cardEl(c, ctx))));
    }
    if (value.every(isScalar)) {
      return el("div", { class: "kv" }, el("b", {}, words(key)), ": ", value.map((v) => scalarText(key, v, ctx)).join(", "));
    }
    if (value.every(holdsOneCard)) {
      // Places that each hold a card (dungeon spaces, map locations): a row of captioned cells.
      return el("div", { class: "zone", "data-zone": key }, el("div", { class: "zone-title" }, words(key)),
        el("div", { class: "cards" }, ...value.map((item) => cell(item, ctx))));
    }
    return el("div", { class: "zone", "data-zone": key }, el("div", { class: "zone-title" }, words(key)),
      ...value.map((item, i) => renderRecord(item, ctx, `${words(key)} ${i + 1}`)));
  }
  if (value && typeof value === "object") {
    return renderRecord(value, ctx, words(key));
  }
  return el("div", { class: "kv" }, el("b", {}, words(key)), ": ", scalarText(key, value, ctx));
}

function holdsOneCard(v) {
  if (!v || typeof v !== "object" || Array.isArray(v)) return false;
  const values = Object.values(v);
  return values.filter((x) => isCard(x) || isCardLike(x)).length === 1 && values.every((x) => isScalar(x) || isCard(x) || isCardLike(x) || (Array.isArray(x) && x.every(isScalar)));
}

/** A place holding one card, captioned with its other facts (a dungeon space, a map location). */
export function cell(item, ctx, caption) {
  const facts = [];
  let card = null;
  for (const [key, value] of Object.entries(item)) {
    if (isCard(value) || isCardLike(value)) card = value;
    else if (value !== null && value !== "" && !(Array.isArray(value) && !value.length)) facts.push(`${words(key)} ${Array.isArray(value) ? value.map((x) => scalarText(key, x, ctx)).join(", ") : scalarText(key, value, ctx)}`);
  }
  return el("div", { class: "cell" }, el("div", { class: "cell-title" }, caption ?? facts.join(" · ")), card ? cardEl(card, ctx) : el("div", { class: "muted" }, "empty"));
}

/** A record (a player, a lane, a fight...): a titled box with its facts first, then its zones. */
export function renderRecord(record, ctx, fallbackTitle) {
  if (!record || typeof record !== "object" || Array.isArray(record)) {
    return el("div", { class: "kv" }, scalarText("", record, ctx));
  }
  let title = fallbackTitle;
  let mine = false;
  if (Number.isInteger(record.seat) && ctx.view.seat_names) {
    title = seatName(ctx.view, record.seat);
    mine = record.seat === ctx.view.seat;
  } else if (typeof record.name === "string") {
    title = record.name;
  } else if (typeof record.location === "string") {
    title = record.location;
  }
  if (record.sits === "you") mine = true;
  if (mine) title += " (you)";
  const box = el("div", { class: `group-box${mine ? " mine" : ""}` }, el("div", { class: "group-title" }, title));
  box.append(renderEntries(record, ctx, new Set(["seat", "name"])));
  return box;
}

/** Every entry of an object: the scalar facts in one line, then the rest. */
export function renderEntries(object, ctx, skip = new Set()) {
  const facts = el("div", { class: "counts" });
  const rest = [];
  for (const [key, value] of Object.entries(object)) {
    if (skip.has(key) || value === null || value === undefined) continue;
    if (isScalar(value)) facts.append(el("span", { class: "kv" }, el("b", {}, words(key)), ": ", scalarText(key, value, ctx)));
    else rest.push(renderValue(key, value, ctx));
  }
  return el("div", {}, facts.childNodes.length ? facts : "", ...rest);
}

/** The whole view, generic layout. */
export function render(view, ctx) {
  const rest = {};
  for (const [key, value] of Object.entries(view)) if (!ENGINE_KEYS.has(key)) rest[key] = value;
  return el("div", { class: "view generic" }, renderEntries(rest, ctx));
}

/** The view's entries not in ``used`` (nor the engine's), drawn the generic way. */
export function remaining(view, ctx, used) {
  const rest = {};
  for (const [key, value] of Object.entries(view)) if (!ENGINE_KEYS.has(key) && !used.has(key)) rest[key] = value;
  return renderEntries(rest, ctx);
}

/** A zone of cards that starts folded (discard piles): its size shown, its cards one click away. */
export function folded(key, cards, ctx) {
  const list = Array.isArray(cards) ? cards : [];
  const node = el("details", { class: "zone", "data-zone": key },
    el("summary", { class: "zone-title" }, `${words(key)} (${list.length})`),
    el("div", { class: "cards" }, ...list.filter((c) => isCard(c) || isCardLike(c)).map((c) => cardEl(c, ctx))));
  // A card that can be taken from the pile now must be in sight.
  if (node.querySelector(".playable")) node.open = true;
  return node;
}

/** The seat's own hand, drawn last and marked as theirs. */
export function hand(view, ctx, key = "hand") {
  const cards = view[key];
  if (!Array.isArray(cards)) return "";
  return el("div", { class: "group-box mine", "data-zone": key },
    // A card shown once with a count (identical stat cards) counts as that many cards.
    el("div", { class: "group-title" }, `your hand (${cards.reduce((n, c) => n + (Number.isInteger(c && c.count) ? c.count : 1), 0)})`),
    el("div", { class: "cards" }, ...cards.map((c) => cardEl(c, ctx))));
}
