import { useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Plus, X } from 'lucide-react';
import { useMemo, useState, type FormEvent } from 'react';
import { toast } from '@/lib/toast';
import { INVITE_BULK_MAX, inviteEndpoints } from '@/contract/invites';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { FormError, TextareaField } from '@/components/form-kit';
import { PageTitle } from '@/components/layout/page-title';
import { Button } from '@/components/ui/button';
import { describeError } from '@/lib/error-messages';
import { peopleMutations } from '../api/people.mutations';
import { peopleQueries } from '../api/people.queries';
import { InviteRowFields } from './invite-row-fields';
import { PastedLines } from './pasted-lines';
import {
  ALREADY_INVITED, emptyRow, filledRows, pasteIntoRows, serverRowErrors, toBody, validateRows, type InviteRow, type PasteLine, type Pasted, type RowErrors,
} from './invite-rows';

const route = getRouteApi('/_authed/organizations/$organizationId/invites/new');

/** Invite one person or many: rows of email, name and level; a pasted list fills rows; errors per row. */
export function InviteForm() {
  const { organizationId } = route.useParams();
  const navigate = route.useNavigate();
  const { data: organization } = useSuspenseQuery(peopleQueries.organization(organizationId));
  const callerLevel = organization.membership_level ?? 1;
  const [rows, setRows] = useState<InviteRow[]>(() => [emptyRow()]);
  const [errors, setErrors] = useState<Map<number, RowErrors>>(new Map());
  const [formError, setFormError] = useState<string | undefined>();
  const [pasted, setPasted] = useState('');
  const [pasteNote, setPasteNote] = useState<string | null>(null);
  const [lines, setLines] = useState<PasteLine[]>([]);
  const { mutateAsync, isPending } = useMutation(peopleMutations.inviteMany(organizationId));
  // Pending invites (a page as large as an organization has): an address among them is asked about before it is sent again.
  const { data: invites } = useQuery(peopleQueries.invites(organizationId, { limit: 1000, offset: 0 }));
  const pendingInvites = useMemo(
    () => new Map((invites?.results ?? []).filter((i) => !i.is_expired).map((i) => [i.target_email.toLowerCase(), i] as const)),
    [invites],
  );
  const pending = useMemo(() => new Set(pendingInvites.keys()), [pendingInvites]);
  /** A row that replaces a pending invite keeps what that invite said unless the row says otherwise. */
  const asResend = (row: InviteRow): InviteRow => {
    const invite = pendingInvites.get(row.target_email.trim().toLowerCase());
    return { ...row, resend: true, first_name: row.first_name.trim() || (invite?.first_name ?? ''), level: invite && row.level === 1 ? (invite.level as InviteRow['level']) : row.level };
  };

  const update = (key: number, patch: Partial<InviteRow>) => {
    setFormError(undefined);
    setRows((current) => current.map((r) => (r.key === key ? { ...r, ...patch, ...('target_email' in patch ? { resend: false } : {}) } : r)));
    setErrors((current) => {
      if (!current.has(key)) return current;
      const next = new Map(current);
      next.delete(key);
      return next;
    });
  };

  /** "Invite again" on a pasted line whose address has a pending invite: a row that will replace it. */
  const resend = (entry: Pasted) => {
    const kept = filledRows(rows);
    if (kept.length >= INVITE_BULK_MAX) return;
    const next = [...kept, asResend({ ...emptyRow(), ...entry })];
    setRows(next);
    setLines((current) => current.map((l) => (l.status.kind === 'invited' && l.status.entry === entry ? { ...l, status: { kind: 'added', row: next.length } } : l)));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    const sent = filledRows(rows);
    if (sent.length === 0) {
      setFormError('Add at least one email address.');
      return;
    }
    const local = validateRows(sent, pending);
    setErrors(local);
    if (local.size > 0) {
      // Held back once: the next "Send invites" sends them again, replacing their pending invites.
      const again = new Set([...local].filter(([, e]) => e.target_email === ALREADY_INVITED && Object.keys(e).length === 1).map(([key]) => key));
      if (again.size > 0) {
        setRows((current) => current.map((r) => (again.has(r.key) ? asResend(r) : r)));
        setFormError(again.size === local.size
          ? `${again.size === 1 ? 'This address is' : `${again.size} addresses are`} already invited. Send invites again to replace ${again.size === 1 ? 'that invite' : 'those invites'}, or remove ${again.size === 1 ? 'the row' : 'the rows'}.`
          : 'Nobody was invited: fix the rows marked below and send again.');
      }
      return;
    }
    try {
      const created = await mutateAsync(sent.map(toBody));
      toast.success(created.length === 1 ? `Invite sent to ${created[0]!.target_email}` : `${created.length} invites sent`);
      await navigate({ to: '/organizations/$organizationId/invites', params: { organizationId } });
    } catch (error) {
      const byRow = serverRowErrors(error, sent);
      if (byRow && byRow.size > 0) {
        setErrors(byRow);
        setFormError(`Nobody was invited: fix the ${byRow.size === 1 ? 'row' : `${byRow.size} rows`} marked below and send again.`);
      } else {
        setFormError(describeError(error));
      }
    }
  };

  return (
    <>
      <PageTitle title="Invite people" description={`Invite up to ${INVITE_BULK_MAX} people to ${organization.name} at once. Each gets an email with a link that works for 3 days.`} />
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-6 max-w-3xl space-y-4">
        <FormError message={formError} />
        <ol className="space-y-3" aria-label="People to invite">
          {rows.map((row, index) => (
            <li key={row.key} className="flex flex-wrap items-start gap-3">
              <InviteRowFields row={row} index={index} errors={errors.get(row.key)} callerLevel={callerLevel} onChange={(patch) => update(row.key, patch)} />
              <Button
                size="sm"
                className="mt-6"
                aria-label={`Remove row ${index + 1}`}
                disabled={rows.length === 1}
                onClick={() => setRows((current) => current.filter((r) => r.key !== row.key))}
              >
                <X aria-hidden="true" className="size-4" />
              </Button>
            </li>
          ))}
        </ol>
        <Button size="sm" disabled={rows.length >= INVITE_BULK_MAX} onClick={() => setRows((current) => [...current, emptyRow()])}>
          <Plus aria-hidden="true" className="size-4" />
          Add row
        </Button>
        <details className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
          <summary className="cursor-pointer text-sm font-medium">Paste a list of emails</summary>
          <div className="mt-3 space-y-2">
            <TextareaField label="Emails" description="One per line, or separated by commas. “Name <email>” works too." rows={4}
              value={pasted} onChange={(event) => {
                setPasted(event.target.value);
                setPasteNote(null);
              }} />
            <Button size="sm" onClick={() => {
              const result = pasteIntoRows(rows, pasted, pending);
              if (result.lines.length === 0) {
                setPasteNote('No email address found in the text.');
                setLines([]);
                return;
              }
              setRows(result.rows);
              setLines(result.lines);
              setErrors(new Map());
              setFormError(undefined);
              // Nothing pasted is lost: what was not added (and cannot be asked for below) stays in the box.
              setPasted(result.left);
              const added = result.lines.filter((l) => l.status.kind === 'added').length;
              setPasteNote(`${added} of ${result.lines.length} ${result.lines.length === 1 ? 'line' : 'lines'} added to the rows${result.left ? '; the lines not added stay in the box' : ''}.`);
            }}>
              Fill rows
            </Button>
            {/* Always there, so a screen reader hears the text when it comes. */}
            <p role="status" className="text-sm empty:hidden">{pasteNote}</p>
            <PastedLines lines={lines} onResend={(entry) => resend(entry)} canAdd={filledRows(rows).length < INVITE_BULK_MAX} />
          </div>
        </details>
        <div className="flex gap-3 border-t border-gray-200 pt-4 dark:border-gray-700">
          <ScopedAction scope={inviteEndpoints.bulk.access}>
            <Button variant="primary" type="submit" disabled={isPending}>
              {isPending ? 'Sending…' : 'Send invites'}
            </Button>
          </ScopedAction>
          <Button onClick={() => void navigate({ to: '/organizations/$organizationId/invites', params: { organizationId } })}>Cancel</Button>
        </div>
      </form>
    </>
  );
}
