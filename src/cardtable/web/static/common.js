// Small helpers shared by the lobby and the table page.

/** Make an element: el("div", {class: "x", onclick: f}, "text", child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** JSON over HTTP; throws an Error carrying the server's one-line message (``error.status`` is the
 * HTTP status and ``error.data`` the server's whole answer, e.g. the ``field`` an option error names). */
export async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await response.json(); } catch { /* not JSON */ }
  if (!response.ok) {
    const error = new Error((data && (data.error || data.detail)) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.data = data || {};
    throw error;
  }
  return data;
}

/** A seat's personal link: the token is in the fragment, which browsers never send to a server. */
export function seatLink(table, seat, token) {
  return `/table/${table}#seat=${seat}&token=${encodeURIComponent(token)}`;
}

export function rememberToken(table, seat, token) {
  try {
    const key = `cardtable:${table}`;
    const known = JSON.parse(localStorage.getItem(key) || "{}");
    known[seat] = token;
    localStorage.setItem(key, JSON.stringify(known));
  } catch { /* private mode: the link still works */ }
}

export function forgetToken(table, seat) {
  try {
    const key = `cardtable:${table}`;
    const known = JSON.parse(localStorage.getItem(key) || "{}");
    delete known[seat];
    localStorage.setItem(key, JSON.stringify(known));
  } catch { /* ignore */ }
}

export function knownTokens(table) {
  try { return JSON.parse(localStorage.getItem(`cardtable:${table}`) || "{}"); } catch { return {}; }
}

/** "soul_points" -> "soul points" */
export function words(key) { return String(key).replace(/[_-]+/g, " "); }
