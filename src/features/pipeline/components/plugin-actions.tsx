import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import type { Plugin } from '@/contract/plugins';
import { ConfirmDelete } from '@/components/feedback/confirm-delete';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button, buttonClasses } from '@/components/ui/button';
import { ConfirmDialog, ConfirmDialogCancel } from '@/components/ui/dialog';
import { describeError } from '@/lib/error-messages';
import type { GroupSlug } from '../api/pipeline-groups';
import { pipelineKeys } from '../api/pipeline.keys';
import { usePipelineMutations } from '../api/pipeline.mutations';
import { groupEndpoints } from '../api/pipeline.queries';
import { updateAvailable } from './plugin-badges';

/** Check for updates, upgrade (the tag change shown first), edit source, delete behind a confirm. */
export function PluginActions({
  organizationId,
  slug,
  plugin,
  onDeleted,
}: {
  organizationId: string;
  slug: GroupSlug;
  plugin: Plugin;
  onDeleted: () => Promise<void>;
}) {
  const m = usePipelineMutations(organizationId, slug);
  const queryClient = useQueryClient();
  const e = groupEndpoints(slug);
  const [confirmUpgrade, setConfirmUpgrade] = useState(false);
  return (
    <div className="flex flex-wrap items-center gap-2">
      {plugin.plugin_type === 'source' ? (
        <Link
          to="/organizations/$organizationId/pipeline/$group/$pluginId/source"
          params={{ organizationId, group: slug, pluginId: plugin.id }}
          className={buttonClasses('secondary')}
        >
          Edit source
        </Link>
      ) : null}
      {plugin.url ? (
        <ScopedAction scope={e.checkForUpdates.access}>
          <Button
            disabled={m.checkForUpdates.isPending}
            onClick={() =>
              m.checkForUpdates.mutate(plugin.id, {
                onSuccess: (p) =>
                  toast.success(updateAvailable(p) ? `Version ${p.latest_tag} is available` : 'This app is up to date'),
                onError: (err) => toast.error(describeError(err)),
              })
            }
          >
            Check for updates
          </Button>
        </ScopedAction>
      ) : null}
      {updateAvailable(plugin) ? (
        <ScopedAction scope={e.upgrade.access}>
          <Button variant="primary" onClick={() => setConfirmUpgrade(true)}>
            Upgrade…
          </Button>
        </ScopedAction>
      ) : null}
      <ConfirmDialog
        open={confirmUpgrade}
        onOpenChange={setConfirmUpgrade}
        title={`Upgrade ${plugin.name ?? ''}`}
        description={
          <>
            Version <code>{plugin.tag}</code> → <code>{plugin.latest_tag}</code>. Its files are replaced by the new
            version’s; its configs stay.
          </>
        }
      >
        <div className="flex justify-end gap-2">
          <ConfirmDialogCancel className={buttonClasses('secondary')}>Cancel</ConfirmDialogCancel>
          <Button
            variant="primary"
            disabled={m.upgrade.isPending}
            onClick={() =>
              m.upgrade.mutate(plugin.id, {
                onSuccess: (p) => {
                  toast.success(`Upgraded to ${p.tag}`);
                  setConfirmUpgrade(false);
                },
                onError: (err) => toast.error(describeError(err)),
              })
            }
          >
            Upgrade to {plugin.latest_tag}
          </Button>
        </div>
      </ConfirmDialog>
      <ConfirmDelete
        triggerLabel="Delete"
        scope={e.destroy.access}
        title={`Delete ${plugin.name ?? 'this app'}`}
        description={
          <>
            This removes <strong>{plugin.name}</strong> and its configuration in every project: it stops running at
            once.
          </>
        }
        confirmLabel={`Delete ${plugin.name ?? ''}`}
        onConfirm={async () => {
          await m.destroy.mutateAsync(plugin.id);
          toast.success(`“${plugin.name}” deleted`);
          await onDeleted();
          // Once the page has left it: Back to it then asks the server, which says Not found.
          queryClient.removeQueries({ queryKey: pipelineKeys.detail(organizationId, slug, plugin.id) });
        }}
      />
    </div>
  );
}
