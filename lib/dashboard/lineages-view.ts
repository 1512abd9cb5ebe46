// Pan and zoom of the tree as one translate-and-scale transform: moving the view never
// re-lays out the tree, it only changes these three numbers.

export interface View {
  x: number; // screen position of the layout's origin
  y: number;
  k: number; // scale
}

export interface Size {
  width: number;
  height: number;
}

export interface Rect extends Size {
  x: number;
  y: number;
}

export const MIN_SCALE = 0.1;
export const MAX_SCALE = 2.5;
// Below this, node text is too small to read: the first view shows part of the tree instead.
const READABLE_SCALE = 0.7;
// A revealed node keeps its incoming edge and label in view, where the viewport has room.
const REVEAL_MARGIN_X = 140;
const REVEAL_MARGIN_Y = 40;

export function clampScale(k: number): number {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, k));
}

export function transformOf(view: View): string {
  return `translate(${round(view.x)},${round(view.y)}) scale(${round(view.k, 4)})`;
}

function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The whole content, centred, as large as fits (never larger than 1:1). */
export function fitView(content: Size, viewport: Size): View {
  const k = clampScale(Math.min(1, viewport.width / content.width, viewport.height / content.height));
  return { k, x: (viewport.width - content.width * k) / 2, y: (viewport.height - content.height * k) / 2 };
}

/** The first view: everything if that stays readable, else 1:1 with the focused node in view. */
export function initialView(content: Size, viewport: Size, focus: Rect): View {
  const fitted = fitView(content, viewport);
  if (fitted.k >= READABLE_SCALE) return fitted;
  // A long chain is wide and flat: centre it vertically when it fits that way.
  const y = content.height <= viewport.height ? (viewport.height - content.height) / 2 : 0;
  return revealRect({ x: 0, y, k: 1 }, focus, viewport);
}

/** Zoom by `factor` keeping the layout point under `anchor` (screen coordinates) still. */
export function zoomAt(view: View, factor: number, anchor: { x: number; y: number }): View {
  const k = clampScale(view.k * factor);
  const ratio = k / view.k;
  return { k, x: anchor.x - (anchor.x - view.x) * ratio, y: anchor.y - (anchor.y - view.y) * ratio };
}

/** The smallest pan that brings `rect` (layout coordinates), with a margin, into the viewport. */
export function revealRect(view: View, rect: Rect, viewport: Size): View {
  const left = view.x + rect.x * view.k;
  const top = view.y + rect.y * view.k;
  const right = left + rect.width * view.k;
  const bottom = top + rect.height * view.k;
  const marginX = Math.max(0, Math.min(REVEAL_MARGIN_X, (viewport.width - rect.width * view.k) / 2));
  const marginY = Math.max(0, Math.min(REVEAL_MARGIN_Y, (viewport.height - rect.height * view.k) / 2));
  let dx = 0;
  let dy = 0;
  if (left < marginX) dx = marginX - left;
  else if (right > viewport.width - marginX) dx = viewport.width - marginX - right;
  if (top < marginY) dy = marginY - top;
  else if (bottom > viewport.height - marginY) dy = viewport.height - marginY - bottom;
  return dx === 0 && dy === 0 ? view : { ...view, x: view.x + dx, y: view.y + dy };
}
