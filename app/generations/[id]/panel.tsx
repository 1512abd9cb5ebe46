import type { ReactNode } from 'react';

// A titled section of the review page; the heading labels it for screen readers.
export function Panel({ title, id, aside, children }: { title: string; id: string; aside?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} id={id} className="rounded-lg border border-zinc-200 bg-white">
      <div className="flex items-center justify-between gap-3 border-b border-zinc-100 px-4 py-2.5">
        <h2 id={`${id}-heading`} className="text-sm font-semibold">
          {title}
        </h2>
        {aside}
      </div>
      <div className="px-4 py-3">{children}</div>
    </section>
  );
}
