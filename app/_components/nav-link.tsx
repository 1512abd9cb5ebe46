'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { Route } from 'next';

// A header link that marks itself current for its whole section (/environments/…).
export function NavLink({ href, children }: { href: Route; children: string }) {
  const pathname = usePathname();
  const current = pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link
      href={href}
      aria-current={current ? 'page' : undefined}
      className={`whitespace-nowrap rounded-md px-2.5 py-1.5 text-sm font-medium ${current ? 'bg-zinc-100 text-zinc-900' : 'text-zinc-600 hover:bg-zinc-50 hover:text-zinc-900'}`}
    >
      {children}
    </Link>
  );
}
