import { describe, expect, it } from 'vitest';
import { fitView, initialView, MAX_SCALE, MIN_SCALE, revealRect, transformOf, zoomAt } from './lineages-view.ts';

describe('tree view transform', () => {
  it('fits content centred, never enlarging it', () => {
    expect(fitView({ width: 400, height: 200 }, { width: 800, height: 400 })).toEqual({ k: 1, x: 200, y: 100 });
    const fitted = fitView({ width: 1600, height: 400 }, { width: 800, height: 400 });
    expect(fitted.k).toBe(0.5);
    expect(fitted.x).toBe(0);
    expect(fitted.y).toBe(100);
    expect(fitView({ width: 100_000, height: 100 }, { width: 800, height: 400 }).k).toBe(MIN_SCALE);
  });

  it('starts 1:1 at the focused node when fitting everything would be unreadable', () => {
    const view = initialView({ width: 4000, height: 300 }, { width: 800, height: 400 }, { x: 3500, y: 20, width: 176, height: 64 });
    expect(view.k).toBe(1);
    expect(view.x + 3500).toBeGreaterThanOrEqual(0);
    expect(view.x + 3500 + 176).toBeLessThanOrEqual(800);
  });

  it('zooms about the anchor point and clamps the scale', () => {
    const zoomed = zoomAt({ x: 0, y: 0, k: 1 }, 2, { x: 100, y: 50 });
    expect(zoomed).toEqual({ k: 2, x: -100, y: -50 });
    expect(zoomAt({ x: 0, y: 0, k: 2 }, 10, { x: 0, y: 0 }).k).toBe(MAX_SCALE);
    expect(zoomAt({ x: 0, y: 0, k: 0.3 }, 0.1, { x: 0, y: 0 }).k).toBe(MIN_SCALE);
  });

  it('pans just enough to reveal a rect, and not at all when it is visible', () => {
    const view = { x: 0, y: 0, k: 1 };
    expect(revealRect(view, { x: 10 + 140, y: 50, width: 100, height: 50 }, { width: 800, height: 400 })).toBe(view);
    const moved = revealRect(view, { x: 900, y: 50, width: 100, height: 50 }, { width: 800, height: 400 });
    expect(moved.x).toBe(800 - 140 - 1000);
    expect(moved.y).toBe(0); // already in view vertically
    // A viewport narrower than node and margins: the node is centred.
    expect(revealRect(view, { x: 900, y: 50, width: 100, height: 50 }, { width: 200, height: 400 }).x).toBe(50 - 900);
  });

  it('formats the transform compactly', () => {
    expect(transformOf({ x: 1.23456, y: -2, k: 0.123456 })).toBe('translate(1.23,-2) scale(0.1235)');
  });
});
