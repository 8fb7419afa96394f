import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Plus, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
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
import { emptyRow, fillRows, filledRows, parsePastedEmails, pastedText, serverRowErrors, toBody, validateRows, type InviteRow, type RowErrors } from './invite-rows';

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
  const { mutateAsync, isPending } = useMutation(peopleMutations.inviteMany(organizationId));

  const update = (key: number, patch: Partial<InviteRow>) => {
    setRows((current) => current.map((r) => (r.key === key ? { ...r, ...patch } : r)));
    setErrors((current) => {
      if (!current.has(key)) return current;
      const next = new Map(current);
      next.delete(key);
      return next;
    });
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    const sent = filledRows(rows);
    if (sent.length === 0) {
      setFormError('Add at least one email address.');
      return;
    }
    const local = validateRows(sent);
    setErrors(local);
    if (local.size > 0) return;
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
              const found = parsePastedEmails(pasted);
              if (found.length === 0) {
                setPasteNote('No email address found in the text.');
                return;
              }
              // Nothing pasted is lost: what does not fit in this invite stays in the box.
              const { rows: next, left } = fillRows(rows, found);
              setRows(next);
              setPasted(pastedText(left));
              setPasteNote(left.length === 0 ? null
                : `One invite sends at most ${INVITE_BULK_MAX} people: ${left.length} ${left.length === 1 ? 'address stays' : 'addresses stay'} here for the next one.`);
            }}>
              Fill rows
            </Button>
            {/* Always there, so a screen reader hears the text when it comes. */}
            <p role="status" className="text-sm text-amber-800 empty:hidden dark:text-amber-300">{pasteNote}</p>
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
