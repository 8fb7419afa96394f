import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { BarChart3, Building2, DatabaseZap, FolderKanban, Keyboard, LogOut, Pause, Plus } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useState, type ReactNode } from 'react';
import { useFocusReturn } from '@/lib/focus-return';
import { toast } from '@/lib/toast';
import { Command, CommandGroup, CommandInput, CommandItem, CommandList, CommandStatus } from '@/components/ui/command';
import { batchExportEndpoints } from '@/contract/batch-exports';
import { apiRequest } from '@/lib/api-client';
import { useSignOut } from '@/lib/auth';
import { describeError } from '@/lib/error-messages';
import { organizationScope } from '@/lib/query-keys';
import { useDebounced } from '@/lib/use-debounced';
import { matches, PALETTE_GROUP_SIZE, paletteRoot, usePaletteSources, type PaletteExport } from './palette-sources';

interface CommandPaletteProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onShowShortcuts: () => void;
}

const icon = (Icon: typeof Plus) => (
  <Icon aria-hidden="true" className="size-4 shrink-0 text-gray-500 dark:text-gray-400" />
);

function Hint({ children }: { children: ReactNode }) {
  return <span className="ml-auto truncate pl-2 text-xs text-gray-600 dark:text-gray-400">{children}</span>;
}

/**
 * ⌘K / Ctrl+K: jump to any organization, project, batch export or insight by name, or run a
 * common action (new export, new insight, pause an export, sign out, the shortcuts). Loaded on
 * first open (see palette-launcher.tsx).
 */
export default function CommandPalette({ open, onOpenChange, onShowShortcuts }: CommandPaletteProps) {
  const focusReturn = useFocusReturn(open);
  const [search, setSearch] = useState('');
  // 'pause': the list is the active exports, and picking one pauses it.
  const [mode, setMode] = useState<'all' | 'pause'>('all');
  const term = useDebounced(search, 200);
  const sources = usePaletteSources(term, open);
  const navigate = useNavigate();
  const signOut = useSignOut();
  const queryClient = useQueryClient();
  const params = useParams({ strict: false });

  const close = () => {
    onOpenChange(false);
    setSearch('');
    setMode('all');
  };
  const go = (navigation: () => Promise<void>) => {
    close();
    void navigation();
  };
  const currentProjectId = params.projectId ?? sources.projects[0]?.id;
  const currentOrganizationId =
    params.organizationId ??
    sources.projects.find((p) => p.id === params.projectId)?.organizationId ??
    sources.organizations[0]?.id;

  async function pause(batchExport: PaletteExport) {
    close();
    try {
      await apiRequest(batchExportEndpoints.pause, {
        params: { organization_id: batchExport.organizationId, id: batchExport.id },
      });
      toast.success(`Paused “${batchExport.name}”`);
    } catch (error) {
      toast.error(`Couldn't pause “${batchExport.name}”: ${describeError(error)}`);
    }
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: organizationScope(batchExport.organizationId) }),
      queryClient.invalidateQueries({ queryKey: paletteRoot }),
    ]);
  }

  const pick = <T extends { name: string }>(items: readonly T[]) =>
    items.filter((i) => matches(i.name, search)).slice(0, PALETTE_GROUP_SIZE);
  const actions = [
    currentOrganizationId !== undefined && {
      id: 'new-export',
      label: 'New batch export',
      icon: Plus,
      run: () =>
        go(() =>
          navigate({
            to: '/organizations/$organizationId/batch-exports/new',
            params: { organizationId: currentOrganizationId },
          }),
        ),
    },
    currentProjectId !== undefined && {
      id: 'new-insight',
      label: 'New insight (trends)',
      icon: Plus,
      run: () =>
        go(() =>
          navigate({
            to: '/projects/$projectId/insights/new/$kind',
            params: { projectId: currentProjectId, kind: 'trends' },
          }),
        ),
    },
    {
      id: 'pause',
      label: 'Pause a batch export…',
      icon: Pause,
      run: () => {
        setMode('pause');
        setSearch('');
      },
    },
    {
      id: 'shortcuts',
      label: 'Keyboard shortcuts',
      icon: Keyboard,
      run: () => {
        close();
        onShowShortcuts();
      },
    },
    {
      id: 'sign-out',
      label: 'Sign out',
      icon: LogOut,
      run: () => {
        close();
        void signOut();
      },
    },
  ]
    .filter((a) => a !== false)
    .filter((a) => matches(a.label, search));

  const organizations = pick(sources.organizations);
  const projects = pick(sources.projects);
  const exports = mode === 'pause' ? pick(sources.exports.filter((e) => !e.paused)) : pick(sources.exports);
  const insights = sources.insights.slice(0, PALETTE_GROUP_SIZE);
  const nothing = actions.length + organizations.length + projects.length + exports.length + insights.length === 0;
  const orgName = (id: string) => sources.organizations.find((o) => o.id === id)?.name;

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content
          aria-describedby={undefined}
          {...focusReturn}
          className="fixed left-1/2 top-[10vh] z-50 w-[min(36rem,calc(100vw-1.5rem))] -translate-x-1/2 rounded-lg border border-gray-200 bg-white p-3 shadow-xl dark:border-gray-700 dark:bg-gray-900"
        >
          <Dialog.Title className="sr-only">
            {mode === 'pause' ? 'Pause a batch export' : 'Command palette'}
          </Dialog.Title>
          <Command label={mode === 'pause' ? 'Pause a batch export' : 'Command palette'} shouldFilter={false} loop>
            <CommandInput
              value={search}
              onValueChange={setSearch}
              placeholder={
                mode === 'pause' ? 'Which export? Type its name…' : 'Go to an organization, project, export or insight…'
              }
              onKeyDown={(event) => {
                if (event.key === 'Backspace' && search === '' && mode === 'pause') setMode('all');
              }}
            />
            <CommandList label="Results" className="max-h-[min(24rem,60vh)]">
              {nothing && !sources.loading ? <CommandStatus>Nothing matches “{search}”.</CommandStatus> : null}
              {nothing && sources.loading ? <CommandStatus>Searching…</CommandStatus> : null}
              {mode === 'all' && actions.length > 0 ? (
                <CommandGroup heading="Actions">
                  {actions.map((a) => (
                    <CommandItem key={a.id} value={`action:${a.id}`} onSelect={a.run}>
                      {icon(a.icon)}
                      {a.label}
                    </CommandItem>
                  ))}
                </CommandGroup>
              ) : null}
              {exports.length > 0 ? (
                <CommandGroup heading={mode === 'pause' ? 'Active batch exports' : 'Batch exports'}>
                  {exports.map((e) => (
                    <CommandItem
                      key={e.id}
                      value={`export:${e.id}`}
                      onSelect={() =>
                        mode === 'pause'
                          ? void pause(e)
                          : go(() =>
                              navigate({
                                to: '/organizations/$organizationId/batch-exports/$batchExportId',
                                params: { organizationId: e.organizationId, batchExportId: e.id },
                              }),
                            )
                      }
                    >
                      {icon(mode === 'pause' ? Pause : DatabaseZap)}
                      <span className="truncate">{e.name}</span>
                      <Hint>
                        {e.organizationName}
                        {e.paused ? ' · paused' : ''}
                      </Hint>
                    </CommandItem>
                  ))}
                </CommandGroup>
              ) : null}
              {mode === 'all' && insights.length > 0 ? (
                <CommandGroup heading="Insights">
                  {insights.map((i) => (
                    <CommandItem
                      key={`${i.projectId}:${i.id}`}
                      value={`insight:${i.projectId}:${i.id}`}
                      onSelect={() =>
                        go(() =>
                          navigate({
                            to: '/projects/$projectId/insights/$insightId',
                            params: { projectId: i.projectId, insightId: i.shortId },
                          }),
                        )
                      }
                    >
                      {icon(BarChart3)}
                      <span className="truncate">{i.name}</span>
                      <Hint>{i.projectName}</Hint>
                    </CommandItem>
                  ))}
                </CommandGroup>
              ) : null}
              {mode === 'all' && organizations.length > 0 ? (
                <CommandGroup heading="Organizations">
                  {organizations.map((o) => (
                    <CommandItem
                      key={o.id}
                      value={`organization:${o.id}`}
                      onSelect={() =>
                        go(() => navigate({ to: '/organizations/$organizationId', params: { organizationId: o.id } }))
                      }
                    >
                      {icon(Building2)}
                      <span className="truncate">{o.name}</span>
                    </CommandItem>
                  ))}
                </CommandGroup>
              ) : null}
              {mode === 'all' && projects.length > 0 ? (
                <CommandGroup heading="Projects">
                  {projects.map((p) => (
                    <CommandItem
                      key={p.id}
                      value={`project:${p.id}`}
                      onSelect={() => go(() => navigate({ to: '/projects/$projectId', params: { projectId: p.id } }))}
                    >
                      {icon(FolderKanban)}
                      <span className="truncate">{p.name}</span>
                      <Hint>{orgName(p.organizationId)}</Hint>
                    </CommandItem>
                  ))}
                </CommandGroup>
              ) : null}
            </CommandList>
          </Command>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
