import { useQuery } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { insightEndpoints } from '@/contract/insights';
import { describeError } from '@/lib/error-messages';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { ConfirmDialog, ConfirmDialogCancel, Modal } from '@/components/ui/dialog';
import { Switch } from '@/components/ui/switch';
import { useRotateSharing, useSetSharing } from '../api/insights.mutations';
import { insightQueries } from '../api/insights.queries';

/** The public address of a shared insight: this app's `/shared/<token>` page. */
export const sharedLink = (accessToken: string) => `${window.location.origin}/shared/${accessToken}`;

interface SharingDialogProps {
  projectId: number;
  insightId: number;
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Sharing: on or off, the link to copy, and a new link (the old one stops at once) behind a confirm. */
export function SharingDialog({ projectId, insightId, title, open, onOpenChange }: SharingDialogProps) {
  const {
    data: sharing,
    error,
    isPending,
  } = useQuery({ ...insightQueries.sharing(projectId, insightId), enabled: open });
  const setSharing = useSetSharing(projectId, insightId);
  const rotate = useRotateSharing(projectId, insightId);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const switchId = useId();
  const linkId = useId();
  const failure = error ?? setSharing.error ?? rotate.error;

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={`Share “${title}”`}
      description="Anyone with the link can see this insight's chart, without signing in."
    >
      <div className="space-y-4">
        {isPending ? <p role="status">Loading the sharing settings…</p> : null}
        {sharing ? (
          <>
            <div className="flex items-center gap-3">
              <ScopedAction scope={insightEndpoints.sharingUpdate.access}>
                <Switch
                  id={switchId}
                  checked={sharing.enabled}
                  disabled={setSharing.isPending}
                  onCheckedChange={(enabled) => setSharing.mutate(enabled)}
                />
              </ScopedAction>
              <label htmlFor={switchId} className="text-sm font-medium">
                Share with a link
              </label>
            </div>
            {sharing.enabled && sharing.access_token ? (
              <div className="space-y-2">
                <label htmlFor={linkId} className="block text-sm font-medium">
                  Link
                </label>
                <div className="flex gap-2">
                  <input
                    id={linkId}
                    readOnly
                    value={sharedLink(sharing.access_token)}
                    onFocus={(event) => event.target.select()}
                    className="block w-full rounded-md border border-gray-300 bg-gray-50 px-3 py-1.5 font-mono text-xs dark:border-gray-600 dark:bg-gray-800"
                  />
                  <CopyButton value={sharedLink(sharing.access_token)} what="link" />
                </div>
                <ScopedAction scope={insightEndpoints.sharingRefresh.access}>
                  <Button size="sm" onClick={() => setConfirmRotate(true)} disabled={rotate.isPending}>
                    <RefreshCw aria-hidden="true" className="size-4" />
                    New link
                  </Button>
                </ScopedAction>
              </div>
            ) : (
              <p className="text-sm text-gray-700 dark:text-gray-300">
                Sharing is off: only people with an API key of this project see it.
              </p>
            )}
          </>
        ) : null}
        {failure ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {describeError(failure)}
          </p>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirmRotate}
        onOpenChange={setConfirmRotate}
        title="Replace the link?"
        description="The current link stops working at once: whoever has it can no longer open the insight."
      >
        <div className="flex justify-end gap-2">
          <ConfirmDialogCancel asChild>
            <Button>Cancel</Button>
          </ConfirmDialogCancel>
          <Button
            variant="danger"
            onClick={() => {
              setConfirmRotate(false);
              rotate.mutate();
            }}
          >
            Replace link
          </Button>
        </div>
      </ConfirmDialog>
    </Modal>
  );
}
