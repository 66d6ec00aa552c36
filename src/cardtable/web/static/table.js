// The table page: one WebSocket to the server, which sends this seat's view, its legal actions and
// its events. The page draws the view (a renderer per game, the generic one otherwise) and sends the
// text of the action a person picks, with the last state id it knows. It holds no rule: what can be
// clicked is exactly what the legal actions name (a card by its id, a seat, a lane, a kind of card).
import { api, el, forgetToken, knownTokens, rememberToken, seatLink, words } from "./common.js";
import { PAUSE_MS, autopassOn, holdLeft, setAutopass } from "./autopass.js";
import * as inspect from "./inspect.js";
import { capture, motionWanted, play, setMotion } from "./motion.js";
import * as generic from "./render/generic.js";
import { fitBands, fitBoard, fitMarks, fitRows } from "./render/cards.js";
import { drawWatching, rematchLabel, rematchSeatLink, takeInvitation, tokenRefused } from "./guest.js";
import { drawRules } from "./rules.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const fragment = new URLSearchParams(location.hash.slice(1));
let token = fragment.get("token");
let mySeat = fragment.get("seat") !== null ? Number(fragment.get("seat")) : null;

const model = {
  state: null, // the last state id received
  frame: null,
  log: [],
  lastFrom: 0, // the log's first line of the latest change
  sinceMine: null, // the log's length when this seat last decided (null: not yet)
  placesAtMine: null, // where each card was drawn when this seat last decided
  pending: false,
  thinking: null,
  arrived: null, // performance.now() when the latest frame arrived
};
let socket = null;
let retry = 0;
let renderer = generic;
let rendererGame = null;
let openMenu = null;
let autoTimer = null;
let holdTimer = null;
let inbox = Promise.resolve();
/** The request id of the hello that checks this page's seat token after a refusal (null: none asked). */
let tokenCheck = null;
/** The result has just appeared and is to be scrolled into sight once the page is drawn. */
let resultAppeared = false;

function $(id) { return document.getElementById(id); }

async function loadRenderer(game) {
  if (rendererGame === game) return;
  rendererGame = game;
  try {
    renderer = await import(`./render/${game}.js`);
  } catch {
    renderer = generic;
  }
}

// -- the connection ------------------------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  setConn("connecting…");
  socket.addEventListener("open", () => {
    retry = 0;
    tokenCheck = null;
    // "connected" waits for the server's answer to hello: until then the page may be behind.
    setConn("syncing…");
    send({ type: "hello", state: model.state, events: model.state === null ? null : model.log.length, token: token || null });
  });
  // One message at a time, in order (loading a game's renderer is the only wait).
  socket.addEventListener("message", (event) => {
    const msg = JSON.parse(event.data);
    const arrived = performance.now();
    inbox = inbox.then(() => onMessage(msg, arrived)).catch((err) => console.error(err));
  });
  socket.addEventListener("close", () => {
    setConn("disconnected — reconnecting…", true);
    model.pending = false;
    cancelTimers();
    const wait = Math.min(5000, 300 * 2 ** retry++);
    setTimeout(connect, wait);
  });
}

function setConn(text, down = false) {
  const node = $("conn");
  node.textContent = text;
  node.classList.toggle("down", down);
  document.body.dataset.connection = down ? "down" : text;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function cancelTimers() {
  clearTimeout(autoTimer);
  clearTimeout(holdTimer);
  autoTimer = null;
  holdTimer = null;
}

function autopass() { return model.frame ? autopassOn(model.frame.table, model.frame.seat) : false; }

/** Send this seat's decision: at once, or when the fair pause has passed (see autopass.js). */
function act(text) {
  if (model.pending || !model.frame || !model.frame.legal.length) return;
  model.pending = true;
  closeMenu();
  inspect.hide();
  clearTimeout(autoTimer);
  autoTimer = null;
  // What the table looked like at this decision: the next frames mark what changed since.
  model.sinceMine = model.log.length;
  model.placesAtMine = placesNow();
  const state = model.state;
  const go = () => {
    holdTimer = null;
    if (model.state !== state) return; // the table moved on meanwhile (an undo, a reconnect)
    send({ type: "action", state, action: text });
  };
  const wait = holdLeft(model.arrived, autopass());
  document.body.dataset.mine = "false";
  drawActions(text, wait);
  if (wait > 0) holdTimer = setTimeout(go, wait);
  else go();
}

function undo() {
  if (model.pending) return;
  model.pending = true;
  cancelTimers();
  send({ type: "undo", state: model.state, count: 1 });
  drawActions();
}

async function onMessage(msg, arrived) {
  if (msg.type === "state") {
    setConn("connected");
    if (tokenCheck !== null && (msg.acks || []).includes(tokenCheck)) tokenCheck = null; // the token holds
    if (msg.seat === null && token) {
      // This page holds a seat token, yet the server shows it the table as a spectator: a hello
      // without a token went down this socket from elsewhere (the console). Sit down again.
      if (tokenCheck === null) askWithToken();
      return;
    }
    if (!model.pending && sameFrame(msg)) {
      // A reconnect's answer to hello repeats what the page shows: redrawing would only close an
      // open card menu and swap the nodes under a pointer.
      model.frame.seats = msg.seats;
      drawSeats();
      return;
    }
    document.body.dataset.settled = "false";
    cancelTimers();
    await loadRenderer(msg.view.game);
    const before = model.log.length;
    const first = model.frame === null;
    model.log = model.log.slice(0, msg.events_from).concat(msg.events);
    // The latest change's lines (none on the first drawing: everything is new then).
    model.lastFrom = first ? model.log.length : Math.min(msg.events_from, before);
    if (model.sinceMine !== null && msg.events_from < model.sinceMine) model.sinceMine = msg.events_from;
    model.frame = msg;
    model.state = msg.state;
    model.pending = false;
    model.thinking = null;
    model.arrived = arrived;
    mySeat = msg.seat;
    $("toast").hidden = true;
    draw();
  } else if (msg.type === "error") {
    model.pending = false;
    cancelTimers();
    showToast(PLAIN_ERRORS[msg.code] || msg.message);
    if (msg.code === "bad-token") checkToken(msg);
    if (model.frame) document.body.dataset.mine = String(model.frame.legal.length > 0);
    drawActions();
  } else if (msg.type === "seats") {
    if (model.frame) { model.frame.seats = msg.seats; drawSeats(); }
  } else if (msg.type === "thinking") {
    model.thinking = msg.seat;
    drawSeats();
    drawPrompt();
  } else if (msg.type === "notice") {
    const box = $("notice");
    box.textContent = msg.message;
    box.hidden = false;
  } else if (msg.type === "rematch") {
    rememberToken(msg.table, msg.seat, msg.token);
    location.href = seatLink(msg.table, msg.seat, msg.token);
  }
}

/** What a person reads for the refusals a click on this page can meet (the server's own words name
 * state ids); any other refusal is shown as the server words it. */
const PLAIN_ERRORS = {
  stale: "Not played: the table moved on before your click arrived (a move made meanwhile, perhaps in "
    + "another tab). Here it is as it is now.",
};

/** A seat token refused (``bad-token``). The refusal may answer a message this page never sent (a
 * hello with another token typed into the console goes down the same socket), so the page asks again
 * with its own token, marked with a request id: only the refusal of that one gives the seat up (the
 * seat was left, or the link is wrong), and the page watches on. */
function checkToken(msg) {
  if (token && tokenCheck === null) return askWithToken();
  if (token && msg.id !== tokenCheck) return; // the answer to the check is still to come
  tokenCheck = null;
  tokenRefused();
  token = null;
  mySeat = null;
  send({ type: "hello", state: null, events: null, token: null });
}

function askWithToken() {
  tokenCheck = `token-check-${Date.now()}`;
  send({ type: "hello", state: model.state, events: model.state === null ? null : model.log.length, token, id: tokenCheck });
}

/** True when a state message shows this seat exactly what the page already shows. */
function sameFrame(msg) {
  return model.frame !== null && msg.state === model.state && msg.seat === model.frame.seat
    && msg.events.length === 0 && msg.events_from === model.log.length
    && msg.rematch === model.frame.rematch; // a rematch started: the result's button changes
}

function showToast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
}

// -- what a click on the table can do ----------------------------------------------------------------
/** The places on the table each legal action names: ``card:17`` (its card, from the server),
 * ``seat:P2``, ``lane:1``, ``kind:mus1`` (a kind of card, named by ``stat=`` or ``from=``). */
function targetsOf(item) {
  const out = [];
  if (item.card !== null && item.card !== undefined) out.push(`card:${item.card}`);
  for (const word of item.action.split(" ").slice(1)) {
    const [name, value] = word.split("=");
    if (value === undefined) continue;
    if (name === "seat" || name === "to") { if (/^P\d+$/.test(value)) out.push(`seat:${value}`); }
    else if (name === "lane") out.push(`lane:${value}`);
    else if (name === "stat" || name === "from") out.push(`kind:${value}`);
  }
  return out;
}

function byTarget(legal) {
  const map = new Map();
  for (const item of legal) {
    for (const key of targetsOf(item)) {
      if (!map.has(key)) map.set(key, []);
      map.get(key).push(item);
    }
  }
  return map;
}

/** "play Grimoire (card 57)" -> ["play Grimoire", " ", <small id mark #57>]: ids are a small mark. */
function labelNodes(label) {
  const parts = [];
  let last = 0;
  // "(card 10)" and "(card 10, attack 5)": the id becomes the mark, the rest stays in words.
  for (const m of label.matchAll(/\s*\(card (\d+)(?:, ([^)]*))?\)/g)) {
    parts.push(label.slice(last, m.index), " ", el("span", { class: "idmark", title: `card ${m[1]}` }, `#${m[1]}`), m[2] ? ` (${m[2]})` : "");
    last = m.index + m[0].length;
  }
  parts.push(label.slice(last));
  return parts;
}

function closeMenu() {
  if (openMenu) { openMenu.remove(); openMenu = null; }
}

/** Make ``node`` offer ``items`` (legal actions): one runs on a click, several open a small menu. */
function offer(node, items, mark = null) {
  if (!items || !items.length) return;
  node.classList.add("playable");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", items.map((i) => i.label).join("; "));
  if (mark !== null && !node.querySelector(":scope > .card-id")) node.append(el("span", { class: "card-id", "aria-hidden": "true" }, `#${mark}`));
  const run = (event) => {
    event.stopPropagation();
    if (inspect.press.swallowClick) { inspect.press.swallowClick = false; return; }
    if (model.pending) return;
    if (items.length === 1) return act(items[0].action);
    closeMenu();
    openMenu = el("div", { class: "card-menu", role: "menu" },
      ...items.map((i) => el("button", { type: "button", role: "menuitem", "data-action": i.action, onclick: (e) => { e.stopPropagation(); act(i.action); } },
        ...labelNodes(i.label))));
    document.body.append(openMenu);
    const r = node.getBoundingClientRect();
    const w = openMenu.offsetWidth;
    openMenu.style.left = `${Math.max(6, Math.min(window.innerWidth - w - 6, r.left + window.scrollX))}px`;
    openMenu.style.top = `${r.bottom + window.scrollY + 4}px`;
    const first = openMenu.querySelector("button");
    if (first) first.focus({ preventScroll: true });
  };
  node.addEventListener("click", run);
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); run(e); }
    else if (e.key === "i") inspect.showFocused();
  });
}

function context() {
  const frame = model.frame;
  const targets = byTarget(frame.legal);
  const placed = new Set();
  const use = (key, node, mark = null) => {
    const items = targets.get(key);
    if (!items || !node) return false;
    placed.add(key);
    offer(node, items, mark);
    return true;
  };
  return {
    view: frame.view,
    seat: frame.seat,
    legal: frame.legal,
    placed,
    asides: [],
    docked: [],
    /** A card the legal actions may name by its id. */
    card(node, id) { use(`card:${id}`, node, id); },
    /** A seat's place on the table (``P2``): actions naming that seat. */
    seat(node, name) { use(`seat:${name}`, node); },
    /** A lane of this seat (``lane=1``). */
    lane(node, n) { use(`lane:${n}`, node); },
    /** A card of a kind (Mr. Card Game's stat cards, named by kind). */
    kind(node, kind) { use(`kind:${kind}`, node); },
    /** Information for the decision (a fight's totals, a combat's targets), shown by the prompt. */
    aside(node) { if (node) this.asides.push(node); },
    /** This seat's hand: docked under the table, always in reach. */
    dock(node) { if (node) this.docked.push(node); },
  };
}

/** Where each card is drawn now: its id -> the places it is drawn in (the chain of places around
 * it; a card may show twice, say in the hand and as the card being paid for). */
function placesNow() {
  const out = new Map();
  for (const node of $("table-area").querySelectorAll("[data-card]")) {
    if (node.dataset.card === "") continue;
    if (!out.has(node.dataset.card)) out.set(node.dataset.card, new Set());
    out.get(node.dataset.card).add(placeOf(node));
  }
  return out;
}

function placeOf(node) {
  const parts = [];
  for (let n = node.parentElement; n && n.id !== "table-area"; n = n.parentElement) {
    if (n.dataset && n.dataset.place) parts.push(n.dataset.place);
  }
  return parts.join("/");
}

/** Mark what changed since this seat last decided, and the cards the latest move named. */
function markChanges(lastEvents) {
  const board = $("table-area");
  const before = model.placesAtMine;
  if (before) {
    for (const node of board.querySelectorAll("[data-card]")) {
      const id = node.dataset.card;
      if (id === "") continue;
      if (!before.has(id) || !before.get(id).has(placeOf(node))) node.classList.add("changed");
    }
  }
  const named = new Set();
  for (const line of lastEvents) for (const m of line.matchAll(/\(card (\d+)[,)]/g)) named.add(m[1]);
  for (const id of named) {
    for (const node of board.querySelectorAll(`[data-card="${id}"]`)) node.classList.add("last-move");
  }
}

// -- drawing ---------------------------------------------------------------------------------------------
/** Fit the drawn table to its screen, after every draw and every resize, in this order: rows of cards
 * too wide become strips (their height counts), then the board tightens, then the type words and the
 * id marks find their room on the cards as they now lie. Strips cost height: where the board still runs
 * past its box with every step taken, the rows go back to one line of tiles that scrolls sideways (as
 * the other players' rows do at the last step), so that a desktop table stays on one screen. */
function fitTable() {
  const area = $("table-area");
  const board = $("board");
  const strips = fitRows(area);
  fitBoard(board);
  if (strips.length && board.scrollHeight > board.clientHeight + 1) {
    for (const row of strips) row.classList.remove("as-strips");
    fitBoard(board);
  }
  fitBands(area);
  fitMarks(area);
}
function draw() {
  const frame = model.frame;
  const view = frame.view;
  const title = renderer.title || words(view.game);
  document.title = `cardtable — ${title}`;
  $("title").textContent = title;
  $("who").textContent = frame.seat === null ? "watching" : `you are ${generic.seatName(view, frame.seat)}`;
  document.body.dataset.state = String(frame.state);
  document.body.dataset.over = String(view.is_over);
  document.body.dataset.game = view.game;
  closeMenu();
  inspect.hide();
  const area = $("table-area");
  const motion = motionWanted();
  const before = motion ? capture(area) : null;
  const ctx = context();
  let node;
  try {
    node = renderer.render(view, ctx);
  } catch (err) {
    console.error(err);
    ctx.asides.length = 0;
    ctx.docked.length = 0;
    node = generic.render(view, ctx);
  }
  // Keep the table's scroll position across the redraw (the board scrolls inside its box).
  const board = $("board");
  const scrolled = [board.scrollTop, board.scrollLeft];
  board.replaceChildren(node);
  [board.scrollTop, board.scrollLeft] = scrolled;
  $("dock").replaceChildren(...ctx.docked);
  $("dock").hidden = !ctx.docked.length;
  $("aside").replaceChildren(...ctx.asides);
  fitTable();
  markChanges(model.log.slice(model.lastFrom));
  model.unplaced = frame.legal.filter((item) => item.card !== null && item.card !== undefined && !ctx.placed.has(`card:${item.card}`));
  model.onTable = frame.legal.filter((item) => item.card !== null && item.card !== undefined && ctx.placed.has(`card:${item.card}`));
  drawPrompt();
  drawActions();
  drawSeats();
  drawResult();
  drawLog();
  drawWatching(frame, tableId);
  document.body.dataset.mine = String(frame.legal.length > 0);
  startAutopass();
  const settle = () => {
    if (model.frame !== frame) return;
    if (resultAppeared) {
      resultAppeared = false;
      bringIntoView($("result"));
    }
    document.body.dataset.settled = "true";
  };
  if (motion && before) play(area, before).then(settle);
  else settle();
}

function drawPrompt() {
  if (!model.frame) return;
  const view = model.frame.view;
  const node = $("prompt");
  let text = view.prompt || "";
  if (!text) {
    text = view.is_over ? "The game is over." : `${generic.seatName(view, view.current_player)} to decide (turn ${view.turn}).`;
  }
  // A card the prompt names by id ("Magic Amulet (card 4)") gets the small id mark, as in the log.
  node.replaceChildren(...labelNodes(text));
  const mine = model.frame.legal.length > 0;
  node.classList.toggle("mine", mine);
  $("turn-panel").classList.toggle("mine", mine);
  if (model.thinking !== null && !view.is_over) {
    node.append(el("div", { class: "muted thinking" }, generic.seatName(view, model.thinking)));
  }
}

/** The decision's buttons: every action that names no card, a list of the card moves (the cards on
 * the table are highlighted and clickable), undo, and the forced-move countdown. ``sent``: the action
 * just chosen (``wait`` ms before it leaves: the fair pause). */
function drawActions(sent = null, wait = 0) {
  const box = $("actions");
  if (!model.frame) return;
  const frame = model.frame;
  const disabled = model.pending;
  const cardless = frame.legal.filter((item) => item.card === null || item.card === undefined);
  const fallback = model.unplaced || [];
  const onTable = model.onTable || [];
  const nodes = [];
  const button = (item, cls = "act") => el("button", {
    type: "button", class: cls, "data-action": item.action, disabled, title: item.action,
    onclick: () => act(item.action),
  }, ...labelNodes(item.label));
  const groups = new Map();
  for (const item of [...cardless, ...fallback]) {
    const kind = item.action.split(" ")[0];
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(item);
  }
  for (const [kind, items] of groups) {
    if (groups.size > 1 && items.length > 1) nodes.push(el("div", { class: "group" }, sentenceOf(words(kind))));
    for (const item of items) nodes.push(button(item));
  }
  if (onTable.length) {
    nodes.push(el("div", { class: "on-table-hint" },
      onTable.length === 1 ? "Click the highlighted card, or:" : `Click a highlighted card (${onTable.length} moves), or pick one here:`));
    nodes.push(el("details", { class: "card-moves" }, el("summary", {}, "the moves with cards, as a list"),
      el("div", { class: "list" }, ...onTable.map((item) => button(item, "act-list")))));
  }
  if (sent !== null) {
    nodes.unshift(el("div", { class: "sending", "data-sending": sent }, wait > 0 ? `${sent.split(" ")[0]}: sent in a moment…` : "sent…"));
  }
  if (frame.undoable > 0) {
    nodes.push(el("button", { type: "button", id: "undo", class: "ghost", disabled, onclick: undo }, "↶ undo my last decision"));
  }
  if (frame.seat !== null && !frame.view.is_over) {
    const on = autopass();
    nodes.push(el("label", { class: "autopass-toggle" },
      el("input", { type: "checkbox", id: "autopass", checked: on, onchange: (e) => toggleAutopass(e.target.checked) }),
      " take forced moves by themselves"));
  }
  box.replaceChildren(...nodes);
}

function sentenceOf(text) { return text ? text[0].toUpperCase() + text.slice(1) : ""; }

/** A decision with exactly one legal action: taken after the pause, a countdown on its button. */
function startAutopass() {
  clearTimeout(autoTimer);
  autoTimer = null;
  document.body.dataset.autopass = "off";
  const frame = model.frame;
  if (!frame || frame.view.is_over || frame.legal.length !== 1 || model.pending || !autopass()) return;
  const item = frame.legal[0];
  const wait = holdLeft(model.arrived, true);
  document.body.dataset.autopass = "counting";
  for (const node of document.querySelectorAll(`[data-action="${CSS.escape(item.action)}"]`)) {
    node.classList.add("counting");
    node.style.setProperty("--countdown", `${wait}ms`);
    node.append(el("span", { class: "countdown", "aria-hidden": "true" }));
  }
  for (const node of $("table-area").querySelectorAll(".playable")) node.classList.add("counting");
  $("prompt").append(el("div", { class: "forced" }, "Only one choice: taken in a moment (untick “take forced moves by themselves” to decide yourself)."));
  autoTimer = setTimeout(() => {
    autoTimer = null;
    if (model.frame === frame && !model.pending && autopass()) {
      document.body.dataset.autopass = "taken";
      act(item.action);
    }
  }, wait);
}

function toggleAutopass(on) {
  if (!model.frame || model.frame.seat === null) return;
  setAutopass(model.frame.table, model.frame.seat, on);
  const box = $("set-autopass");
  if (box) box.checked = on;
  if (!model.pending) { drawPrompt(); drawActions(); startAutopass(); }
  if (!on) document.body.dataset.autopass = "off";
}

function drawSeats() {
  if (!model.frame) return;
  const frame = model.frame;
  const view = frame.view;
  $("seats").replaceChildren(...frame.seats.map((s) => {
    const cls = ["seatchip"];
    let label = s.name;
    if (s.kind === "bot") { cls.push("bot"); label += ` · bot ${s.spec}`; }
    else if (!s.taken) { cls.push("free"); label += " · open seat"; }
    else label += s.connected ? " · here" : " · away";
    if (s.seat === frame.seat) label += " (you)";
    if (s.kind === "human" && s.connected) cls.push("on");
    if (view.current_player === s.seat && !view.is_over) cls.push("deciding");
    const thinking = model.thinking === s.seat || s.thinking;
    return el("span", { class: cls.join(" ") + (thinking ? " thinking" : ""), "data-seat": s.seat }, label);
  }));
  const links = [];
  let open = false;
  for (const s of frame.seats) {
    if (s.kind === "human" && !s.taken && !view.is_over) {
      open = true;
      const url = `${location.origin}/table/${frame.table}?join=${s.seat}`;
      links.push(el("label", { class: "link-row" }, `Invite someone to ${s.name}: `, el("input", { readonly: true, value: url, "data-invite": s.seat, onclick: (e) => e.target.select() })));
    }
  }
  if (frame.seat !== null && token) {
    links.push(el("label", { class: "link-row" }, "Your seat link (keep it secret): ",
      el("input", { readonly: true, value: location.origin + seatLink(frame.table, frame.seat, token), onclick: (e) => e.target.select() })));
    if (!view.is_over) links.push(el("button", { type: "button", id: "leave", class: "ghost", onclick: leave }, "Leave this seat"));
  }
  const others = Object.entries(knownTokens(frame.table)).filter(([s]) => Number(s) !== frame.seat);
  for (const [s, t] of others) {
    links.push(el("div", { class: "link-row" }, el("a", { href: seatLink(frame.table, Number(s), t), onclick: () => setTimeout(() => location.reload(), 0) }, `play as ${generic.seatName(view, Number(s))}`)));
  }
  $("links").replaceChildren(...links);
  if (open && !$("seats-panel").dataset.touched) $("seats-panel").open = true;
}

async function leave() {
  try {
    await api("POST", `/api/tables/${tableId}/leave`, { token });
    forgetToken(tableId, mySeat);
    location.href = `/table/${tableId}`;
  } catch (err) {
    showToast(err.message);
  }
}

const REASONS = {
  "deck-exhausted": "the deck ran out",
  "turn-limit": "the turn limit was reached",
};

function drawResult() {
  const box = $("result");
  const frame = model.frame;
  if (!frame.result) { box.hidden = true; document.body.classList.remove("over"); return; }
  const appearing = box.hidden;
  const r = frame.result;
  const view = frame.view;
  const winners = r.winners.map((s) => generic.seatName(view, s));
  const headline = r.draw ? "A draw" : winners.length ? `${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}` : "Nobody wins";
  // The game's last prompt, less what the headline above it already says ("...: Evil wins").
  let prompt = String(view.prompt || "").replace(/^Game over:\s*/i, "");
  const tail = `: ${headline}`.toLowerCase();
  if (prompt.toLowerCase().replace(/[.!]$/, "").endsWith(tail)) prompt = prompt.replace(/[.!]$/, "").slice(0, -tail.length);
  const reason = prompt || REASONS[r.reason] || words(r.reason);
  // Rank 1 first; seats that share a rank keep seat order.
  const order = r.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  const rows = order.map(({ rank, seat }) => el("tr", { class: seat === frame.seat ? "mine" : "", "data-rank": rank },
    el("td", { class: "rank" }, ordinal(rank)), el("td", {}, generic.seatName(view, seat), seat === frame.seat ? " (you)" : ""),
    el("td", { class: "n" }, String(r.scores[seat]))));
  const buttons = [];
  const back = rematchSeatLink(frame);
  if (back) {
    buttons.push(el("a", { class: "button primary", id: "rematch", href: back }, "Back to my seat in the rematch"));
  } else if (frame.seat !== null) {
    buttons.push(el("button", { type: "button", class: "primary", id: "rematch", onclick: () => send({ type: "rematch", state: model.state }) },
      rematchLabel(frame)));
  }
  // A watcher's ways to the rematch (a seat, or watching it) are in the banner that says why they watch.
  buttons.push(el("a", { class: "button", href: `/api/tables/${frame.table}/record`, download: "", id: "record" }, "Download the record"));
  buttons.push(el("a", { class: "button ghost", href: "/" }, "Back to the lobby"));
  box.replaceChildren(
    el("h2", {}, "Game over"),
    el("div", { class: "headline" }, headline),
    el("div", { class: "reason" }, sentenceOf(reason), r.truncated ? " (stopped by a limit)" : "", ` · ${r.turns} turns`),
    el("table", { class: "ranks" }, el("thead", {}, el("tr", {}, el("th", {}, "rank"), el("th", {}, "player"), el("th", { class: "n" }, "score"))),
      el("tbody", {}, ...rows)),
    // Nobody won, yet the seats are ranked (the game's standings: in Mr. Card Game a later elimination
    // ranks higher): say what the ranks mean, so that "1st" does not read as a win.
    !winners.length && !r.draw ? el("p", { class: "ranks-note" }, "Nobody won: the ranks say how far each player got.") : "",
    el("div", { class: "actions" }, ...buttons),
  );
  box.hidden = false;
  document.body.classList.add("over");
  // Scrolled to once the whole page is drawn and its moves played (draw's settle): the log and the
  // animations drawn after this may still move the result.
  if (appearing) resultAppeared = true;
}

/** The result has just appeared: scroll it into sight if it is out of it. On a phone the page is
 * often scrolled down to the hand when the last move comes, and the result (with the rematch and the
 * lobby) sits at the top, under the decision panel that sticks to the top of the screen. */
function bringIntoView(box) {
  const panel = $("turn-panel");
  const covered = getComputedStyle(panel).position === "sticky" ? panel.getBoundingClientRect().height : 0;
  const r = box.getBoundingClientRect();
  if (r.top >= covered && r.bottom <= window.innerHeight) return;
  box.style.scrollMarginTop = `${Math.ceil(covered) + 6}px`;
  box.scrollIntoView({ block: "start" });
}

function ordinal(n) {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] || s[v] || s[0]}`;
}

function drawLog() {
  const list = $("log");
  const mineFrom = model.sinceMine;
  list.replaceChildren(...model.log.map((text, i) => {
    const cls = [];
    if (i >= model.lastFrom && model.lastFrom > 0) cls.push("last");
    else if (mineFrom !== null && i >= mineFrom) cls.push("since");
    return el("li", { class: cls.join(" ") }, el("span", { class: "n" }, String(i + 1)), el("span", { class: "t" }, ...labelNodes(text)));
  }));
  list.scrollTop = list.scrollHeight;
}

// -- the header's panels -----------------------------------------------------------------------------------
function setupPanels() {
  const rules = $("rules-panel");
  const rulesButton = $("rules-button");
  const closeRules = () => { rules.hidden = true; rulesButton.setAttribute("aria-expanded", "false"); document.body.classList.remove("rules-open"); };
  rulesButton.addEventListener("click", () => {
    if (!rules.hidden) return closeRules();
    rules.hidden = false;
    rulesButton.setAttribute("aria-expanded", "true");
    document.body.classList.add("rules-open");
    const game = model.frame ? model.frame.view.game : null;
    if (game && rules.dataset.game !== game) {
      rules.dataset.game = game;
      drawRules(rules, game, { onClose: closeRules });
    }
  });
  const settings = $("settings");
  const settingsButton = $("settings-button");
  settingsButton.addEventListener("click", (e) => {
    e.stopPropagation();
    settings.hidden = !settings.hidden;
    settingsButton.setAttribute("aria-expanded", String(!settings.hidden));
    $("set-motion").checked = motionWanted();
    const seat = model.frame ? model.frame.seat : null;
    const auto = $("set-autopass");
    auto.disabled = seat === null;
    auto.checked = autopass();
  });
  settings.addEventListener("click", (e) => e.stopPropagation());
  $("set-motion").addEventListener("change", (e) => setMotion(e.target.checked));
  $("set-autopass").addEventListener("change", (e) => toggleAutopass(e.target.checked));
  document.addEventListener("click", () => { settings.hidden = true; settingsButton.setAttribute("aria-expanded", "false"); });
  $("seats-panel").addEventListener("toggle", () => { $("seats-panel").dataset.touched = "yes"; });
}

document.addEventListener("click", closeMenu);
document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeMenu(); });

async function start() {
  document.body.dataset.settled = "false";
  document.body.dataset.mine = "false";
  inspect.setup([$("table-area"), $("aside")]);
  setupPanels();
  const join = new URLSearchParams(location.search).get("join");
  if (join !== null && !token) {
    const out = await takeInvitation(tableId, Number(join));
    if (out) {
      token = out.token;
      mySeat = out.seat;
      history.replaceState(null, "", seatLink(tableId, out.seat, out.token));
    } else {
      history.replaceState(null, "", `/table/${tableId}`); // the page says why it watches (guest.js)
    }
  } else if (token && mySeat !== null) {
    rememberToken(tableId, mySeat, token);
  }
  connect();
}

export { PAUSE_MS };
start();

// A window turned or resized changes how tight the table must be, which type words fit their bands and
// where the id marks have room.
let refit = 0;
window.addEventListener("resize", () => {
  clearTimeout(refit);
  refit = setTimeout(fitTable, 100);
});
