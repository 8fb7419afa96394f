import { useBlocker } from '@tanstack/react-router';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';

/**
 * While `dirty`, leaving the page (another page of the app, or closing the tab) asks first.
 * Edits on the page itself (the URL's search changes) never ask. The one guard of every page
 * that edits something before saving it (an insight, an organization's settings, a plugin's
 * source, a batch export); `what` names it in the question ("this insight").
 */
export function LeaveGuard({ dirty, what }: { dirty: boolean; what: string }) {
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
      description={`Your changes to ${what} are not saved. They will be lost.`}
    >
      <div className="flex justify-end gap-2">
        <Button onClick={() => blocker.reset?.()}>Stay</Button>
        <Button variant="danger" onClick={() => blocker.proceed?.()}>
          Leave without saving
        </Button>
      </div>
    </ConfirmDialog>
  );
}
