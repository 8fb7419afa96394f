import { useSuspenseQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { preloadable } from '@/lib/preloadable';
import { toast } from '@/lib/toast';
import { LeaveGuard } from '@/components/feedback/leave-guard';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { describeError } from '@/lib/error-messages';
import type { GroupSlug } from '../api/pipeline-groups';
import { usePipelineMutations } from '../api/pipeline.mutations';
import { groupEndpoints, pipelineQueries } from '../api/pipeline.queries';

const CodeEditor = preloadable(() => import('./code-editor')).Component;

interface CompileProblem {
  file: string;
  line: number | null;
  message: string;
}

/** `index.ts, line 2: Unexpected ";"` (the server's 400) → file, line, message. */
function problemOf(attr: string | null, detail: string): CompileProblem | null {
  if (!attr) return null;
  const line = /, line (\d+):/.exec(detail);
  return { file: attr, line: line ? Number(line[1]) : null, message: detail };
}

/** The plugin's files in tabs, edited in CodeMirror; saving compiles, a compile error is shown on its line. */
export function SourceEditor({ organizationId, slug, pluginId }: { organizationId: string; slug: GroupSlug; pluginId: number }) {
  const { data: plugin } = useSuspenseQuery(pipelineQueries.detail(organizationId, slug, pluginId));
  const { data: source } = useSuspenseQuery(pipelineQueries.source(organizationId, slug, pluginId));
  const [files, setFiles] = useState<Record<string, string>>(source);
  const names = Object.keys(files).sort((a, b) => (a === 'plugin.json' ? -1 : b === 'plugin.json' ? 1 : a.localeCompare(b)));
  const [current, setCurrent] = useState(names.find((n) => n !== 'plugin.json') ?? names[0] ?? 'plugin.json');
  const [problem, setProblem] = useState<CompileProblem | null>(null);
  const { updateSource } = usePipelineMutations(organizationId, slug);
  const changed = names.filter((n) => files[n] !== source[n]);

  const save = () => {
    setProblem(null);
    updateSource.mutate({ id: pluginId, files: Object.fromEntries(changed.map((n) => [n, files[n]!])) }, {
      onSuccess: () => toast.success('Saved and compiled'),
      onError: (error) => {
        const p = isApiError(error) ? problemOf(error.attr, error.detail) : null;
        if (p && files[p.file] !== undefined) {
          setProblem(p);
          setCurrent(p.file);
        } else toast.error(describeError(error));
      },
    });
  };

  return (
    <div className="space-y-4">
      <LeaveGuard dirty={changed.length > 0} what="the source" />
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Source of {plugin.name}</h1>
        <ScopedAction scope={groupEndpoints(slug).updateSource.access}>
          <Button variant="primary" onClick={save} disabled={updateSource.isPending || changed.length === 0}>
            {updateSource.isPending ? 'Compiling…' : 'Save'}
          </Button>
        </ScopedAction>
      </header>
      <div role="tablist" aria-label="Files" className="flex flex-wrap gap-1 border-b border-gray-200 dark:border-gray-800">
        {names.map((name) => (
          <button key={name} type="button" role="tab" id={`file-tab-${name}`} aria-selected={name === current} aria-controls="file-panel"
            onClick={() => setCurrent(name)}
            className={`rounded-t-md px-3 py-1.5 text-sm ${name === current ? 'border border-b-0 border-gray-300 bg-white font-medium dark:border-gray-600 dark:bg-gray-900' : 'text-gray-700 dark:text-gray-300'}`}>
            {name}{files[name] !== source[name] ? ' •' : ''}
          </button>
        ))}
      </div>
      {problem ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          {problem.message}
        </p>
      ) : null}
      <div id="file-panel" role="tabpanel" aria-labelledby={`file-tab-${current}`}>
        <Suspense fallback={<p className="text-sm">Loading the editor…</p>}>
          <CodeEditor key={current} fileName={current} value={files[current] ?? ''} label={`Contents of ${current}`}
            errorLine={problem?.file === current ? problem.line : null}
            onChange={(text) => setFiles((f) => ({ ...f, [current]: text }))} />
        </Suspense>
      </div>
    </div>
  );
}
