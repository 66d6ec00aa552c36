// The rules page (/rules/<game>): the game comes from the address, the clauses from /api/rules/<game>.
// A file of its own, not a script inside rules.html: the Content-Security-Policy (script-src 'self')
// runs no inline script.
import { drawRules } from "/static/rules.js";

const game = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
document.title = `cardtable — rules`;
drawRules(document.getElementById("rules"), game);
