// The rules of a game, clause by clause (GET /api/rules/<game>): a panel beside the table and the
// page /rules/<game>. A search box keeps the clauses whose number or words contain what is typed.
import { el } from "./common.js";

/** Inline markdown of the rules documents (bold, italics, code) as DOM nodes, never as HTML. */
function inline(text) {
  const out = [];
  const re = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*)/g;
  let last = 0;
  for (const m of String(text).matchAll(re)) {
    if (m.index > last) out.push(String(text).slice(last, m.index));
    const t = m[0];
    if (t.startsWith("**")) out.push(el("b", {}, t.slice(2, -2)));
    else if (t.startsWith("`")) out.push(el("code", {}, t.slice(1, -1)));
    else out.push(el("i", {}, t.slice(1, -1)));
    last = m.index + t.length;
  }
  if (last < String(text).length) out.push(String(text).slice(last));
  return out;
}

/** A block of the documents' prose: paragraphs, "- " lists and "|" tables. */
function prose(text) {
  const blocks = [];
  let list = null;
  let table = null;
  let para = [];
  const flush = () => {
    if (para.length) { blocks.push(el("p", {}, ...inline(para.join(" ")))); para = []; }
    if (list) { blocks.push(list); list = null; }
    if (table) { blocks.push(el("div", { class: "rules-table" }, table)); table = null; }
  };
  for (const raw of String(text || "").split("\n")) {
    const line = raw.trim();
    if (!line) { flush(); continue; }
    if (line.startsWith("|")) {
      if (/^\|[\s:|-]+\|$/.test(line)) continue;
      if (!table) { flush(); table = el("table", {}); }
      const cells = line.slice(1, -1).split("|").map((c) => c.trim());
      table.append(el("tr", {}, ...cells.map((c) => el(table.rows.length ? "td" : "th", {}, ...inline(c)))));
      continue;
    }
    if (line.startsWith("- ")) {
      if (para.length || table) flush();
      if (!list) list = el("ul", {});
      list.append(el("li", {}, ...inline(line.slice(2))));
      continue;
    }
    if (list && raw.startsWith("  ")) { list.lastChild.append(" ", ...inline(line)); continue; }
    if (list || table) flush();
    para.push(line);
  }
  flush();
  return blocks;
}

/** The rules of ``game`` drawn into ``root`` (a panel or the page). */
export async function drawRules(root, game, { onClose = null } = {}) {
  root.replaceChildren(el("p", { class: "muted" }, "Loading the rules…"));
  let book;
  try {
    const response = await fetch(`/api/rules/${encodeURIComponent(game)}`);
    book = await response.json();
    if (!response.ok) throw new Error(book.error || response.statusText);
  } catch (err) {
    root.replaceChildren(el("p", { class: "error" }, `The rules could not be loaded: ${err.message}`));
    return;
  }
  const search = el("input", { type: "search", class: "rules-search", placeholder: "find a rule (a word or a number such as M8.2)", "aria-label": "find a rule" });
  const sections = book.sections.map((s) => {
    const clauses = s.clauses.map((c) => el("div", { class: "clause", id: `clause-${c.id}`, "data-clause": c.id },
      el("b", { class: "clause-id" }, c.id), " ", ...inline(c.text)));
    const node = el("section", { class: `rules-section level-${s.level}`, "data-section": s.id || "" },
      el(s.level <= 2 ? "h3" : "h4", {}, s.id ? `${s.id} ` : "", s.title),
      ...prose(s.text), ...clauses);
    return { node, clauses, text: `${s.id || ""} ${s.title} ${s.text}`.toLowerCase() };
  });
  const empty = el("p", { class: "muted", hidden: true }, "No rule has these words.");
  search.addEventListener("input", () => {
    const q = search.value.trim().toLowerCase();
    let any = false;
    for (const s of sections) {
      let shown = 0;
      for (const c of s.clauses) {
        const hit = !q || c.textContent.toLowerCase().includes(q);
        c.hidden = !hit;
        if (hit) shown++;
      }
      const own = !q || s.text.includes(q);
      s.node.hidden = !(own || shown);
      if (!s.node.hidden) any = true;
    }
    empty.hidden = any;
  });
  root.replaceChildren(
    el("div", { class: "rules-head" },
      el("h2", {}, book.title),
      el("div", { class: "rules-tools" },
        el("a", { href: `/rules/${encodeURIComponent(game)}`, target: "_blank", rel: "noopener" }, "open as a page"),
        onClose ? el("button", { type: "button", class: "ghost", id: "rules-close", onclick: onClose }, "close") : "")),
    search, empty, el("div", { class: "rules-body" }, ...sections.map((s) => s.node)));
}
