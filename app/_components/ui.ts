// The shared Tailwind classes of controls: every page's buttons, inputs and key caps look alike.
const BUTTON_SHAPE = 'inline-flex items-center justify-center gap-1.5 rounded-md font-medium disabled:cursor-not-allowed disabled:opacity-50';
const BUTTON_BASE = `${BUTTON_SHAPE} h-8 px-3 text-sm`;
const SECONDARY = 'border border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50';

export const buttonClass = `${BUTTON_BASE} ${SECONDARY}`;
// In table rows and the header: the same secondary button, smaller.
export const smallButtonClass = `${BUTTON_SHAPE} h-7 px-2.5 text-xs ${SECONDARY}`;
export const primaryButtonClass = `${BUTTON_BASE} bg-zinc-900 text-white hover:bg-zinc-700`;
export const dangerButtonClass = `${BUTTON_BASE} bg-red-700 text-white hover:bg-red-800`;
export const approveButtonClass = `${BUTTON_BASE} bg-emerald-700 text-white hover:bg-emerald-800`;
export const warnButtonClass = `${BUTTON_BASE} bg-amber-100 text-amber-950 ring-1 ring-amber-400 hover:bg-amber-200`;
export const linkButtonClass = 'text-sm font-medium text-blue-700 underline-offset-4 hover:underline';

export const inputClass =
  'rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-sm placeholder:text-zinc-400 disabled:bg-zinc-50 aria-[invalid=true]:border-red-500';

export const kbdClass = 'rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-xs text-zinc-700';
