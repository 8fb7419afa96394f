import { zodResolver } from '@hookform/resolvers/zod';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { preloadable } from '@/lib/preloadable';
import { toast } from '@/lib/toast';
import { pluginSourceTextSchema } from '@/contract/plugins';
import { z } from '@/contract/z';
import { LeaveGuard } from '@/components/feedback/leave-guard';
import { applyServerError, FormError, FormFooter } from '@/components/form-kit';
import { isApiError } from '@/lib/api-client';
import type { GroupSlug } from '../api/pipeline-groups';
import { usePipelineMutations } from '../api/pipeline.mutations';
import { groupEndpoints, pipelineQueries } from '../api/pipeline.queries';

const CodeEditor = preloadable(() => import('./code-editor')).Component;

// Files as a list: their names have dots, which react-hook-form would read as nested paths.
const sourceFormSchema = z.object({ files: z.array(z.object({ name: z.string(), text: pluginSourceTextSchema })) });
type SourceFormValues = z.output<typeof sourceFormSchema>;

/** `index.ts, line 2: Unexpected ";"` (the server's 400 with attr `index.ts`) → the line. */
const lineOf = (message: string | undefined) => {
  const line = message ? /, line (\d+):/.exec(message) : null;
  return line ? Number(line[1]) : null;
};

/** The plugin's files in tabs, edited in CodeMirror; saving compiles, a compile error is shown on its file and line. */
export function SourceEditor({
  organizationId,
  slug,
  pluginId,
}: {
  organizationId: string;
  slug: GroupSlug;
  pluginId: number;
}) {
  const { data: plugin } = useSuspenseQuery(pipelineQueries.detail(organizationId, slug, pluginId));
  const { data: source } = useSuspenseQuery(pipelineQueries.source(organizationId, slug, pluginId));
  const [names] = useState(() =>
    Object.keys(source).sort((a, b) => (a === 'plugin.json' ? -1 : b === 'plugin.json' ? 1 : a.localeCompare(b))),
  );
  const form = useForm<SourceFormValues>({
    resolver: zodResolver(sourceFormSchema),
    defaultValues: { files: names.map((name) => ({ name, text: source[name] ?? '' })) },
  });
  const files = useWatch({ control: form.control, name: 'files' });
  const [current, setCurrent] = useState(() =>
    Math.max(
      0,
      names.findIndex((n) => n !== 'plugin.json'),
    ),
  );
  const { updateSource } = usePipelineMutations(organizationId, slug);
  const changed = files.filter((f) => f.text !== source[f.name]);
  // A refused file may not be the one open: its editor takes focus once it has opened.
  const [focusWhenOpen, setFocusWhenOpen] = useState<number | null>(null);

  const onSubmit = form.handleSubmit(async (values) => {
    const sent = values.files.filter((f) => f.text !== source[f.name]);
    try {
      await updateSource.mutateAsync({ id: pluginId, files: Object.fromEntries(sent.map((f) => [f.name, f.text])) });
      toast.success('Saved and compiled');
    } catch (error) {
      // A compile error names its file (attr) and line (detail): it goes on that file, opened.
      const index = isApiError(error) && error.status === 400 ? names.indexOf(error.attr ?? '') : -1;
      if (!isApiError(error) || index < 0) {
        applyServerError(form, error, []);
        return;
      }
      if (index !== current) setFocusWhenOpen(index);
      setCurrent(index);
      form.setError(
        `files.${index}.text`,
        { type: 'server', message: error.detail },
        { shouldFocus: index === current },
      );
    }
  });
  const { errors, isSubmitting } = form.formState;
  const problems = names.flatMap((name, i) =>
    errors.files?.[i]?.text?.message ? [{ name, i, message: errors.files[i].text.message }] : [],
  );
  const name = names[current] ?? 'plugin.json';
  const errorId = `file-error-${current}`;

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4" aria-labelledby="source-heading">
      <LeaveGuard dirty={changed.length > 0} what="the source" />
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="source-heading" className="text-2xl font-semibold">
          Source of {plugin.name}
        </h1>
        <div>
          <FormFooter
            error={undefined}
            submitLabel="Save"
            pendingLabel="Compiling…"
            isSubmitting={isSubmitting}
            disabled={changed.length === 0}
            scope={groupEndpoints(slug).updateSource.access}
          />
        </div>
      </header>
      <div
        role="tablist"
        aria-label="Files"
        className="flex flex-wrap gap-1 border-b border-gray-200 dark:border-gray-800"
      >
        {names.map((n, i) => (
          <button
            key={n}
            type="button"
            role="tab"
            id={`file-tab-${n}`}
            aria-selected={i === current}
            aria-controls="file-panel"
            onClick={() => setCurrent(i)}
            className={`rounded-t-md px-3 py-1.5 text-sm ${i === current ? 'border border-b-0 border-gray-300 bg-white font-medium dark:border-gray-600 dark:bg-gray-900' : 'text-gray-700 dark:text-gray-300'}`}
          >
            {n}
            {files[i]?.text !== source[n] ? ' •' : ''}
          </button>
        ))}
      </div>
      <FormError message={errors.root?.server?.message} />
      {problems.map((p) => (
        <p
          key={p.name}
          id={`file-error-${p.i}`}
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {p.message}
        </p>
      ))}
      <div id="file-panel" role="tabpanel" aria-labelledby={`file-tab-${name}`}>
        <Suspense fallback={<p className="text-sm">Loading the editor…</p>}>
          <Controller
            key={current}
            control={form.control}
            name={`files.${current}.text`}
            render={({ field, fieldState }) => (
              <CodeEditor
                fileName={name}
                value={field.value}
                label={`Contents of ${name}`}
                onChange={field.onChange}
                errorLine={lineOf(fieldState.error?.message)}
                describedBy={fieldState.error ? errorId : undefined}
                editorRef={(editor) => {
                  field.ref(editor);
                  if (editor && focusWhenOpen === current) {
                    setFocusWhenOpen(null);
                    editor.focus();
                  }
                }}
              />
            )}
          />
        </Suspense>
      </div>
    </form>
  );
}
