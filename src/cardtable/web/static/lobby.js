// The lobby: your tables (those this browser holds a seat token for) first, the create-table form
// (made from each game's OPTIONS: grouped, labelled in the rulebook's words, advanced ones folded),
// and the other tables. It holds no rule: the server checks every option and says which field is wrong.
import { api, el, rememberToken, seatLink } from "./common.js";

let games = [];
let agents = [];
let agentInfo = [];

/** How the seat menu names a bot: the level's (or agent's) label, from /api/games. Its words go
 * under the menu (a closed menu would cut them). */
function agentLabel(name) {
  const info = agentInfo.find((a) => a.name === name);
  return info ? `Bot: ${info.label}` : `Bot: ${name}`;
}

/** What the chosen bot does, in words ("" for a person or a spec typed by hand). */
function agentAbout(name) {
  const info = agentInfo.find((a) => a.name === name);
  return info ? info.about : "";
}

const $ = (id) => document.getElementById(id);

// -- the create form ----------------------------------------------------------------------------------

function currentGame() { return games.find((g) => g.id === $("game").value); }

/** A value of an option as a person reads it: the choice's words, on/off, the number, "none". */
function valueWords(opt, value) {
  if (opt.choices) {
    const i = opt.choices.findIndex((c) => c === value);
    if (i >= 0 && opt.choice_labels) return opt.choice_labels[i];
  }
  if (opt.kind === "bool") return value ? "on" : "off";
  return value === null || value === "" ? "none" : String(value);
}

/** A choice's words cut to their head for a table row ("Care Bear Variant: removing…" → "Care Bear
 * Variant"); the whole text is the chip's tooltip. */
function shortWords(text) {
  return text.split(": ")[0].replace(/\s*\([^)]*\)$/, "");
}

/** Whole numbers with few values get a list; others a number box with the bounds. */
const SHORT_RANGE = 12;

function optionControl(opt) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.choices) {
    input = el("select", { id, name: opt.name });
    opt.choices.forEach((c, i) => input.append(el("option", { value: String(c), selected: c === opt.default }, opt.choice_labels ? opt.choice_labels[i] : String(c))));
  } else if (opt.kind === "bool") {
    input = el("input", { id, name: opt.name, type: "checkbox", checked: !!opt.default });
  } else if (opt.kind === "int" && opt.max - opt.min <= SHORT_RANGE) {
    input = el("select", { id, name: opt.name });
    for (let n = opt.min; n <= opt.max; n++) input.append(el("option", { value: String(n), selected: n === opt.default }, String(n)));
  } else if (opt.kind === "int") {
    input = el("input", { id, name: opt.name, type: "number", inputmode: "numeric", value: String(opt.default), step: "1", min: opt.min, max: opt.max, class: "number" });
  } else {
    input = el("input", { id, name: opt.name, value: String(opt.default) });
  }
  input.dataset.kind = opt.kind;
  input.addEventListener("change", onOptionChange);
  return input;
}

function optionField(opt) {
  const input = optionControl(opt);
  const label = el("label", { for: input.id }, opt.label);
  const bounds = opt.kind === "int" && opt.max - opt.min > SHORT_RANGE ? `; ${opt.min} to ${opt.max}` : "";
  const row = opt.kind === "bool"
    ? el("div", { class: "field switch" }, input, label)
    : el("div", { class: "field" }, label, input);
  return el("div", { class: "option-field", "data-option": opt.name },
    row,
    el("div", { class: "option-doc" }, `${opt.doc} (default: ${valueWords(opt, opt.default)}${bounds})`),
    el("div", { class: "field-error", role: "alert", hidden: true }));
}

/** Advanced options folded under a summary that says whether any differs from its default. */
function fold(title, members, nested) {
  return el("details", { class: `option-fold${nested ? " nested" : ""}`, "data-fold": title },
    el("summary", {}, el("span", { class: "fold-title" }, title), " ", el("span", { class: "fold-state muted" })),
    el("div", { class: "fold-body" }, ...members.map(optionField)));
}

function showOptions() {
  const game = currentGame();
  const nodes = [];
  for (const group of game.groups) {
    const members = game.options.filter((o) => o.group === group);
    const shown = members.filter((o) => !o.advanced);
    const folded = members.filter((o) => o.advanced);
    if (shown.length) {
      const box = el("fieldset", { class: "option-group", "data-group": group }, el("legend", {}, group), ...shown.map(optionField));
      if (folded.length) box.append(fold(`More ${group.toLowerCase()}`, folded, true));
      nodes.push(box);
    } else {
      nodes.push(fold(group, folded, false));
    }
  }
  $("options").replaceChildren(...nodes);
  clearErrors();
  updateFolds();
  refreshSeats();
}

function readValue(input) {
  const kind = input.dataset.kind;
  if (kind === "bool") return input.checked;
  if (kind === "int") return input.value.trim() === "" ? input.value : Number(input.value);
  return input.value;
}

/** The options that differ from their defaults (the record keeps the full, validated set anyway). */
function readOptions() {
  const out = {};
  const game = currentGame();
  for (const input of document.querySelectorAll("#options [name]")) {
    const opt = game.options.find((o) => o.name === input.name);
    const value = readValue(input);
    if (!opt || value !== opt.default) out[input.name] = value;
  }
  return out;
}

function updateFolds() {
  const changed = readOptions();
  const game = currentGame();
  for (const details of document.querySelectorAll("#options details.option-fold")) {
    const names = [...details.querySelectorAll(".option-field")].map((n) => n.dataset.option);
    const differ = names.filter((n) => n in changed);
    const state = details.querySelector(".fold-state");
    if (!differ.length) {
      state.textContent = names.length > 1 ? `${names.length} options, all at their defaults` : "1 option, at its default";
    } else {
      const labels = differ.map((n) => game.options.find((o) => o.name === n).label);
      state.textContent = `${differ.length} changed: ${labels.join("; ")}`;
    }
    details.classList.toggle("changed", differ.length > 0);
  }
}

function onOptionChange() {
  updateFolds();
  refreshSeats();
}

// -- errors next to their fields ------------------------------------------------------------------------

function clearErrors() {
  for (const box of document.querySelectorAll(".field-error")) { box.textContent = ""; box.hidden = true; }
  for (const node of document.querySelectorAll(".invalid")) node.classList.remove("invalid");
  $("create-error").textContent = "";
}

/** Show a server error beside the field(s) it names (opening their folds), or by the button. */
function showError(err) {
  clearErrors();
  const data = err.data || {};
  const message = err.message;
  let first = null;
  if (data.field === "seats" && Number.isInteger(data.seat)) {
    first = document.querySelector(`#seats .seat-field[data-seat="${data.seat}"]`);
  }
  const fields = data.fields || (data.field && data.field !== "seats" ? [data.field] : []);
  const game = currentGame();
  for (const name of fields) {
    const box = document.querySelector(`#options .option-field[data-option="${CSS.escape(name)}"]`);
    if (!box) continue;
    box.classList.add("invalid");
    for (let node = box.parentElement; node; node = node.parentElement) if (node.tagName === "DETAILS") node.open = true;
    if (first === null) first = box;
    else {
      const lead = game.options.find((o) => o.name === fields[0]);
      const note = box.querySelector(".field-error");
      note.textContent = `This goes with “${lead ? lead.label : fields[0]}”.`;
      note.hidden = false;
    }
  }
  if (first === null) {
    $("create-error").textContent = message;
    return;
  }
  first.classList.add("invalid");
  const box = first.querySelector(".field-error");
  box.textContent = message;
  box.hidden = false;
  const where = first.querySelector("label");
  $("create-error").textContent = `See the error at “${where ? where.textContent : "the field in red"}”.`;
  first.scrollIntoView({ block: "nearest" });
}

// -- seats -----------------------------------------------------------------------------------------------

function seatRow(name, index, previous) {
  const choice = el("select", { name: `seat-${index}`, id: `seat-${index}` });
  const kinds = [["me", "You"], ["human", "Open seat (a friend)"]];
  for (const a of agents) kinds.push([a, agentLabel(a)]);
  kinds.push(["custom", "Bot: other spec…"]);
  for (const [value, label] of kinds) choice.append(el("option", { value }, label));
  choice.value = previous?.value ?? (index === 0 ? "me" : (agents.includes("heuristic") && currentGame().heuristic ? "heuristic" : "random"));
  const custom = el("input", { name: `spec-${index}`, placeholder: "ismcts:ms=1000", value: previous?.custom ?? "", "aria-label": `bot spec for ${name}` });
  custom.hidden = choice.value !== "custom";
  const about = el("div", { class: "option-doc seat-about" });
  const describe = () => { about.textContent = agentAbout(choice.value); about.hidden = !about.textContent; };
  describe();
  choice.addEventListener("change", () => { custom.hidden = choice.value !== "custom"; describe(); });
  return el("div", { class: "seat-field", "data-seat": index },
    el("div", { class: "field seat" }, el("label", { for: choice.id }, name), choice, custom),
    about,
    el("div", { class: "field-error", role: "alert", hidden: true }));
}

let seatRequest = 0;
async function refreshSeats() {
  const box = $("seats");
  const mine = ++seatRequest;
  const previous = [...box.querySelectorAll(".seat")].map((row) => ({
    value: row.querySelector("select").value, custom: row.querySelector("input").value }));
  try {
    const info = await api("POST", "/api/seat-names", { game: currentGame().id, options: readOptions() });
    if (mine !== seatRequest) return;
    clearErrors();
    if (info.seat_names.length !== previous.length || box.children.length === 0) {
      box.replaceChildren(...info.seat_names.map((n, i) => seatRow(n, i, previous[i])));
    } else {
      info.seat_names.forEach((n, i) => { box.querySelector(`[data-seat="${i}"] label`).textContent = n; });
    }
  } catch (err) {
    if (mine === seatRequest) showError(err);
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
  clearErrors();
  try {
    const out = await api("POST", "/api/tables", { game: currentGame().id, options: readOptions(), seats: readSeats() });
    const id = out.table.id;
    const seats = Object.keys(out.tokens).map(Number).sort((a, b) => a - b);
    for (const s of seats) rememberToken(id, s, out.tokens[s]);
    location.href = seats.length ? seatLink(id, seats[0], out.tokens[seats[0]]) : `/table/${id}`;
  } catch (err) {
    showError(err);
  }
}

// -- the tables ------------------------------------------------------------------------------------------

/** Every table this browser holds a seat token for: {table id: {seat: token}}. */
function myTokens() {
  const out = {};
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith("cardtable:")) continue;
      const tokens = JSON.parse(localStorage.getItem(key) || "{}");
      if (tokens && Object.keys(tokens).length) out[key.slice("cardtable:".length)] = tokens;
    }
  } catch { /* private mode: no tables remembered */ }
  return out;
}

function forgetTable(id) {
  try { localStorage.removeItem(`cardtable:${id}`); } catch { /* ignore */ }
}

function clock(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** The options of a table that differ from its game's defaults, in words (the player count shows in its seats). */
function optionChips(t) {
  const game = games.find((g) => g.id === t.game);
  if (!game) return [];
  const chips = [];
  for (const opt of game.options) {
    if (opt.name === "players" || !(opt.name in t.options) || t.options[opt.name] === opt.default) continue;
    const value = t.options[opt.name];
    const full = opt.kind === "bool" && value === true ? opt.label : `${opt.label}: ${valueWords(opt, value)}`;
    const text = opt.kind === "bool" && value === true ? opt.label : `${opt.label}: ${shortWords(valueWords(opt, value))}`;
    chips.push(el("span", { class: "opt-chip", title: full }, text));
  }
  return chips;
}

function seatChip(seat) {
  const cls = ["seatchip"];
  let label = seat.name;
  if (seat.kind === "bot") { cls.push("bot"); label += ` · ${seat.spec}`; }
  else if (seat.reserved_until) { cls.push("reserved"); label += ` · kept until ${clock(seat.reserved_until)}`; }
  else if (!seat.taken) { cls.push("free"); label += " · open"; }
  else label += seat.connected ? " · here" : " · person";
  if (seat.kind === "human" && seat.connected) cls.push("on");
  const title = seat.reserved_until ? `kept for ${seat.name} of the previous game until ${clock(seat.reserved_until)}; then open to anyone` : undefined;
  return el("span", { class: cls.join(" "), title }, label);
}

async function join(id, seat, previousToken) {
  try {
    const body = previousToken ? { seat, previous_token: previousToken } : { seat };
    const out = await api("POST", `/api/tables/${id}/join`, body);
    rememberToken(id, seat, out.token);
    location.href = seatLink(id, seat, out.token);
  } catch (err) {
    alert(err.message);
  }
}

/** What this browser can do at a table: back to its seats, join a rematch, sit at a free seat, watch. */
function tableActions(t, mine, previous) {
  const nodes = [];
  for (const [seat, token] of Object.entries(mine || {})) {
    const name = t.seats[Number(seat)]?.name ?? `seat ${Number(seat) + 1}`;
    nodes.push(el("a", { class: "button primary back", href: seatLink(t.id, Number(seat), token) }, t.is_over ? `see the end (${name})` : `back to my seat (${name})`));
  }
  for (const s of t.free_seats) {
    const seat = t.seats[s];
    const kept = seat.reserved_until && previous && previous[s];
    if (seat.reserved_until && !kept) continue;
    nodes.push(el("button", { type: "button", class: "sit", "data-seat": s, onclick: () => join(t.id, s, kept ? previous[s] : null) },
      kept ? `join the rematch (your seat ${seat.name})` : `sit at ${seat.name}`));
  }
  if (!mine) nodes.push(el("a", { href: `/table/${t.id}`, class: "watch" }, t.is_over ? "see the end" : "watch"));
  return nodes;
}

function tableRow(t, mine, previous) {
  const status = t.is_over ? "over" : `turn ${t.turn}`;
  return el("tr", { "data-table": t.id, class: mine ? "mine" : "" },
    el("td", { class: "game-cell" }, el("b", {}, t.title), el("div", { class: "opt-chips" }, ...optionChips(t))),
    el("td", { class: "seats-cell" }, ...t.seats.map(seatChip)),
    el("td", { class: "turn-cell" }, status),
    el("td", { class: "actions-cell" }, ...tableActions(t, mine, previous)));
}

const MY_FINISHED_SHOWN = 4;

async function listTables() {
  const body = $("table-list");
  try {
    const out = await api("GET", "/api/tables");
    const mine = myTokens();
    const known = new Map(out.tables.map((t) => [t.id, t]));
    // Your tables that are older than the newest fifty are asked for one by one (a few at most).
    for (const id of Object.keys(mine).filter((i) => !known.has(i)).slice(0, 12)) {
      try {
        known.set(id, await api("GET", `/api/tables/${encodeURIComponent(id)}`));
      } catch (err) {
        if (err.status === 404) forgetTable(id);
      }
    }
    const rows = [...known.values()];
    const yours = rows.filter((t) => mine[t.id]).sort((a, b) => (a.is_over - b.is_over) || (b.created - a.created));
    const shown = yours.filter((t) => !t.is_over).concat(yours.filter((t) => t.is_over).slice(0, MY_FINISHED_SHOWN));
    // A finished game's rematch this browser has no seat at yet comes with its old seats.
    for (const t of yours) {
      if (t.is_over && t.rematch && !mine[t.rematch] && known.has(t.rematch) && !shown.includes(known.get(t.rematch))) {
        shown.unshift(known.get(t.rematch));
      }
    }
    const panel = $("my-tables-panel");
    panel.hidden = shown.length === 0;
    $("my-tables").replaceChildren(shown.length
      ? el("table", { class: "tables mine" }, el("tbody", {}, ...shown.map((t) => tableRow(t, mine[t.id], t.rematch_of ? mine[t.rematch_of] : null))))
      : "");
    const others = rows.filter((t) => !mine[t.id] && !shown.includes(t));
    body.replaceChildren(...others.map((t) => tableRow(t, null, t.rematch_of ? mine[t.rematch_of] : null)));
    if (!others.length) {
      const empty = shown.length ? "No other tables yet." : "No tables yet: make one with the form.";
      body.append(el("tr", {}, el("td", { colspan: 4, class: "muted" }, empty)));
    }
  } catch (err) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: 4, class: "error" }, err.message)));
  }
}

async function main() {
  const info = await api("GET", "/api/games");
  games = info.games;
  agents = info.agents;
  agentInfo = info.agent_info || [];
  const select = $("game");
  for (const g of games) select.append(el("option", { value: g.id }, g.title));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some((g) => g.id === wanted)) select.value = wanted;
  select.addEventListener("change", showOptions);
  showOptions();
  $("create-form").addEventListener("submit", create);
  $("refresh").addEventListener("click", listTables);
  listTables();
  setInterval(listTables, 5000);
}

main();
