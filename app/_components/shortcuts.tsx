'use client';
// The one keyboard-shortcut hook and its help overlay. A page lists its shortcuts once (keys,
// what they do, the handler); the hook listens, `?` toggles the overlay listing them and Escape
// closes it. Plain keys are ignored while the user types in a field; keys with `ctrl` (Ctrl or
// ⌘) work everywhere.
import { useEffect, useRef, useState } from 'react';
import { kbdClass } from './ui.ts';

export interface Shortcut {
  keys: readonly string[]; // KeyboardEvent.key values, e.g. 'j', 'Enter', 'ArrowLeft'
  label: string;
  run: (event: KeyboardEvent) => void;
  ctrl?: boolean; // with Ctrl or ⌘, and then also while typing
  enabled?: boolean; // listed but inert when false (default true)
}

const HELP_KEY = '?';

export function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

// A plain Enter on a focused link or button is that control's own action (a sortable table header,
// a pager link), not the page's Enter shortcut; Ctrl+Enter stays the page's.
function activatesControl(event: KeyboardEvent): boolean {
  return (
    event.key === 'Enter' && !event.ctrlKey && !event.metaKey && event.target instanceof Element && event.target.closest('a[href], button, summary') !== null
  );
}

function matches(shortcut: Shortcut, event: KeyboardEvent): boolean {
  const ctrl = event.ctrlKey || event.metaKey;
  return Boolean(shortcut.ctrl) === ctrl && shortcut.keys.includes(event.key) && shortcut.enabled !== false;
}

/**
 * Listens for the shortcuts while mounted; returns the help overlay's state and `ready`, true
 * once listening (keys pressed before hydration go nowhere: pages mark when they listen).
 */
export function useShortcuts(shortcuts: readonly Shortcut[]) {
  const [helpOpen, setHelpOpen] = useState(false);
  const [ready, setReady] = useState(false);
  // The latest list, read by one listener that is added once.
  const current = useRef(shortcuts);
  useEffect(() => {
    current.current = shortcuts;
  });
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.altKey || event.defaultPrevented) return;
      const typing = isTyping(event.target);
      if (event.key === 'Escape') {
        setHelpOpen(false);
        if (typing && event.target instanceof HTMLElement) event.target.blur();
        return;
      }
      if (!typing && event.key === HELP_KEY) {
        event.preventDefault();
        setHelpOpen((open) => !open);
        return;
      }
      const shortcut = current.current.find((s) => matches(s, event));
      if (!shortcut || (typing && !shortcut.ctrl) || activatesControl(event)) return;
      event.preventDefault();
      shortcut.run(event);
    }
    window.addEventListener('keydown', onKey);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- ready means the listener is attached, which only an effect knows (after hydration)
    setReady(true);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return { helpOpen, setHelpOpen, ready };
}

/** The list of a page's shortcuts, as a dialog; `?` and Escape are always listed. */
export function ShortcutHelp({ shortcuts, open, onClose, note }: { shortcuts: readonly Shortcut[]; open: boolean; onClose: () => void; note?: string }) {
  if (!open) return null;
  const rows = [
    ...shortcuts.map((s) => ({ keys: s.ctrl ? s.keys.map((k) => `Ctrl/⌘+${k}`) : s.keys, label: s.label })),
    { keys: ['?'], label: 'Show or hide these shortcuts' },
    { keys: ['Esc'], label: 'Close this help, leave a text field' },
  ];
  return (
    <div
      role="dialog"
      aria-modal="false"
      aria-label="Keyboard shortcuts"
      data-testid="shortcut-help"
      className="fixed inset-x-0 bottom-4 z-30 mx-auto w-[min(32rem,calc(100%-2rem))] rounded-lg border border-zinc-200 bg-white p-4 shadow-lg"
    >
      <div className="mb-2 flex items-center justify-between">
        <h2 className="text-sm font-semibold">Keyboard shortcuts</h2>
        <button type="button" onClick={onClose} className="text-xs text-zinc-500 hover:text-zinc-900" aria-label="Close keyboard shortcuts">
          Close
        </button>
      </div>
      <dl className="grid grid-cols-[8rem_1fr] gap-y-1 text-sm">
        {rows.map((row) => (
          <div key={row.label} className="contents">
            <dt>
              {row.keys.map((k) => (
                <kbd key={k} className={`mr-1 ${kbdClass}`}>
                  {k}
                </kbd>
              ))}
            </dt>
            <dd className="text-zinc-700">{row.label}</dd>
          </div>
        ))}
      </dl>
      {note && <p className="mt-3 text-xs text-zinc-500">{note}</p>}
    </div>
  );
}

/** The "Keyboard shortcuts ?" button pages put next to their content. */
export function ShortcutHelpButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" onClick={onClick} aria-keyshortcuts="?" className="text-xs text-zinc-600 underline-offset-4 hover:underline">
      Keyboard shortcuts <kbd className={kbdClass}>?</kbd>
    </button>
  );
}
