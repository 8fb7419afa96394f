import { useBlocker } from '@tanstack/react-router';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';

/**
 * While `dirty`, leaving the page (another page of the app, or closing the tab) asks first.
 * Edits on the page itself (the URL's search changes) never ask.
 */
export function LeaveGuard({ dirty }: { dirty: boolean }) {
  const blocker = useBlocker({
    shouldBlockFn: ({ current, next }) => dirty && current.pathname !== next.pathname,
    enableBeforeUnload: () => dirty,
    withResolver: true,
  });
  const open = blocker.status === 'blocked';
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) blocker.reset?.();
      }}
      title="Leave without saving?"
      description="This insight has changes that are not saved. They will be lost."
    >
      <div className="flex justify-end gap-2">
        <Button onClick={() => blocker.reset?.()}>Stay</Button>
        <Button variant="danger" onClick={() => blocker.proceed?.()}>Leave without saving</Button>
      </div>
    </ConfirmDialog>
  );
}
