'use client';
// Keyboard moves through every file of the residual, the folded data files after the review
// files (instruction, tests, solution): j/k open the next/previous one (unfolding the data files
// when it reaches them), v marks the open file viewed and opens the next unviewed one (or unmarks
// it). A large or binary file opens on its sizes and hashes, so it can be marked viewed like any
// other. It works on the rendered list (each file is a [data-testid=residual-file] with a toggle
// button and a Viewed checkbox), so the file view keeps its own state.
import { useRef } from 'react';

function residualFiles(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[data-testid="residual-file"]')];
}

function viewedBox(file: HTMLElement | undefined): HTMLInputElement | null {
  return file?.querySelector<HTMLInputElement>('input[type="checkbox"]') ?? null;
}

function open(file: HTMLElement) {
  const folded = file.closest('details');
  if (folded && !folded.open) folded.open = true;
  const toggle = file.querySelector<HTMLButtonElement>('button[aria-expanded]');
  if (toggle?.getAttribute('aria-expanded') === 'false') toggle.click();
  toggle?.focus();
  file.scrollIntoView({ block: 'start', behavior: 'smooth' });
}

// How many of the residual's files the reviewer has not marked viewed, of how many.
export function unviewedFiles(): { unviewed: number; total: number } {
  const files = residualFiles();
  return { unviewed: files.filter((file) => !viewedBox(file)?.checked).length, total: files.length };
}

export function useResidualKeys() {
  const current = useRef(-1);
  function moveTo(index: number) {
    const file = residualFiles()[index];
    if (!file) return;
    current.current = index;
    open(file);
  }
  function move(step: 1 | -1) {
    const list = residualFiles();
    if (list.length === 0) return;
    moveTo(Math.min(Math.max(current.current + step, 0), list.length - 1));
  }
  function toggleViewed() {
    const list = residualFiles();
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
