import type { ReactNode } from 'react';

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-gray-300 p-10 text-center dark:border-gray-700">
      <h2 className="text-base font-semibold">{title}</h2>
      {children ? <div className="mt-1 text-sm text-gray-600 dark:text-gray-400">{children}</div> : null}
      {action ? <div className="mt-4 flex justify-center">{action}</div> : null}
    </div>
  );
}
