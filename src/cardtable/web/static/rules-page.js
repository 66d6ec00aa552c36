// The page /rules/<game>: the game's rules, clause by clause. A file of its own, not an inline script:
// the server's content security policy allows scripts from this origin only ('self').
import { drawRules } from "./rules.js";

const game = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
document.title = "cardtable — rules";
drawRules(document.getElementById("rules"), game);
