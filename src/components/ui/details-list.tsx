import type { ReactNode } from 'react';

/** A bordered list of read-only label/value rows (a real <dl>). */
export function DetailsList({ children }: { children: ReactNode }) {
  return (
    <dl className="divide-y divide-gray-200 rounded-lg border border-gray-200 dark:divide-gray-800 dark:border-gray-800">
      {children}
    </dl>
  );
}

export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-3 gap-4 px-4 py-2.5">
      <dt className="text-sm font-medium text-gray-600 dark:text-gray-400">{label}</dt>
      <dd className="col-span-2 min-w-0 break-words text-sm">{children}</dd>
    </div>
  );
}
