// The table page: one WebSocket to the server, which sends this seat's view, its legal actions and
// its events. The page draws the view (a renderer per game, the generic one otherwise) and sends the
// text of the action a person picks, with the last state id it knows. It holds no rule: what can be
// clicked is exactly what the legal actions name.
import { api, el, forgetToken, knownTokens, rememberToken, seatLink, words } from "./common.js";
import * as generic from "./render/generic.js";
import { drawWatching, rematchLabel, rematchSeatLink, takeInvitation, tokenRefused } from "./guest.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const fragment = new URLSearchParams(location.hash.slice(1));
let token = fragment.get("token");
let mySeat = fragment.get("seat") !== null ? Number(fragment.get("seat")) : null;

const model = {
  state: null, // the last state id received
  frame: null,
  log: [],
  newFrom: 0,
  pending: false,
  thinking: null,
};
let socket = null;
let retry = 0;
let renderer = generic;
let rendererGame = null;
let openMenu = null;

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

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  setConn("connecting…");
  socket.addEventListener("open", () => {
    retry = 0;
    // "connected" waits for the server's answer to hello: until then the page may be behind.
    setConn("syncing…");
    send({ type: "hello", state: model.state, events: model.state === null ? null : model.log.length, token: token || null });
  });
  socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    setConn("disconnected — reconnecting…", true);
    model.pending = false;
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

function act(text) {
  if (model.pending || !model.frame) return;
  model.pending = true;
  closeMenu();
  send({ type: "action", state: model.state, action: text });
  drawActions();
}

function undo() {
  if (model.pending) return;
  model.pending = true;
  send({ type: "undo", state: model.state, count: 1 });
}

async function onMessage(msg) {
  if (msg.type === "state") {
    setConn("connected");
    if (!model.pending && sameFrame(msg)) {
      // A reconnect's answer to hello repeats what the page shows: redrawing would only close an
      // open card menu and swap the nodes under a pointer.
      model.frame.seats = msg.seats;
      drawSeats();
      return;
    }
    await loadRenderer(msg.view.game);
    const before = model.log.length;
    model.log = model.log.slice(0, msg.events_from).concat(msg.events);
    model.newFrom = msg.events_from < before ? msg.events_from : before;
    model.frame = msg;
    model.state = msg.state;
    model.pending = false;
    model.thinking = null;
    mySeat = msg.seat;
    $("toast").hidden = true;
    draw();
  } else if (msg.type === "error") {
    model.pending = false;
    showToast(msg.message);
    if (msg.code === "bad-token") { tokenRefused(); token = null; mySeat = null; send({ type: "hello", state: null, events: null, token: null }); }
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

// -- drawing -----------------------------------------------------------------------------------------
function cardActions() {
  const byCard = new Map();
  for (const item of model.frame.legal) {
    if (item.card === null || item.card === undefined) continue;
    if (!byCard.has(item.card)) byCard.set(item.card, []);
    byCard.get(item.card).push(item);
  }
  return byCard;
}

function closeMenu() {
  if (openMenu) { openMenu.remove(); openMenu = null; }
}

/** Make ``node`` offer ``items`` (legal actions): one runs on a click, several open a menu. */
function offer(node, items) {
  if (!items || !items.length || model.pending) return;
  node.classList.add("playable");
  node.title = items.map((i) => i.label).join("\n");
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    if (items.length === 1) return act(items[0].action);
    closeMenu();
    openMenu = el("div", { class: "card-menu", role: "menu" },
      ...items.map((i) => el("button", { type: "button", "data-action": i.action, onclick: (e) => { e.stopPropagation(); act(i.action); } }, i.label)));
    node.append(openMenu);
  });
}

function context() {
  const byCard = cardActions();
  return {
    view: model.frame.view,
    seat: model.frame.seat,
    act,
    legal: model.frame.legal,
    /** Make a card clickable when a legal action names it by id (``card=N``). */
    decorate(node, id) {
      offer(node, byCard.get(id));
    },
    /** For cards a game's actions name otherwise than by id (Mr. Card Game's stat cards, by kind). */
    offer,
  };
}

function draw() {
  const frame = model.frame;
  const view = frame.view;
  document.title = `cardtable — ${view.game}`;
  $("title").textContent = `${words(view.game)} · table ${frame.table}`;
  $("who").textContent = frame.seat === null ? "watching" : `you are ${generic.seatName(view, frame.seat)}`;
  document.body.dataset.state = String(frame.state);
  document.body.dataset.over = String(view.is_over);
  const ctx = context();
  let board;
  try {
    board = renderer.render(view, ctx);
  } catch (err) {
    console.error(err);
    board = generic.render(view, ctx);
  }
  $("board").replaceChildren(board);
  drawPrompt();
  drawActions();
  drawSeats();
  drawResult();
  drawLog();
  drawWatching(frame, tableId);
}

function drawPrompt() {
  if (!model.frame) return;
  const view = model.frame.view;
  const node = $("prompt");
  let text = view.prompt || "";
  if (!text) {
    text = view.is_over ? "The game is over." : `${generic.seatName(view, view.current_player)} to decide (turn ${view.turn}).`;
  }
  node.textContent = text;
  node.classList.toggle("mine", model.frame.legal.length > 0);
  if (model.thinking !== null && !view.is_over) {
    node.append(el("div", { class: "muted thinking" }, generic.seatName(view, model.thinking)));
  }
}

function drawActions() {
  const box = $("actions");
  if (!model.frame) return;
  const frame = model.frame;
  const groups = new Map();
  for (const item of frame.legal) {
    const kind = item.action.split(" ")[0];
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(item);
  }
  const nodes = [];
  for (const [kind, items] of groups) {
    if (groups.size > 1 && items.length > 1) nodes.push(el("div", { class: "group" }, words(kind)));
    for (const item of items) {
      nodes.push(el("button", { type: "button", class: "act", "data-action": item.action, disabled: model.pending, title: item.action, onclick: () => act(item.action) }, item.label));
    }
  }
  if (frame.undoable > 0) {
    nodes.push(el("button", { type: "button", id: "undo", disabled: model.pending, onclick: undo }, `↶ undo my last decision`));
  }
  box.replaceChildren(...nodes);
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
  for (const s of frame.seats) {
    if (s.kind === "human" && !s.taken && !view.is_over) {
      const url = `${location.origin}/table/${frame.table}?join=${s.seat}`;
      links.push(el("div", { class: "kv" }, `Invite to ${s.name}: `, el("input", { readonly: true, value: url, "data-invite": s.seat, onclick: (e) => e.target.select() })));
    }
  }
  if (frame.seat !== null && token) {
    links.push(el("div", { class: "kv" }, "Your seat link (keep it secret): ",
      el("input", { readonly: true, value: location.origin + seatLink(frame.table, frame.seat, token), onclick: (e) => e.target.select() })));
    if (!view.is_over) links.push(el("button", { type: "button", id: "leave", onclick: leave }, "Leave this seat"));
  }
  const others = Object.entries(knownTokens(frame.table)).filter(([s]) => Number(s) !== frame.seat);
  for (const [s, t] of others) {
    links.push(el("div", { class: "kv" }, el("a", { href: seatLink(frame.table, Number(s), t), onclick: () => setTimeout(() => location.reload(), 0) }, `play as ${generic.seatName(view, Number(s))}`)));
  }
  $("links").replaceChildren(...links);
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

function drawResult() {
  const box = $("result");
  const frame = model.frame;
  if (!frame.result) { box.hidden = true; return; }
  const r = frame.result;
  const view = frame.view;
  const winners = r.winners.map((s) => generic.seatName(view, s)).join(", ") || "nobody";
  const rows = r.ranks.map((rank, s) => el("tr", {}, el("td", {}, rank), el("td", {}, generic.seatName(view, s)), el("td", {}, r.scores[s])));
  const buttons = [el("a", { href: `/api/tables/${frame.table}/record`, download: "", id: "record" }, "Download the record")];
  const back = rematchSeatLink(frame);
  if (back) {
    buttons.push(" ", el("a", { class: "button primary", id: "rematch", href: back }, "Back to my seat in the rematch"));
  } else if (frame.seat !== null) {
    buttons.push(" ", el("button", { type: "button", class: "primary", id: "rematch", onclick: () => send({ type: "rematch", state: model.state }) },
      rematchLabel(frame)));
  } else if (frame.rematch) {
    buttons.push(" ", el("a", { href: `/table/${frame.rematch}` }, "watch the rematch"));
  }
  box.replaceChildren(
    el("h2", {}, "Game over"),
    el("div", {}, `Winner: ${winners}`, r.draw ? " (a draw)" : "", ` — ${words(r.reason)}${r.truncated ? " (stopped by a limit)" : ""}, ${r.turns} turns`),
    el("table", {}, el("tr", {}, el("th", {}, "rank"), el("th", {}, "seat"), el("th", {}, "score")), ...rows),
    el("div", { class: "actions" }, ...buttons),
  );
  box.hidden = false;
}

function drawLog() {
  const list = $("log");
  list.replaceChildren(...model.log.map((text, i) => el("li", { class: i >= model.newFrom && model.newFrom > 0 ? "new" : "" }, text)));
  list.scrollTop = list.scrollHeight;
}

document.addEventListener("click", closeMenu);

async function start() {
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

start();
