import { useState, type FormEvent } from 'react';
import { toast } from '@/lib/toast';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { TextField } from '@/components/form-kit/fields';
import { Button } from '@/components/ui/button';
import { describeError } from '@/lib/error-messages';
import type { GroupSlug } from '../api/pipeline-groups';
import { usePipelineMutations } from '../api/pipeline.mutations';
import { groupEndpoints } from '../api/pipeline.queries';

/** Import apps have no repository endpoint (the API gives them list, create, retrieve): install by URL. */
export function InstallByUrl({ organizationId, slug }: { organizationId: string; slug: GroupSlug }) {
  const { create } = usePipelineMutations(organizationId, slug);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    create.mutate({ plugin_type: 'repository', url: url.trim() }, {
      onSuccess: (plugin) => {
        toast.success(`“${plugin.name}” installed`);
        setUrl('');
      },
      onError: (e) => setError(describeError(e)),
    });
  };
  return (
    <section aria-labelledby="install-url-heading" className="space-y-3">
      <h2 id="install-url-heading" className="text-lg font-semibold">Install from the repository</h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <TextField
          label="Repository URL" type="url" value={url} onChange={(event) => setUrl(event.target.value)} error={error} required className="w-96"
          description="For example https://github.com/analytics-plugins/csv-import"
        />
        <ScopedAction scope={groupEndpoints(slug).create.access}>
          <Button type="submit" disabled={create.isPending || url.trim() === ''}>Install</Button>
        </ScopedAction>
      </form>
    </section>
  );
}
