// Card faces and table furniture shared by the game renderers.
//
// A game renderer turns each card object of the view into a *spec* (what is printed where) and calls
// face(spec, ctx): the title on top, a type band coloured by type, the numbers a player reads at a
// glance in fixed corners, the effect in words, the card's state as a player shows it on a table
// (turned, a token on it, cards tucked under it). The same spec feeds the inspect pop-up, which shows
// the whole card with every number named in words. Nothing here knows a rule.
import { el } from "../common.js";

// -- small icons (inline SVG: no font or image to load) ----------------------------------------------
const SVG = "http://www.w3.org/2000/svg";
const ICONS = {
  attack: "M13.6 3.5 20.5 3.5 20.5 10.4 10.3 20.6 8.4 18.7 6.3 20.8 3.2 17.7 5.3 15.6 3.4 13.7Z",
  souls: "M12 2.5c4.6 0 7.8 3.2 7.8 7.4 0 2.7-1.4 4.6-3.4 5.6v3.8H7.6v-3.8c-2-1-3.4-2.9-3.4-5.6 0-4.2 3.2-7.4 7.8-7.4Zm-3 7.2a1.8 1.8 0 1 0 0 3.6 1.8 1.8 0 0 0 0-3.6Zm6 0a1.8 1.8 0 1 0 0 3.6 1.8 1.8 0 0 0 0-3.6Z",
  cost: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm0 3.2a5.8 5.8 0 1 1 0 11.6 5.8 5.8 0 0 1 0-11.6Z",
  durability: "M12 2.5 20 5.5v6c0 5-3.4 8.7-8 10.2-4.6-1.5-8-5.2-8-10.2v-6Z",
  range: "M3 11h12.5l-4-4 1.6-1.6L20 12l-6.9 6.6-1.6-1.6 4-4H3Z",
  power: "M12 2.5l2.8 6.2 6.7.6-5.1 4.5 1.5 6.6L12 17l-5.9 3.4 1.5-6.6-5.1-4.5 6.7-.6Z",
  meat: "M15.5 3a5.5 5.5 0 0 1 1.3 10.8l-3.9 3.9.9.9a2 2 0 1 1-2.8 2.8 2 2 0 1 1-2.8-2.8l.9.9 3.9-3.9A5.5 5.5 0 0 1 15.5 3Z",
  mojo: "M12 2.5c3 4 6 7.3 6 11a6 6 0 0 1-12 0c0-3.7 3-7 6-11Z",
};

/** A small icon of ``kind`` (one of ICONS), or nothing. */
export function icon(kind) {
  const path = ICONS[kind];
  if (!path) return "";
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "icon");
  const p = document.createElementNS(SVG, "path");
  p.setAttribute("d", path);
  svg.append(p);
  return svg;
}

const VOWELS = /[aeiouy]/i;
const ONSETS = new Set("bl br ch cl cr dr fl fr gl gn gr kn ph pl pr qu sc sh sk sl sm sn sp st sw th tr tw wh wr".split(" "));
const SUFFIXES = /(ness|less|ment|tion|sion|able|ible|ship|hood|ings?|ity|ous|ful)$/i;

/** Soft hyphens in a word (before a common ending, else after a vowel that a consonant follows, or
 * between two consonants after a vowel: "Accoun-tant", not "Accou-ntant"). */
function hyphenate(word) {
  const suffix = SUFFIXES.exec(word);
  if (suffix && word.length - suffix[0].length >= 5) return `${word.slice(0, -suffix[0].length)}\u00ad${suffix[0]}`;
  if (word.length < 9) return word;
  let out = "";
  let run = 0;
  for (let i = 0; i < word.length; i++) {
    out += word[i];
    run++;
    if (run >= 5 && word.length - i - 1 >= 3 && VOWELS.test(word[i]) && !VOWELS.test(word[i + 1])) {
      // Two consonants after the vowel: the break goes between them, unless they start syllables
      // together ("Scare-crow", "Sauce-sphere").
      const pair = word.slice(i + 1, i + 3).toLowerCase();
      if (i + 2 < word.length && !VOWELS.test(word[i + 2]) && word.length - i - 2 >= 3 && !ONSETS.has(pair)) { i++; out += word[i]; }
      out += "\u00ad";
      run = 0;
    }
  }
  return out;
}

/** Long words get soft hyphens, so a name such as "Honeysuckle" breaks as "Honey-suckle" on a small
 * card instead of spilling over it. */
export function softHyphens(text) {
  return String(text ?? "").replace(/[A-Za-z]{9,}/g, hyphenate);
}

/** A number in a corner: {v: "6", k: "attack", t: "attack 6"} -> a coloured badge with its icon. */
function badge(corner, where) {
  if (!corner || corner.v === undefined || corner.v === null || corner.v === "") return "";
  return el("span", { class: `badge b-${corner.k || "plain"} ${where}`, title: corner.t || "" },
    corner.k && ICONS[corner.k] ? icon(corner.k) : "", el("b", {}, String(corner.v)));
}

/** Words for a card type as a band: "melee weapon" -> "Melee weapon". */
export function sentence(text) {
  const s = String(text ?? "");
  return s ? s[0].toUpperCase() + s.slice(1) : "";
}

/** Words without the engine's card ids: "Baron Mordo (card 1)" -> "Baron Mordo" (the card is on the
 * table for all to see; an id is only for actions and logs). */
export function plain(text) {
  return String(text ?? "").replace(/\s*\(card \d+\)/g, "").replace(/\(card \d+, /g, "(");
}

/** After drawing: a type word too long for its band (a narrow card with a number in both upper
 * corners) is left to the band's colour and the inspect view instead of being cut to "Mo…". All
 * widths are read first, then the classes set, so the page lays out once. */
export function fitBands(root) {
  const bands = [...root.querySelectorAll(".card .band-text")];
  for (const b of bands) b.classList.remove("no-room");
  const tight = bands.filter((b) => b.scrollWidth > b.clientWidth + 1);
  for (const b of tight) b.classList.add("no-room");
}

/** After drawing: a card's id mark (on a card that offers moves, whose list names it) sits in the middle
 * of its foot. Where the foot's numbers, a token or the card's name (a tile is little more than its
 * name) leave it no room there, it moves to the foot's corner that has no number; where that has no
 * room either, the mark is left out: the moves' list and the inspect view still say it (two cards of
 * one name in one place are the same move). All positions are read before any mark moves, so the page
 * lays out twice. */
export function fitMarks(root) {
  const marks = [...root.querySelectorAll(".card > .card-id")];
  for (const m of marks) m.classList.remove("no-room", "at-left", "at-right");
  const hits = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const near = (m) => [...m.parentElement.querySelectorAll(":scope > .card-foot .badge, :scope > .tokens > *, :scope > .card-title")]
    .map((n) => n.getBoundingClientRect());
  const moved = [];
  const crowded = [];
  for (const m of marks) {
    if (getComputedStyle(m).position !== "absolute") continue; // a strip's mark is in its row's flow
    const r = m.getBoundingClientRect();
    if (!r.width || !near(m).some((b) => hits(r, b))) continue;
    const foot = m.parentElement.querySelector(":scope > .card-foot");
    const free = ["bl", "br"].filter((corner) => !foot || !foot.querySelector(`.badge.${corner}`));
    if (free.length) moved.push([m, free.includes("br") ? "at-right" : "at-left"]);
    else crowded.push(m);
  }
  for (const [m, side] of moved) m.classList.add(side);
  for (const [m] of moved) {
    const r = m.getBoundingClientRect();
    if (near(m).some((b) => hits(r, b))) crowded.push(m);
  }
  for (const m of crowded) m.classList.add("no-room");
}

/** After drawing, before the board is fitted: a row of cards that would scroll sideways on a desktop
 * (``.fits-as-strips``: Mr. Card Game's own cards with every supplement in play) draws its tiles as
 * one-line strips that wrap in place (``as-strips``: the game's CSS) rather than hide its right end.
 * A row that wraps anyway (a phone's) is left as it is. All widths are read before any class is set.
 * Returns the rows drawn as strips. */
export function fitRows(root) {
  const rows = [...root.querySelectorAll(".fits-as-strips")];
  for (const r of rows) r.classList.remove("as-strips");
  const wide = rows.filter((r) => getComputedStyle(r).overflowX !== "visible" && r.scrollWidth > r.clientWidth + 1);
  for (const r of wide) r.classList.add("as-strips");
  return wide;
}

/** How many steps of tightening a game's CSS offers (``#board[data-fit~="1"]`` ...). */
export const FIT_STEPS = 4;

/** After drawing: a desktop table taller than its box tightens one step at a time until nothing in the
 * box is out of sight or the steps run out, and only then scrolls. The steps taken are the board's
 * ``data-fit`` ("1", then "1 2" ...: each step keeps the ones before it); what each gives up is the
 * game's CSS, least first. The same view on the same screen always ends on the same step. A board that
 * grows with the page (a phone's) never overflows its box: no step. */
export function fitBoard(board) {
  delete board.dataset.fit;
  if (!["auto", "scroll"].includes(getComputedStyle(board).overflowY)) return;
  const taken = [];
  while (taken.length < FIT_STEPS && board.scrollHeight > board.clientHeight + 1) {
    taken.push(taken.length + 1);
    board.dataset.fit = taken.join(" ");
  }
}

const specs = new WeakMap();

/** The spec a card element was drawn from (for the inspect pop-up), or undefined. */
export function specOf(node) { return specs.get(node); }

/**
 * A card face. ``spec``:
 *   id           the card id (data-card; clickable through ctx when a legal action names it)
 *   title, type  the name on top and the words of the type band; ``tone`` colours the band
 *   corners      {tl, tr, bl, br}: numbers in fixed corners ({v, k, t})
 *   text         the effect in words
 *   second       a compact second face ({title, type, text, corners}) at the foot (a flip side)
 *   state        classes: "turned" (tapped/used), "dim", "glow", "captive", "controlled"
 *   tokens       words on small tokens laid on the card ("marked", "active")
 *   under        specs of cards tucked under it (attachments, captives), each with ``label``
 *   count        identical cards stacked (×N)
 *   size         "mini" for dense zones, "tile" (a name and its band), "map" (a mini card as tall
 *                as its names, which wrap: Mr. Card Game's map), "strip-row" (one line)
 *   details      [[label, value], ...] for the inspect pop-up
 */
export function face(spec, ctx) {
  const cls = ["card", `tone-${spec.tone || "plain"}`];
  if (spec.size) cls.push(`size-${spec.size}`);
  for (const s of spec.state || []) cls.push(s);
  if (spec.count > 1) cls.push("stacked");
  // A small card with numbers in both upper corners has no room for the type's word: its colour says it.
  if (["mini", "tile", "map"].includes(spec.size) && spec.corners && spec.corners.tl && spec.corners.tr) cls.push("two-corners");
  const node = el("div", { class: cls.join(" "), "data-card": Number.isInteger(spec.id) ? spec.id : undefined, "data-name": spec.title });
  const corners = spec.corners || {};
  // The coloured band on top carries the type and the two upper corners; the title sits under it.
  node.append(
    el("div", { class: "card-band" }, badge(corners.tl, "tl"), el("span", { class: "band-text" }, sentence(spec.type)), badge(corners.tr, "tr")),
    el("div", { class: "card-title" }, softHyphens(spec.title)),
  );
  if (spec.text) node.append(el("div", { class: "card-text" }, spec.text));
  if (spec.second) {
    const s = spec.second;
    // On a map card the other side's type follows its name ("Frog-Leg Fricassee · Food"), a line saved.
    const inline = spec.size === "map" && s.type;
    node.append(el("div", { class: `card-second tone-${s.tone || "plain"}` },
      inline
        ? el("div", { class: "second-head" }, badge((s.corners || {}).tr, "tr"), el("span", { class: "flip" }, "↻ "),
          el("span", { class: "second-title" }, softHyphens(s.title), el("span", { class: "second-type" }, ` · ${sentence(s.type)}`)))
        : el("div", { class: "second-head" }, el("span", { class: "flip" }, "↻"), el("span", { class: "second-title" }, s.title),
          badge((s.corners || {}).tr, "tr")),
      s.type && !inline ? el("div", { class: "second-band" }, sentence(s.type)) : ""));
  }
  const foot = el("div", { class: "card-foot" }, badge(corners.bl, "bl"), el("span", { class: "spacer" }), badge(corners.br, "br"));
  if (foot.querySelector(".badge")) node.append(foot);
  if (spec.tokens && spec.tokens.length) {
    node.append(el("div", { class: "tokens" }, ...spec.tokens.map((t) => el("span", { class: `token ${t.tone || ""}` }, t.text ?? t))));
  }
  if (spec.count > 1) node.append(el("span", { class: "count" }, `×${spec.count}`));
  specs.set(node, spec);
  let out = node;
  if (spec.state && spec.state.includes("turned") && spec.size === "strip-row") {
    node.classList.remove("turned");
    node.classList.add("used");
  } else if (spec.state && spec.state.includes("turned")) {
    // A turned (tapped) card lies sideways: its box takes the card's height as its width.
    out = el("div", { class: `turned-box${spec.size ? ` size-${spec.size}` : ""}` }, node);
  }
  if (spec.under && spec.under.length) {
    out = el("div", { class: "tuck" }, out,
      el("div", { class: "tucked" }, ...spec.under.map((u) => strip(u, ctx))));
  }
  if (ctx && Number.isInteger(spec.id)) ctx.card(node, spec.id);
  return out;
}

/** A card tucked under another (an attachment, a captive): its title strip shows, the rest on inspect. */
export function strip(spec, ctx) {
  const cls = ["card", "strip", `tone-${spec.tone || "plain"}`, ...(spec.state || []).filter((s) => s !== "turned")];
  const corners = spec.corners || {};
  const node = el("div", { class: cls.join(" "), "data-card": Number.isInteger(spec.id) ? spec.id : undefined, "data-name": spec.title },
    spec.label ? el("span", { class: "strip-label" }, spec.label) : "",
    el("span", { class: "card-title" }, spec.title),
    badge(corners.tl, "tl"));
  specs.set(node, spec);
  if (ctx && Number.isInteger(spec.id)) ctx.card(node, spec.id);
  return node;
}

/** A face-down card or pile: a card back, with what can be known (``label``: "deck", ``count``). */
export function back({ label = "", count = null, size = "", place = "", title = "" } = {}) {
  const node = el("div", { class: `card back${size ? ` size-${size}` : ""}`, "data-place": place || undefined, title },
    el("div", { class: "back-art" }),
    el("div", { class: "back-label" }, label, count === null ? "" : el("b", {}, String(count))));
  return node;
}

/** An empty place on the table, labelled so it reads on the felt. */
export function slot(label, { size = "", place = "" } = {}) {
  return el("div", { class: `slot${size ? ` size-${size}` : ""}`, "data-place": place || undefined }, el("span", {}, label));
}

/** A pile seen from above: its top card (face up) with the number of cards under it. */
export function pile(cards, toSpec, ctx, { label, size = "", place = "", empty = "empty" } = {}) {
  const list = Array.isArray(cards) ? cards : [];
  if (!list.length) return el("div", { class: "pile", "data-place": place || undefined }, slot(empty, { size }), el("div", { class: "pile-label" }, label));
  const top = face({ ...toSpec(list[list.length - 1]), size }, ctx);
  return el("div", { class: "pile", "data-place": place || undefined, "data-pile": list.length },
    el("div", { class: "pile-stack" }, top),
    el("div", { class: "pile-label" }, `${label} · ${list.length}`));
}

/** A zone of the table: a small heading in sentence case and its content. */
export function zone(title, children, { key = "", cls = "", place = "" } = {}) {
  return el("section", { class: `zone ${cls}`, "data-zone": key || undefined, "data-place": place || key || undefined },
    title ? el("h3", { class: "zone-title" }, title) : "",
    el("div", { class: "zone-body" }, ...[].concat(children)));
}

/** A row of cards (wraps, or scrolls sideways with ``scroll``). */
export function row(children, { scroll = false, cls = "" } = {}) {
  return el("div", { class: `cards${scroll ? " scroll" : ""} ${cls}` }, ...[].concat(children));
}

/** A player's seat plate: name, role, counters as chips ({k: icon, v, t: words}). */
export function plate({ name, note = "", stats = [], mine = false, deciding = false, seat = null, tone = "", extra = [] }) {
  const node = el("div", { class: `plate${mine ? " mine" : ""}${deciding ? " deciding" : ""}${tone ? ` tone-${tone}` : ""}`, "data-seat-name": seat ?? undefined },
    el("div", { class: "plate-info" },
      el("div", { class: "plate-head" }, el("span", { class: "plate-name" }, name), note ? el("span", { class: "plate-note" }, note) : ""),
      stats.length ? el("div", { class: "plate-stats" }, ...stats.filter(Boolean).map((s) => el("span", { class: `stat s-${s.k || "plain"}`, title: s.t || "" },
        s.k && ICONS[s.k] ? icon(s.k) : "", el("b", {}, String(s.v)), s.label ? el("span", { class: "stat-label" }, ` ${s.label}`) : ""))) : ""),
    ...extra);
  return node;
}

/** Counters in words for a plate: [{v, label}] -> chips. */
export function chip(text, cls = "") {
  return el("span", { class: `chip ${cls}` }, text);
}
