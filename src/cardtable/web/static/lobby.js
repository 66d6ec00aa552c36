// The lobby: the create-table form (made from each game's OPTIONS), and the list of tables.
import { api, el, rememberToken, seatLink } from "./common.js";

let games = [];
let agents = [];
let agentInfo = [];

/** How the seat menu names a bot: the level's (or agent's) label and its words, from /api/games. */
function agentLabel(name) {
  const info = agentInfo.find((a) => a.name === name);
  return info ? `Bot: ${info.label} (${info.about})` : `Bot: ${name}`;
}

function optionInput(opt) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.choices) {
    input = el("select", { id, name: opt.name });
    for (const c of opt.choices) input.append(el("option", { value: String(c), selected: c === opt.default }, String(c)));
  } else if (opt.kind === "bool") {
    input = el("input", { id, name: opt.name, type: "checkbox", checked: !!opt.default });
  } else if (opt.kind === "int") {
    input = el("input", { id, name: opt.name, type: "number", value: String(opt.default), step: "1",
      min: opt.min ?? "", max: opt.max ?? "" });
    input.style.width = "7em";
  } else {
    input = el("input", { id, name: opt.name, value: String(opt.default) });
  }
  input.dataset.kind = opt.kind;
  input.addEventListener("change", refreshSeats);
  return el("div", {}, el("div", { class: "row" }, el("label", { for: id }, opt.name), input),
    el("div", { class: "option-doc" }, `${opt.doc} (default: ${defaultWords(opt)})`));
}

// An option's default as a person reads it: on/off for a switch, the value otherwise.
function defaultWords(opt) {
  if (opt.kind === "bool") return opt.default ? "on" : "off";
  return opt.default === null || opt.default === "" ? "none" : String(opt.default);
}

function currentGame() { return games.find((g) => g.id === document.getElementById("game").value); }

function readOptions() {
  const out = {};
  for (const input of document.querySelectorAll("#options [name]")) {
    const kind = input.dataset.kind;
    if (kind === "bool") out[input.name] = input.checked;
    else if (kind === "int") out[input.name] = Number(input.value);
    else out[input.name] = input.value;
  }
  const game = currentGame();
  // Send only what differs from the defaults: the record keeps the full, validated set anyway.
  for (const opt of game.options) if (out[opt.name] === opt.default) delete out[opt.name];
  return out;
}

function showOptions() {
  const box = document.getElementById("options");
  box.replaceChildren(...currentGame().options.map(optionInput));
  refreshSeats();
}

function seatRow(name, index, previous) {
  const choice = el("select", { name: `seat-${index}`, "aria-label": `who sits at ${name}` });
  const kinds = [["me", "You"], ["human", "Open seat (a friend)"]];
  for (const a of agents) kinds.push([a, agentLabel(a)]);
  kinds.push(["custom", "Bot: other spec…"]);
  for (const [value, label] of kinds) choice.append(el("option", { value }, label));
  choice.value = previous?.value ?? (index === 0 ? "me" : (agents.includes("heuristic") && currentGame().heuristic ? "heuristic" : "random"));
  const custom = el("input", { name: `spec-${index}`, placeholder: "ismcts:ms=1000", value: previous?.custom ?? "" });
  custom.hidden = choice.value !== "custom";
  choice.addEventListener("change", () => { custom.hidden = choice.value !== "custom"; });
  return el("div", { class: "row seat" }, el("label", {}, name), choice, custom);
}

let seatRequest = 0;
async function refreshSeats() {
  const box = document.getElementById("seats");
  const errorBox = document.getElementById("create-error");
  const mine = ++seatRequest;
  const previous = [...box.querySelectorAll(".seat")].map((row) => ({
    value: row.querySelector("select").value, custom: row.querySelector("input").value }));
  try {
    const info = await api("POST", "/api/seat-names", { game: currentGame().id, options: readOptions() });
    if (mine !== seatRequest) return;
    errorBox.textContent = "";
    box.replaceChildren(...info.seat_names.map((n, i) => seatRow(n, i, previous[i])));
  } catch (err) {
    errorBox.textContent = err.message;
  }
}

function readSeats() {
  return [...document.querySelectorAll("#seats .seat")].map((row) => {
    const value = row.querySelector("select").value;
    return value === "custom" ? row.querySelector("input").value.trim() : value;
  });
}

async function create(event) {
  event.preventDefault();
  const errorBox = document.getElementById("create-error");
  errorBox.textContent = "";
  try {
    const out = await api("POST", "/api/tables", { game: currentGame().id, options: readOptions(), seats: readSeats() });
    const id = out.table.id;
    const seats = Object.keys(out.tokens).map(Number).sort((a, b) => a - b);
    for (const s of seats) rememberToken(id, s, out.tokens[s]);
    location.href = seats.length ? seatLink(id, seats[0], out.tokens[seats[0]]) : `/table/${id}`;
  } catch (err) {
    errorBox.textContent = err.message;
  }
}

function seatChip(table, seat) {
  const cls = ["seatchip"];
  let label = seat.name;
  if (seat.kind === "bot") { cls.push("bot"); label += ` · ${seat.spec}`; }
  else if (!seat.taken) { cls.push("free"); label += " · open"; }
  else label += " · person";
  if (seat.kind === "human" && seat.connected) cls.push("on");
  return el("span", { class: cls.join(" ") }, label);
}

async function join(id, seat) {
  try {
    const out = await api("POST", `/api/tables/${id}/join`, { seat });
    rememberToken(id, seat, out.token);
    location.href = seatLink(id, seat, out.token);
  } catch (err) {
    alert(err.message);
  }
}

async function listTables() {
  const body = document.getElementById("table-list");
  try {
    const out = await api("GET", "/api/tables");
    body.replaceChildren(...out.tables.map((t) => {
      const opts = Object.entries(t.options).filter(([k, v]) => k !== "cards" && k !== "card-file")
        .map(([k, v]) => `${k}=${v}`).join(", ");
      const buttons = [el("a", { href: `/table/${t.id}` }, t.is_over ? "see the end" : "watch")];
      for (const s of t.free_seats) buttons.push(" ", el("button", { type: "button", onclick: () => join(t.id, s) }, `sit at ${t.seats[s].name}`));
      return el("tr", { "data-table": t.id },
        el("td", {}, el("b", {}, t.title), el("div", { class: "muted", style: "font-size:12px" }, opts)),
        el("td", {}, ...t.seats.map((s) => seatChip(t, s))),
        el("td", {}, t.is_over ? "over" : String(t.turn)),
        el("td", {}, ...buttons));
    }));
  } catch (err) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: 4, class: "error" }, err.message)));
  }
}

async function main() {
  const info = await api("GET", "/api/games");
  games = info.games;
  agents = info.agents;
  agentInfo = info.agent_info || [];
  const select = document.getElementById("game");
  for (const g of games) select.append(el("option", { value: g.id }, g.title));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some((g) => g.id === wanted)) select.value = wanted;
  select.addEventListener("change", showOptions);
  showOptions();
  document.getElementById("create-form").addEventListener("submit", create);
  document.getElementById("refresh").addEventListener("click", listTables);
  listTables();
  setInterval(listTables, 5000);
}

main();
