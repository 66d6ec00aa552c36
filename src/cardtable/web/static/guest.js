// Friends at a table: taking an invitation (?join=N), telling a person who watches why they watch
// (the seat is taken, reserved, the link no longer works, the game is over), and the rematch: its
// button says whose seat waits there, and a watcher is offered a seat at it. The table page (table.js)
// calls these; they hold no rule and only read what the server sends.
import { api, el, knownTokens, rememberToken, seatLink } from "./common.js";

/** Why this page watches instead of playing (null: it never tried to sit). */
let reason = null;

/** Take the seat an invitation link names. Returns ``{seat, token}``, or null (this page watches,
 * and :func:`drawWatching` says why). */
export async function takeInvitation(tableId, seat) {
  try {
    const out = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/join`, { seat });
    rememberToken(tableId, out.seat, out.token);
    return { seat: out.seat, token: out.token };
  } catch (err) {
    reason = invitationRefused(err);
    return null;
  }
}

function invitationRefused(err) {
  const code = err.data && err.data.code;
  if (code === "game-over") return "The game is over: this invitation is for a game that has ended.";
  if (code === "seat-reserved") return `${err.message}.`;
  if (code === "seat-taken") return err.message.includes("bot")
    ? `${err.message}: this seat is not for a person.`
    : "This seat is taken by someone else.";
  if (code === "no-table") return "There is no such table (the link may be wrong).";
  return `Could not take the seat: ${err.message}.`;
}

/** The seat token this page had was refused (the seat was left, or the link is not this table's). */
export function tokenRefused() {
  reason = "This seat link no longer works: the seat was left, or the link belongs to another table.";
}

/** The rematch button's words for a seated player: whose seat waits at the rematch. */
export function rematchLabel(frame) {
  if (!frame.rematch) return "Rematch";
  const seat = frame.seats[frame.seat];
  return `Join the rematch (your seat ${seat ? seat.name : `P${frame.seat + 1}`})`;
}

/** This browser's seat at the rematch, when it has one already (then the button leads back to it). */
export function rematchSeatLink(frame) {
  if (!frame.rematch || frame.seat === null) return null;
  const token = knownTokens(frame.rematch)[frame.seat];
  return token ? seatLink(frame.rematch, frame.seat, token) : null;
}

function banner() {
  let node = document.getElementById("watching");
  if (!node) {
    node = el("div", { id: "watching", class: "watching", role: "status" });
    const panel = document.getElementById("turn-panel");
    if (panel) panel.prepend(node);
    else document.body.prepend(node);
  }
  return node;
}

let offered = null; // the rematch whose seats were last looked up, and what was found

/** Tell a watcher why they watch and what they may do: take a free seat, join or watch the rematch. */
let drawn = 0; // the newest call wins when rematch look-ups overlap

export async function drawWatching(frame, tableId) {
  const node = banner();
  const mine = ++drawn;
  if (frame.seat !== null) { node.hidden = true; return; }
  const over = frame.result !== null && frame.result !== undefined;
  const lines = [];
  lines.push(el("b", {}, "You are watching. "), reason || (over ? "The game is over." : ""));
  if (over && reason && !reason.startsWith("The game is over")) lines.push(" The game is over.");
  const offers = [];
  if (!over) {
    for (const s of frame.seats) {
      if (s.kind === "human" && !s.taken && !s.reserved_until) {
        offers.push(el("button", { type: "button", class: "sit", "data-seat": s.seat, onclick: () => sit(tableId, s.seat, null) }, `Sit at ${s.name}`));
      }
    }
  } else if (frame.rematch) {
    offers.push(...await rematchOffers(frame.rematch, tableId));
  }
  if (mine !== drawn) return;
  node.replaceChildren(el("div", {}, ...lines), offers.length ? el("div", { class: "offers" }, ...offers) : "");
  node.hidden = false;
}

async function rematchOffers(rematch, tableId) {
  if (!offered || offered.id !== rematch || Date.now() - offered.at > 5000) {
    try {
      offered = { id: rematch, at: Date.now(), summary: await api("GET", `/api/tables/${encodeURIComponent(rematch)}`) };
    } catch {
      offered = { id: rematch, at: Date.now(), summary: null };
    }
  }
  const out = [];
  const summary = offered.summary;
  const held = knownTokens(tableId); // seats this browser held at the finished game
  if (summary) {
    for (const s of summary.seats) {
      if (s.kind !== "human" || s.taken) continue;
      if (s.reserved_until) {
        if (held[s.seat]) out.push(el("button", { type: "button", class: "primary sit", "data-seat": s.seat, onclick: () => sit(rematch, s.seat, held[s.seat]) }, `Join the rematch (your seat ${s.name})`));
        continue;
      }
      out.push(el("button", { type: "button", class: "sit", "data-seat": s.seat, onclick: () => sit(rematch, s.seat, null) }, `Join the rematch at ${s.name}`));
    }
  }
  out.push(el("a", { href: `/table/${rematch}`, class: "watch-rematch" }, "watch the rematch"));
  return out;
}

async function sit(tableId, seat, previousToken) {
  try {
    const body = previousToken ? { seat, previous_token: previousToken } : { seat };
    const out = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/join`, body);
    rememberToken(tableId, seat, out.token);
    const [path, hash] = seatLink(tableId, seat, out.token).split("#");
    if (path === location.pathname) {
      // The same page with a seat now: only the fragment changes, so load it again to sit down.
      history.replaceState(null, "", `${path}#${hash}`);
      location.reload();
    } else {
      location.href = `${path}#${hash}`;
    }
  } catch (err) {
    reason = invitationRefused(err);
    const node = banner();
    node.querySelector("div").replaceChildren(el("b", {}, "You are watching. "), reason);
  }
}
