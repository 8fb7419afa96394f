import type { ReactNode } from 'react';

/** The page's h1 with a one-line description under it. */
export function PageTitle({ title, description }: { title: ReactNode; description: ReactNode }) {
  return (
    <div className="min-w-0">
      <h1 className="text-2xl font-semibold wrap-anywhere">{title}</h1>
      <p className="mt-1 text-sm text-gray-600 wrap-anywhere dark:text-gray-400">{description}</p>
    </div>
  );
}
