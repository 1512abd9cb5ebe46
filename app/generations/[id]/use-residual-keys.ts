'use client';
// Keyboard moves through the residual's files: j/k open the next/previous file (collapsing
// none, so the reviewer can look back), v toggles its "viewed" mark. It works on the rendered
// list (each file is a [data-testid=residual-file] with a toggle button and a Viewed checkbox),
// so the file view keeps its own state.
import { useRef } from 'react';

function files(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[data-testid="residual-file"]')];
}

export function useResidualKeys() {
  const current = useRef(-1);
  function move(step: 1 | -1) {
    const list = files();
    if (list.length === 0) return;
    current.current = Math.min(Math.max(current.current + step, 0), list.length - 1);
    const file = list[current.current]!;
    const toggle = file.querySelector<HTMLButtonElement>('button[aria-expanded]');
    if (toggle?.getAttribute('aria-expanded') === 'false') toggle.click();
    toggle?.focus();
    file.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }
  function toggleViewed() {
    const file = files()[Math.max(current.current, 0)];
    file?.querySelector<HTMLInputElement>('input[type="checkbox"]')?.click();
  }
  return { move, toggleViewed };
}
