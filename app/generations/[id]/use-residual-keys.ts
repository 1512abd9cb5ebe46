'use client';
// Keyboard moves through the residual's files that are the review (instruction, tests,
// solution; data files stay folded): j/k open the next/previous one, v marks the open file
// viewed and opens the next unviewed one (or unmarks it). It works on the rendered list (each
// file is a [data-testid=residual-file] with a toggle button and a Viewed checkbox), so the file
// view keeps its own state.
import { useRef } from 'react';

function reviewFiles(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[data-testid="residual-file"]:not([data-kind="data"])')];
}

function viewedBox(file: HTMLElement | undefined): HTMLInputElement | null {
  return file?.querySelector<HTMLInputElement>('input[type="checkbox"]') ?? null;
}

function open(file: HTMLElement) {
  const toggle = file.querySelector<HTMLButtonElement>('button[aria-expanded]');
  if (toggle?.getAttribute('aria-expanded') === 'false') toggle.click();
  toggle?.focus();
  file.scrollIntoView({ block: 'start', behavior: 'smooth' });
}

export function useResidualKeys() {
  const current = useRef(-1);
  function moveTo(index: number) {
    const file = reviewFiles()[index];
    if (!file) return;
    current.current = index;
    open(file);
  }
  function move(step: 1 | -1) {
    const list = reviewFiles();
    if (list.length === 0) return;
    moveTo(Math.min(Math.max(current.current + step, 0), list.length - 1));
  }
  function toggleViewed() {
    const list = reviewFiles();
    const at = Math.max(current.current, 0);
    const box = viewedBox(list[at]);
    if (!box) return;
    const marking = !box.checked;
    box.click();
    if (!marking) return;
    // The next unviewed file after this one, wrapping round to any before it.
    const order = [...list.keys()].slice(at + 1).concat([...list.keys()].slice(0, at));
    const next = order.find((index) => !viewedBox(list[index])?.checked);
    if (next !== undefined) moveTo(next);
  }
  return { move, toggleViewed };
}
