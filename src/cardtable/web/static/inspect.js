// Inspect a card without acting: hovering it with a mouse (after a short rest) or pressing it long on
// a touch screen shows its whole face in a pop-up: every number named in words, the full effect, the
// other side, what lies under it and its state. A long press never plays the card.
import { el } from "./common.js";
import { sentence, specOf } from "./render/cards.js";

const HOVER_MS = 350;
const PRESS_MS = 480;

let box = null;
let timer = null;
let shownFor = null;
let pressStart = null;
/** Set by a long press, so the click that follows it does not play the card. */
export const press = { swallowClick: false };

function cardOf(target) {
  const node = target instanceof Element ? target.closest(".card") : null;
  return node && specOf(node) ? node : null;
}

function content(spec) {
  const parts = [
    el("div", { class: `inspect-head tone-${spec.tone || "plain"}` },
      el("div", { class: "inspect-title" }, spec.title),
      el("div", { class: "inspect-band" }, sentence(spec.type))),
  ];
  const facts = (spec.details || []).filter(([, v]) => v !== undefined && v !== null && v !== "");
  if (facts.length) {
    parts.push(el("dl", { class: "inspect-facts" }, ...facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))])));
  }
  if (spec.text) parts.push(el("p", { class: "inspect-text" }, spec.text));
  if (spec.second) {
    const s = spec.second;
    parts.push(el("div", { class: `inspect-second tone-${s.tone || "plain"}` },
      el("div", { class: "inspect-sub" }, "Other side: ", el("b", {}, s.title), s.type ? ` · ${sentence(s.type)}` : ""),
      (s.details || []).length ? el("dl", { class: "inspect-facts" }, ...s.details.filter(([, v]) => v !== null && v !== undefined && v !== "")
        .flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))])) : "",
      s.text ? el("p", { class: "inspect-text" }, s.text) : ""));
  }
  const state = [...(spec.stateWords || []), ...(spec.tokens || []).map((t) => t.text ?? t)];
  if (state.length) parts.push(el("p", { class: "inspect-state" }, sentence(state.join("; "))));
  if (spec.under && spec.under.length) {
    parts.push(el("div", { class: "inspect-sub" }, "Under it: ", spec.under.map((u) => `${u.title}${u.label ? ` (${u.label})` : ""}`).join(", ")));
  }
  if (Number.isInteger(spec.id)) parts.push(el("div", { class: "inspect-id" }, `card #${spec.id}`));
  return parts;
}

function place(rect) {
  const phone = window.innerWidth < 620;
  box.classList.toggle("sheet", phone);
  if (phone) { box.style.left = ""; box.style.top = ""; return; }
  const w = box.offsetWidth;
  const h = box.offsetHeight;
  let left = rect.right + 10;
  if (left + w > window.innerWidth - 8) left = Math.max(8, rect.left - w - 10);
  const top = Math.min(Math.max(8, rect.top), window.innerHeight - h - 8);
  box.style.left = `${left}px`;
  box.style.top = `${Math.max(8, top)}px`;
}

export function show(node) {
  const spec = specOf(node);
  if (!spec) return;
  box.replaceChildren(...content(spec));
  box.hidden = false;
  shownFor = node;
  document.body.dataset.inspecting = "true";
  place(node.getBoundingClientRect());
}

export function hide() {
  clearTimeout(timer);
  timer = null;
  if (box) box.hidden = true;
  shownFor = null;
  delete document.body.dataset.inspecting;
}

/** Watch ``root`` (the board and the side panel) for hovers and long presses on cards. */
export function setup(roots) {
  box = document.getElementById("inspect");
  for (const root of roots) {
    root.addEventListener("pointerover", (e) => {
      if (e.pointerType !== "mouse") return;
      const node = cardOf(e.target);
      if (!node || node === shownFor) return;
      clearTimeout(timer);
      timer = setTimeout(() => show(node), HOVER_MS);
    });
    root.addEventListener("pointerout", (e) => {
      if (e.pointerType !== "mouse") return;
      const node = cardOf(e.target);
      if (node && e.relatedTarget instanceof Node && node.contains(e.relatedTarget)) return;
      hide();
    });
    root.addEventListener("pointerdown", (e) => {
      press.swallowClick = false;
      if (e.pointerType === "mouse") { hide(); return; }
      const node = cardOf(e.target);
      if (!node) return;
      pressStart = { x: e.clientX, y: e.clientY };
      clearTimeout(timer);
      timer = setTimeout(() => { press.swallowClick = true; show(node); }, PRESS_MS);
    });
    root.addEventListener("pointermove", (e) => {
      if (!pressStart || e.pointerType === "mouse") return;
      if (Math.abs(e.clientX - pressStart.x) + Math.abs(e.clientY - pressStart.y) > 12) { clearTimeout(timer); pressStart = null; }
    });
    const end = () => { if (!shownFor) clearTimeout(timer); pressStart = null; };
    root.addEventListener("pointerup", end);
    root.addEventListener("pointercancel", end);
    root.addEventListener("contextmenu", (e) => { if (cardOf(e.target)) e.preventDefault(); });
  }
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hide(); });
  document.addEventListener("pointerdown", (e) => {
    if (shownFor && !(e.target instanceof Node && (box.contains(e.target) || shownFor.contains(e.target)))) hide();
  }, true);
}

/** The card a keyboard user asks about (the "i" key on a focused card). */
export function showFocused() {
  const node = document.activeElement && cardOf(document.activeElement);
  if (node) show(node);
}
