import { useMutation } from '@tanstack/react-query';
import { CircleCheck, CircleMinus, CircleX, LoaderCircle, PlugZap, type LucideIcon } from 'lucide-react';
import { batchExportEndpoints, type ConnectionStepStatus, type ConnectionTest } from '@/contract/batch-exports';
import type { Scope } from '@/contract/common';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { describeError } from '@/lib/error-messages';
import { batchExportMutations } from '../api/batch-exports.mutations';

const STEP: Record<ConnectionStepStatus, { icon: LucideIcon; label: string; className: string }> = {
  passed: { icon: CircleCheck, label: 'Passed', className: 'text-green-700 dark:text-green-400' },
  failed: { icon: CircleX, label: 'Failed', className: 'text-red-700 dark:text-red-400' },
  skipped: { icon: CircleMinus, label: 'Skipped', className: 'text-gray-600 dark:text-gray-400' },
};

interface ConnectionTestProps {
  scope: Scope;
  onTest: () => void;
  pending: boolean;
  result: ConnectionTest | undefined;
  /** A failure to run the test at all (network, 5xx, a 400 that names no field). */
  error: unknown;
  /** What is tested, for the hint beside the button. */
  hint?: string;
}

function summary(result: ConnectionTest): string {
  if (result.ok) return 'Connection works: every step passed.';
  const failed = result.steps.find((step) => step.status === 'failed');
  return failed ? `Connection failed at “${failed.step}”.` : 'The connection could not be confirmed.';
}

/**
 * "Test connection" and what it found: one line per step, its status as an icon and in words.
 * The result region is live, so a screen reader hears the outcome without moving focus.
 */
export function ConnectionTestPanel({ scope, onTest, pending, result, error, hint }: ConnectionTestProps) {
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <ScopedAction scope={scope}>
          {/* Stays enabled while testing (aria-disabled): disabling it would drop the keyboard's focus. */}
          <Button onClick={() => (pending ? undefined : onTest())} aria-disabled={pending || undefined}>
            {pending ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            ) : (
              <PlugZap aria-hidden="true" className="size-4" />
            )}
            {pending ? 'Testing connection…' : 'Test connection'}
          </Button>
        </ScopedAction>
        {hint ? <span className="text-sm text-gray-600 dark:text-gray-400">{hint}</span> : null}
      </div>
      <div role="status" aria-live="polite" aria-busy={pending} className="space-y-2">
        {!pending && error !== null && error !== undefined ? (
          <p className="text-sm text-red-800 dark:text-red-300">The test could not run: {describeError(error)}</p>
        ) : null}
        {!pending && result ? (
          <>
            <p
              className={cn(
                'text-sm font-medium',
                result.ok ? 'text-green-800 dark:text-green-300' : 'text-red-800 dark:text-red-300',
              )}
            >
              {summary(result)}
            </p>
            <ol aria-label="Connection test steps" className="space-y-1.5">
              {result.steps.map((step, index) => {
                const { icon: Icon, label, className } = STEP[step.status];
                return (
                  <li key={`${index}:${step.step}`} className="flex gap-2 text-sm">
                    <Icon aria-hidden="true" className={cn('mt-0.5 size-4 shrink-0', className)} />
                    <span className="min-w-0">
                      <span className={cn('font-medium', className)}>{label}:</span>{' '}
                      <span className="font-medium text-gray-900 dark:text-gray-100">{step.step}</span>
                      <span className="block break-words text-gray-700 dark:text-gray-300">{step.detail}</span>
                    </span>
                  </li>
                );
              })}
            </ol>
          </>
        ) : null}
      </div>
    </div>
  );
}

/** Tests an export's destination as saved (its secrets included, never sent to the browser). */
export function StoredConnectionTest({
  organizationId,
  batchExportId,
}: {
  organizationId: string;
  batchExportId: string;
}) {
  const test = useMutation(batchExportMutations.testExportConnection(organizationId, batchExportId));
  return (
    <ConnectionTestPanel
      scope={batchExportEndpoints.testExportConnection.access}
      onTest={() => test.mutate({})}
      pending={test.isPending}
      result={test.data}
      error={test.error}
      hint="Tries the saved settings. Nothing changes."
    />
  );
}
