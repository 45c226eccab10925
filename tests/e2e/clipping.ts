// What a person would see cut: visible text or a control that an ancestor's overflow clips (a scroll
// box with no visible scrollbar, a card with overflow hidden), text cut short by its own box (an
// ellipsis, overflow hidden), or anything that lies outside the window sideways. It runs in the page
// (page.evaluate), so it measures what Chromium laid out, not what the stylesheet meant.
import type { Page } from '@playwright/test';

export interface Clipped {
  /** A short path to the element (tag, id, test id or class), for the report. */
  where: string;
  /** Its text (or a control's name), shortened. */
  text: string;
  why: string;
}

/** Runs in the browser: every visible text run and control, measured against its clipping ancestors and the window. */
export function findClipped(): Clipped[] {
  const TOLERANCE = 1;
  const CONTROLS = 'a, button, input, select, textarea, summary, [role="button"]';
  const found: Clipped[] = [];
  const seen = new Set<string>();

  const describe = (el: Element): string => {
    const parts: string[] = [];
    for (let e: Element | null = el; e && parts.length < 4 && e !== document.body; e = e.parentElement) {
      const testId = e.getAttribute('data-testid');
      const cls = typeof e.className === 'string' && e.className.trim() ? `.${e.className.trim().split(/\s+/).join('.')}` : '';
      parts.unshift(`${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${testId ? `[data-testid=${testId}]` : ''}${cls}`);
    }
    return parts.join(' > ');
  };
  const report = (el: Element, text: string, why: string) => {
    const where = describe(el);
    const key = `${where}|${text}|${why}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ where, text: text.replace(/\s+/g, ' ').trim().slice(0, 60), why });
  };

  /** Hidden on purpose: not rendered, invisible, or a screen-reader-only element (1 px, clipped). */
  const hiddenOnPurpose = (el: Element): boolean => {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return true;
    for (let e: Element | null = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.clipPath.startsWith('inset(50%') || s.clip === 'rect(0px, 0px, 0px, 0px)') return true;
      const r = e.getBoundingClientRect();
      if (s.position === 'absolute' && r.width <= 1 && r.height <= 1) return true;
    }
    return false;
  };

  const clips = (s: CSSStyleDeclaration) => ({
    x: s.overflowX !== 'visible',
    y: s.overflowY !== 'visible',
  });

  const check = (el: Element, rect: DOMRect, text: string) => {
    if (rect.width === 0 && rect.height === 0) return;
    const vw = document.documentElement.clientWidth;
    if (rect.left < -TOLERANCE || rect.right > vw + TOLERANCE) {
      report(el, text, `outside the ${vw}px window (${Math.round(rect.left)}…${Math.round(rect.right)})`);
    }
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      const { x, y } = clips(s);
      if (!x && !y) continue;
      const r = a.getBoundingClientRect();
      // The padding box: inside the borders, where the content is shown.
      const left = r.left + a.clientLeft;
      const top = r.top + a.clientTop;
      const right = left + a.clientWidth;
      const bottom = top + a.clientHeight;
      const cutX = x && (rect.left < left - TOLERANCE || rect.right > right + TOLERANCE);
      const cutY = y && (rect.top < top - TOLERANCE || rect.bottom > bottom + TOLERANCE);
      if (cutX || cutY) {
        report(
          el,
          text,
          `cut by ${describe(a)} (overflow ${s.overflowX}/${s.overflowY}; ${Math.round(rect.left)}…${Math.round(rect.right)} in ${Math.round(left)}…${Math.round(right)})`,
        );
        break;
      }
    }
  };

  // Text runs: each text node's laid-out box.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    if (!text.trim()) continue;
    const el = node.parentElement;
    if (!el || el.closest('script, style, noscript, template') || hiddenOnPurpose(el)) continue;
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) check(el, rect, text);
  }
  // Controls: their whole box (a button cut in half is cut even if its word fits).
  for (const el of document.querySelectorAll(CONTROLS)) {
    if (hiddenOnPurpose(el)) continue;
    const name = el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? el.tagName;
    check(el, el.getBoundingClientRect(), name || el.tagName.toLowerCase());
  }
  // Text cut by its own box: an ellipsis, or overflow hidden on a box its text is wider than.
  for (const el of document.querySelectorAll('body *')) {
    if (!(el instanceof HTMLElement) || !el.innerText?.trim()) continue;
    const s = getComputedStyle(el);
    const ownClip = s.textOverflow === 'ellipsis' || s.overflowX === 'hidden' || s.overflowX === 'clip';
    if (!ownClip || hiddenOnPurpose(el)) continue;
    if (el.scrollWidth > el.clientWidth + TOLERANCE)
      report(el, el.innerText, `text wider than its box (${el.scrollWidth} > ${el.clientWidth}px)`);
  }
  return found;
}

/** The clipped text and controls of the page as it is now (see findClipped). */
export async function clippedOn(page: Page): Promise<Clipped[]> {
  return page.evaluate(findClipped);
}

export const describeClipped = (list: Clipped[]) => list.map((c) => `  “${c.text}” at ${c.where}: ${c.why}`).join('\n');
