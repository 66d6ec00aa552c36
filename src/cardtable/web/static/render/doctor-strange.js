// Doctor Strange: the opponent across the table, this seat at the bottom. Each character carries its
// attachments tucked under it and its captives under their captor; its state is shown as on a table
// (incapacitated: turned; marked, attacked, controlled, helping: tokens on it). The deck, the piles and
// the card being played lie in the middle; the fight's dice and totals stand beside the prompt.
import { el } from "../common.js";
import { back, face, pile, plain, plate, row, sentence, zone } from "./cards.js";
import * as g from "./generic.js";

export const title = "Doctor Strange";

const FATES = { incapacitated: "incap.", captured: "capture", controlled: "control", killed: "kill", exiled: "exile" };

/** The printed side restriction as a corner: G (Good only), E (Evil only), nothing for either. */
function sideCorner(player) {
  const p = String(player || "");
  if (p.startsWith("Good")) return { v: "G", k: "good", t: "Good player only" };
  if (p.startsWith("Evil")) return { v: "E", k: "evil", t: "Evil player only" };
  return null;
}

/** A timing's letter ("Rest phase (R)" -> R), as printed on the card. */
function timingLetter(timing) {
  const m = /\(([A-Z])\)\s*$/.exec(String(timing || ""));
  return m ? m[1] : "";
}

export function spec(card) {
  const type = String(card.type || "");
  const tone = type.toLowerCase();
  const corners = {};
  const details = [];
  const side = sideCorner(card.player);
  if (Number.isInteger(card.power)) {
    const now = Number.isInteger(card.modified_power) ? card.modified_power : card.power;
    const sign = type === "Character" ? "" : "+";
    corners.tl = { v: `${sign}${now}`, k: "power", t: now === card.power ? `power ${card.power}` : `power ${now} (printed ${card.power})` };
    details.push(["Power", now === card.power ? `${sign}${card.power}` : `${now} now (printed ${card.power})`]);
  }
  if (type === "Attack" && card.fate) {
    corners.tr = { v: FATES[card.fate] || card.fate, k: "plain", t: `if the attack wins, the target is ${card.fate}` };
    details.push(["Fate if it wins", card.fate]);
    if (side) corners.bl = side;
  } else if (type === "Event") {
    const letter = timingLetter(card.timing);
    if (letter) corners.tr = { v: letter, k: "plain", t: `played: ${card.timing}` };
    if (side) corners.bl = side;
    details.push(["When", card.timing]);
  } else if (side) {
    corners.tr = side;
  }
  if (card.role) details.push(["Played by", card.role.replace(/\s*\([A-Z]+\)$/, "")]);
  details.push(["Who may play it", card.player]);
  let band = type;
  if (card.role && card.role !== "attacker or defender") band = `${type} · ${card.role.replace(/\s*\([A-Z]+\)$/, "")}`;
  const state = [];
  const tokens = [];
  const stateWords = [];
  if (card.state) stateWords.push(plain(card.state));
  if (card.incapacitated) { state.push("turned"); tokens.push({ text: "incapacitated", tone: "bad" }); }
  if (card.controlled) tokens.push({ text: "controlled", tone: "bad" });
  if (card.owner && card.side && card.owner !== card.side) tokens.push({ text: `${card.owner}'s`, tone: "" });
  if (card.marked) tokens.push({ text: "marked", tone: "gold" });
  if (card.attacked) tokens.push({ text: "attacked", tone: "" });
  if (card.helping) { tokens.push({ text: "helping", tone: "good" }); state.push("glow"); }
  const under = (card.attachments || []).map((a) => ({ ...spec(a), label: sentence(a.type) }));
  return { id: card.id, title: card.name, type: band, tone, corners, text: card.text, details, state, tokens, stateWords, under };
}

function mini(card, ctx, extra = {}) { return face({ ...spec(card), size: "mini", ...extra }, ctx); }

/** The characters of one side, each with its attachments and, under its captor, any captive. */
function sideRow(chars, captives, ctx) {
  return chars.map((c) => {
    const s = spec(c);
    for (const cap of captives.get(c.id) || []) s.under.push({ ...spec(cap), label: "captive", state: ["captive"] });
    return face({ ...s, size: "mini" }, ctx);
  });
}

export function render(view, ctx) {
  if (!Array.isArray(view.table)) return g.render(view, ctx);
  const names = view.seat_names || ["P1", "P2"];
  const meSeat = view.seat === null ? 0 : view.seat;
  const myName = names[meSeat];
  const theirSeat = 1 - meSeat;
  const theirName = names[theirSeat];
  const onTable = new Set(view.table.map((c) => c.id));
  const captives = new Map();
  const free = [];
  for (const c of view.table) {
    if (c.captured && Number.isInteger(c.held_by) && onTable.has(c.held_by)) {
      if (!captives.has(c.held_by)) captives.set(c.held_by, []);
      captives.get(c.held_by).push(c);
    } else free.push(c);
  }
  const mine = free.filter((c) => c.side === myName);
  const theirs = free.filter((c) => c.side !== myName);
  const sizes = view.hand_sizes || [];
  const deciding = (seat) => view.current_player === seat && !view.is_over;
  const theirPlate = plate({
    name: theirName, note: view.turn_of === theirName ? "their turn" : "", seat: theirName, deciding: deciding(theirSeat),
    tone: theirName.toLowerCase(),
    stats: [{ v: sizes[theirSeat] ?? "?", label: "cards in hand", t: "cards in hand" }],
    extra: (view.known_opponent_hand || []).length
      ? [zone("seen in their hand", row(view.known_opponent_hand.map((c) => face({ ...spec(c), size: "strip-row" }, ctx)), { cls: "souls" }), { cls: "flat", place: "known-hand" })]
      : [],
  });
  const myPlate = plate({
    name: myName, note: [view.seat !== null ? "you" : "", view.turn_of === myName ? "your turn" : ""].filter(Boolean).join(" · "),
    seat: myName, mine: view.seat !== null, deciding: deciding(meSeat), tone: myName.toLowerCase(),
    stats: [{ v: sizes[meSeat] ?? "?", label: "cards in hand", t: "cards in hand" }],
  });
  const middle = [
    back({ label: "the deck", count: view.deck_size, size: "mini", place: "deck" }),
    pile(view.discard, spec, ctx, { label: "discard", size: "mini", place: "discard", empty: "no discard" }),
    pile(view.killed, spec, ctx, { label: "killed", size: "mini", place: "killed", empty: "none killed" }),
    pile(view.exiled, spec, ctx, { label: "exiled", size: "mini", place: "exiled", empty: "none exiled" }),
  ];
  if (view.playing) {
    middle.push(el("div", { class: "pile", "data-place": "playing" }, mini(view.playing, ctx, { state: ["glow"] }), el("div", { class: "pile-label" }, "being played")));
  }
  const extras = [];
  if (Array.isArray(view.search) && view.search.length) {
    extras.push(zone(`the deck, searched (${view.search.length})`, row(view.search.map((c) => mini(c, ctx)), { scroll: true }), { key: "search", place: "search" }));
  }
  if (Array.isArray(view.known_deck) && view.known_deck.length) {
    extras.push(zone("seen in the deck", row(view.known_deck.map((k) => face({ ...spec(k.card), size: "strip-row", tokens: [] }, ctx)), { cls: "souls" }),
      { place: "known-deck" }), el("div", { class: "fact" }, view.known_deck.map((k) => `${k.card.name}: ${ordinal(k.from_top)} from the top`).join(" · ")));
  }
  for (const name of ["discard", "killed", "exiled"]) {
    const list = view[name] || [];
    if (list.length > 1) {
      const all = el("details", { class: "pile-list", "data-place": `${name}-list` }, el("summary", {}, `all ${list.length} ${name === "discard" ? "discarded" : name}`),
        row(list.slice(0, -1).map((c) => face({ ...spec(c), size: "strip-row" }, ctx)), { cls: "souls" }));
      if (all.querySelector(".playable")) all.open = true;
      extras.push(all);
    }
  }
  if (view.fight) ctx.aside(fightBox(view.fight));
  if (Array.isArray(view.attacks) && view.attacks.length) ctx.aside(attacksBox(view.attacks));
  if (view.hand) {
    ctx.dock(zone(`your hand (${view.hand.length})`, row(view.hand.map((c) => face(spec(c), ctx)), { scroll: true, cls: "hand-cards" }), { key: "hand", cls: "hand", place: "hand" }));
  }
  return el("div", { class: "view doctor-strange" },
    info(view),
    el("div", { class: "ds-side theirs", "data-side": theirName, "data-place": `side-${theirName}` }, theirPlate,
      theirs.length ? row(sideRow(theirs, captives, ctx), { cls: "characters" }) : el("div", { class: "lane-empty" }, "no character in play")),
    el("div", { class: "ds-middle", "data-place": "middle" }, row(middle, { cls: "middle-piles" }), ...extras),
    el("div", { class: "ds-side mine", "data-side": myName, "data-place": `side-${myName}` },
      mine.length ? row(sideRow(mine, captives, ctx), { cls: "characters" }) : el("div", { class: "lane-empty" }, "no character in play"), myPlate));
}

function ordinal(n) { return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`; }

function info(view) {
  const bits = [view.turn_of ? `${view.turn_of}'s turn` : "", view.phase ? `${view.phase}` : "", view.step && view.step !== view.phase ? view.step : ""];
  const v = view.victory;
  return el("div", { class: "table-info" }, el("span", {}, bits.filter(Boolean).map(sentence).join(" · ")),
    v && v.summary ? el("span", { class: "end" }, sentence(v.summary)) : "");
}

function fightBox(f) {
  const side = (s, label) => el("div", { class: "fight-side" },
    el("b", {}, `${s.player}`), ` ${label}: ${plain(s.character)}`,
    el("div", { class: "fight-sum" }, `die ${s.roll} + power ${s.power}`,
      s.power_cards && s.power_cards.length ? ` + cards ${s.power_cards.filter(Boolean).map((c) => `${c.name} (+${c.power})`).join(", ")}` : "",
      s.helpers && s.helpers.length ? ` + helpers ${s.helpers.map(plain).join(", ")}` : "",
      " = ", el("b", { class: "total" }, String(s.total))));
  return el("div", { class: "fight-box", "data-zone": "fight" },
    el("div", { class: "fight-head" }, f.in_progress ? "The fight" : "The last fight", f.attack_card ? ` · ${f.attack_card.name} (${f.fate} if it wins)` : ""),
    side(f.attacker, "attacks with"), side(f.defender, "defends"),
    el("div", { class: "fight-result" }, sentence(plain(f.result))));
}

function attacksBox(attacks) {
  return el("div", { class: "attacks-box", "data-zone": "attacks" },
    el("div", { class: "fight-head" }, "Attacks this turn"),
    el("ol", {}, ...attacks.map((a) => el("li", {}, `${plain(a.attacker)} → ${plain(a.target ?? "…")}`, a.attack_card ? ` (${a.attack_card.name}: ${a.fate})` : "", ` — ${a.status}`))));
}
