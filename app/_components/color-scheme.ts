'use client';

import { useSyncExternalStore } from 'react';

// The dark theme follows the system setting (app/globals.css). Canvas charts (uPlot) cannot use the
// palette's CSS variables, so they pick their ink by the scheme and are drawn again when it changes.
export type ColorScheme = 'light' | 'dark';

const DARK = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(DARK);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

export function useColorScheme(): ColorScheme {
  return useSyncExternalStore(
    subscribe,
    () => (window.matchMedia(DARK).matches ? 'dark' : 'light'),
    () => 'light',
  );
}

// The neutral ink of a canvas chart: axis labels, grid, ticks, quiet background lines and the
// emphasised (hovered) line, each readable on the scheme's panel colour.
export interface ChartInk {
  axis: string;
  grid: string;
  ticks: string;
  quiet: string;
  emphasis: string;
}

export const CHART_INK: Record<ColorScheme, ChartInk> = {
  light: { axis: '#71717a', grid: '#e4e4e7', ticks: '#d4d4d8', quiet: 'rgba(113,113,122,0.16)', emphasis: '#18181b' },
  dark: { axis: '#a1a1aa', grid: '#3f3f46', ticks: '#52525b', quiet: 'rgba(161,161,170,0.22)', emphasis: '#fafafa' },
};
