// Cards move with a short animation between two drawings of the table (FLIP: First, Last, Invert,
// Play). A card keeps its id across frames, so where it was drawn before and where it is drawn now
// give the move; a card new to the table fades in. Animations only move pictures: nothing waits for
// them but the page's "settled" mark, which tests (and people) can rely on.

const MOVE_MS = 260;
const ENTER_MS = 200;

/** Whether cards should move: the person's setting, else the system's reduced-motion preference. */
export function motionWanted() {
  try {
    const saved = localStorage.getItem("cardtable:motion");
    if (saved === "on" || saved === "off") return saved === "on";
  } catch { /* private mode */ }
  return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

export function setMotion(on) {
  try { localStorage.setItem("cardtable:motion", on ? "on" : "off"); } catch { /* ignore */ }
}

/** The box that moves for a card element: a turned card moves with its sideways box. */
function mover(node) {
  const box = node.parentElement;
  return box && box.classList.contains("turned-box") ? box : node;
}

/** Where each card (by id) is drawn now under ``root``. */
export function capture(root) {
  const out = new Map();
  for (const node of root.querySelectorAll("[data-card]")) {
    const id = node.dataset.card;
    if (id === "" || out.has(id)) continue;
    out.set(id, mover(node).getBoundingClientRect());
  }
  return out;
}

/** Animate the cards under ``root`` from where ``before`` had them; resolves when all are done. */
export function play(root, before) {
  if (!before || !before.size) return Promise.resolve();
  const runs = [];
  const seen = new Set();
  for (const node of root.querySelectorAll("[data-card]")) {
    const id = node.dataset.card;
    if (id === "" || seen.has(id)) continue;
    seen.add(id);
    const box = mover(node);
    const now = box.getBoundingClientRect();
    const was = before.get(id);
    if (!now.width) continue;
    let anim = null;
    if (was) {
      const dx = was.left - now.left;
      const dy = was.top - now.top;
      if (Math.abs(dx) + Math.abs(dy) < 2) continue;
      const base = getComputedStyle(box).transform;
      const rest = base && base !== "none" ? base : "";
      anim = box.animate([{ transform: `translate(${dx}px, ${dy}px) ${rest}` }, { transform: rest || "none" }],
        { duration: MOVE_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
    } else {
      anim = box.animate([{ opacity: 0 }, { opacity: 1 }], { duration: ENTER_MS, easing: "ease-out" });
    }
    runs.push(anim.finished.catch(() => {}));
  }
  return Promise.all(runs);
}
