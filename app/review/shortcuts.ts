// The queue's keyboard shortcuts, one table for the handler and the help dialog.
export const SHORTCUTS = [
  { keys: ['j'], action: 'next', label: 'Select the next generation' },
  { keys: ['k'], action: 'previous', label: 'Select the previous generation' },
  { keys: ['Enter', 'o'], action: 'open', label: 'Open the selected generation' },
  { keys: ['a'], action: 'approve', label: 'Approve the selected generation' },
  { keys: ['r'], action: 'reject', label: 'Reject it (asks for the reason)' },
  { keys: ['c'], action: 'request-changes', label: 'Request changes (asks for the comment)' },
  { keys: ['?'], action: 'help', label: 'Show or hide these shortcuts' },
] as const;

export type ShortcutAction = (typeof SHORTCUTS)[number]['action'];

export function shortcutFor(key: string): ShortcutAction | null {
  return SHORTCUTS.find((s) => (s.keys as readonly string[]).includes(key))?.action ?? null;
}
