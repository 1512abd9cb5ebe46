import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Not allowed' };

// Rendered with status 403 when requirePermission finds the signed-in role lacks a permission.
export default function Forbidden() {
  return (
    <div className="mx-auto flex max-w-md flex-col gap-3 py-16 text-center">
      <p className="text-sm font-semibold text-zinc-500">403</p>
      <h1 className="text-lg font-semibold tracking-tight">Your role may not open this page</h1>
      <p className="text-sm text-zinc-600">Ask an admin for another role if you need it.</p>
      <Link href="/" className="text-sm font-medium text-zinc-900 underline underline-offset-4">
        Back to your home page
      </Link>
    </div>
  );
}
