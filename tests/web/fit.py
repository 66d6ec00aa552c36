"""What a page must not do on a small screen, measured in the browser: helpers for the layout tests.

``OVERFLOW_JS`` lists every drawn element that reaches past the left or right edge of the viewport,
every box that scrolls sideways, and every text cut with an ellipsis or a card name cut by its line
clamp (a name a player cannot read):
on a phone the table must fit the screen's width, stacked, with nothing to swipe sideways and no
name cut. ``BROKEN_WORDS_JS`` lists card names broken inside a word where no hyphen was offered.
"""

from __future__ import annotations

from typing import Final

OVERFLOW_JS: Final = """() => {
  const vw = document.documentElement.clientWidth;
  const name = (e) => {
    const cls = typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).join('.') : '';
    const text = (e.innerText || e.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${cls} "${text}"`;
  };
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    if (!e.getClientRects().length) continue;
    if (e.closest('[hidden], .inspect, .card-menu, .rules-panel, .settings')) continue;
    const fold = e.parentElement && e.parentElement.closest('details');
    if (fold && !fold.open && !e.closest('summary')) continue;
    const st = getComputedStyle(e);
    if (st.visibility === 'hidden' || st.display === 'contents') continue;
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const wider = e.scrollWidth > e.clientWidth + 1;
    if (r.right > vw + 1 || r.left < -1) {
      out.push(`past the edge (${Math.round(r.left)}..${Math.round(r.right)} of ${vw}): ${name(e)}`);
    }
    if (['auto', 'scroll'].includes(st.overflowX) && wider) out.push(`scrolls sideways: ${name(e)}`);
    if (st.textOverflow === 'ellipsis' && wider) out.push(`cut with an ellipsis: ${name(e)}`);
    const clamp = st.webkitLineClamp && st.webkitLineClamp !== 'none';
    if (clamp && e.matches('.card-title') && e.scrollHeight > e.clientHeight + 1) {
      out.push(`a name cut short: ${name(e)}`);
    }
  }
  return out;
}"""

BROKEN_WORDS_JS: Final = """(selector) => {
  const out = [];
  for (const node of document.querySelectorAll(selector)) {
    if (!node.getClientRects().length) continue;
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const re = /[^\\s\\u00ad-]+/g;
      let m;
      while ((m = re.exec(t.data))) {
        // The line of a word's first letter and of its last: a word cut in two has them apart.
        // (A letter just after a soft hyphen also reports the hyphen drawn at the end of the line
        // above: the letter is the last of its boxes.)
        const line = (at, pick) => {
          const range = document.createRange();
          range.setStart(t, at);
          range.setEnd(t, at + 1);
          const rects = [...range.getClientRects()].filter((r) => r.width > 0);
          const rect = pick === 'last' ? rects[rects.length - 1] : rects[0];
          return rect ? rect.top + rect.height / 2 : null;
        };
        const first = line(m.index, 'last');
        const last = line(m.index + m[0].length - 1, 'first');
        if (first !== null && last !== null && Math.abs(first - last) > 3) {
          out.push(`${m[0]} in "${(node.textContent || '').replace(/\\u00ad/g, '').replace(/\\s+/g, ' ')}"`);
        }
      }
    }
  }
  return out;
}"""
"""``page.evaluate(BROKEN_WORDS_JS, selector)``: the words of the matched elements that a line break
cuts in two. A soft hyphen splits a word into two pieces here, so a break the renderer offered (an
``Honey-suckle`` with its hyphen drawn) is not reported; a break forced inside a piece is."""
