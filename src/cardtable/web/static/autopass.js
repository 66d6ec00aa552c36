// Forced moves taken by themselves (issue 19, "no needless clicks"), fair to everyone at the table.
//
// A decision with exactly one legal action is taken by the page after PAUSE_MS, counted from the
// moment the frame arrived, with a countdown on its button. The engine still offers the decision and
// every seat sees it taken. So that the speed of a move tells nobody whether it was forced, the pause
// is a constant (it does not depend on the hand, the view or how long drawing took), and while the
// setting is on the page also holds any other decision of this seat until the same pause has passed
// since its frame arrived: a move made at the pause may have been forced or chosen quickly. What a
// move made later still shows is the player's own speed. docs/web.md says this in full.

export const PAUSE_MS = 800;

function key(table, seat) { return `cardtable:autopass:${table}:${seat}`; }

/** Whether this seat takes forced moves by itself (default: yes). */
export function autopassOn(table, seat) {
  if (seat === null || seat === undefined) return false;
  try { return localStorage.getItem(key(table, seat)) !== "off"; } catch { return true; }
}

export function setAutopass(table, seat, on) {
  try { localStorage.setItem(key(table, seat), on ? "on" : "off"); } catch { /* ignore */ }
}

/** Milliseconds still to wait before a move may leave, for a frame that arrived at ``arrived``
 * (performance.now()); 0 when the setting is off. */
export function holdLeft(arrived, on, now = performance.now()) {
  if (!on || arrived === null) return 0;
  return Math.max(0, arrived + PAUSE_MS - now);
}
