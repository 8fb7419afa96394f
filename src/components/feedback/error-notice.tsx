import { AlertTriangle } from 'lucide-react';
import type { ReactNode } from 'react';
import { describeError } from '@/lib/error-messages';
import { cn } from '@/components/ui/cn';

/**
 * A failure in words, where the failed thing would be: what failed (`title`, as a heading or a
 * bold line), the error as people read it, and what can be done (`children`: Try again, a way
 * up). The one look of a page that failed (RouteError) and of a part of one (SectionBoundary).
 */
export function ErrorNotice({
  title,
  error,
  as: Title = 'p',
  className,
  children,
}: {
  title: string;
  error: unknown;
  as?: 'h1' | 'h2' | 'p';
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      role="alert"
      className={cn(
        'rounded-lg border border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100',
        className,
      )}
    >
      <div className="flex items-start gap-3">
        <AlertTriangle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-700 dark:text-red-300" />
        <div className="space-y-3">
          <Title className={Title === 'p' ? 'text-sm font-medium' : 'text-lg font-semibold'}>{title}</Title>
          <p className="text-sm">{describeError(error)}</p>
          <div className="flex flex-wrap gap-2">{children}</div>
        </div>
      </div>
    </div>
  );
}
