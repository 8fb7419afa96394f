import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Plus, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useFieldArray, useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { toast } from '@/lib/toast';
import { INVITE_BULK_MAX, inviteEndpoints } from '@/contract/invites';
import { applyServerError, FormFooter, TextareaField } from '@/components/form-kit';
import { PageTitle } from '@/components/layout/page-title';
import { Button } from '@/components/ui/button';
import { peopleMutations } from '../api/people.mutations';
import { peopleQueries } from '../api/people.queries';
import { InviteRowFields } from './invite-row-fields';
import { PastedLines } from './pasted-lines';
import {
  emptyRow,
  filledRows,
  inviteRowsSchema,
  onlyAlreadyInvited,
  pasteIntoRows,
  serverRowErrors,
  type InviteFormValues,
  type InviteRow,
  type PasteLine,
  type Pasted,
  type RowField,
  type SentRow,
} from './invite-rows';

const route = getRouteApi('/_authed/organizations/$organizationId/invites/new');

/** Invite one person or many: rows of email, name and level; a pasted list fills rows; errors per row. */
export function InviteForm() {
  const { organizationId } = route.useParams();
  const navigate = route.useNavigate();
  const { data: organization } = useSuspenseQuery(peopleQueries.organization(organizationId));
  const callerLevel = organization.membership_level ?? 1;
  const [pasted, setPasted] = useState('');
  const [pasteNote, setPasteNote] = useState<string | null>(null);
  const [lines, setLines] = useState<PasteLine[]>([]);
  const { mutateAsync } = useMutation(peopleMutations.inviteMany(organizationId));
  // Pending invites (a page as large as an organization has): an address among them is asked about before it is sent again.
  const { data: invites } = useQuery(peopleQueries.invites(organizationId, { limit: 1000, offset: 0 }));
  const pendingInvites = useMemo(
    () =>
      new Map(
        (invites?.results ?? []).filter((i) => !i.is_expired).map((i) => [i.target_email.toLowerCase(), i] as const),
      ),
    [invites],
  );
  const schema = useMemo(() => inviteRowsSchema(new Set(pendingInvites.keys())), [pendingInvites]);
  const form = useForm<InviteFormValues, unknown, SentRow[]>({
    resolver: zodResolver(schema),
    defaultValues: { rows: [emptyRow()] },
  });
  const { fields: rows, append, remove, replace } = useFieldArray({ control: form.control, name: 'rows' });
  const values = useWatch({ control: form.control, name: 'rows' });
  const {
    formState: { errors, isSubmitting },
  } = form;
  const clearFormError = () => form.clearErrors('root');
  /** A row that replaces a pending invite keeps what that invite said unless the row says otherwise. */
  const asResend = (row: InviteRow): InviteRow => {
    const invite = pendingInvites.get(row.target_email.trim().toLowerCase());
    return {
      ...row,
      resend: true,
      first_name: row.first_name.trim() || (invite?.first_name ?? ''),
      level: invite && row.level === 1 ? (invite.level as InviteRow['level']) : row.level,
    };
  };

  /** "Invite again" on a pasted line whose address has a pending invite: a row that will replace it. */
  const resend = (entry: Pasted) => {
    const kept = filledRows(form.getValues('rows'));
    if (kept.length >= INVITE_BULK_MAX) return;
    const next = [...kept, asResend({ ...emptyRow(), ...entry })];
    replace(next);
    setLines((current) =>
      current.map((l) =>
        l.status.kind === 'invited' && l.status.entry === entry
          ? { ...l, status: { kind: 'added', row: next.length } }
          : l,
      ),
    );
  };

  const send = async (sent: SentRow[]) => {
    if (sent.length === 0) {
      form.setError('root.server', { message: 'Add at least one email address.' });
      return;
    }
    try {
      const created = await mutateAsync(sent.map((row) => row.body));
      toast.success(
        created.length === 1 ? `Invite sent to ${created[0]!.target_email}` : `${created.length} invites sent`,
      );
      await navigate({ to: '/organizations/$organizationId/invites', params: { organizationId } });
    } catch (error) {
      const byRow = serverRowErrors(error, sent);
      if (!byRow) {
        applyServerError(form, error, []);
        return;
      }
      // Each refused row's message on its field; focus goes to the first of them.
      [...byRow]
        .sort(([a], [b]) => a - b)
        .forEach(([index, rowErrors], n) => {
          Object.entries(rowErrors).forEach(([field, message], m) => {
            form.setError(
              `rows.${index}.${field as RowField}`,
              { type: 'server', message },
              { shouldFocus: n === 0 && m === 0 },
            );
          });
        });
      form.setError('root.server', {
        message: `Nobody was invited: fix the ${byRow.size === 1 ? 'row' : `${byRow.size} rows`} marked below and send again.`,
      });
    }
  };

  /** Invalid rows: focus is on the first (react-hook-form). A row held back only because its address is invited is sent again next time. */
  const heldBack = (invalid: FieldErrors<InviteFormValues>) => {
    const marked = (invalid.rows ?? []) as (Partial<Record<RowField, { message?: string }>> | undefined)[];
    const wrong = marked.flatMap((rowErrors, index) => (rowErrors ? [index] : []));
    const again = wrong.filter((index) => onlyAlreadyInvited(marked[index]));
    if (again.length === 0) return;
    for (const index of again) {
      const row = asResend(form.getValues(`rows.${index}`));
      form.setValue(`rows.${index}.resend`, true);
      form.setValue(`rows.${index}.first_name`, row.first_name);
      form.setValue(`rows.${index}.level`, row.level);
    }
    const one = again.length === 1;
    form.setError('root.server', {
      message:
        again.length === wrong.length
          ? `${one ? 'This address is' : `${again.length} addresses are`} already invited. Send invites again to replace ${one ? 'that invite' : 'those invites'}, or remove ${one ? 'the row' : 'the rows'}.`
          : 'Nobody was invited: fix the rows marked below and send again.',
    });
  };

  return (
    <>
      <PageTitle
        title="Invite people"
        description={`Invite up to ${INVITE_BULK_MAX} people to ${organization.name} at once. Each gets an email with a link that works for 3 days.`}
      />
      <form noValidate onSubmit={form.handleSubmit(send, heldBack)} className="mt-6 max-w-3xl space-y-4">
        <ol className="space-y-3" aria-label="People to invite">
          {rows.map((row, index) => (
            <li key={row.id} className="flex flex-wrap items-start gap-3">
              <InviteRowFields form={form} index={index} callerLevel={callerLevel} onEdit={clearFormError} />
              <Button
                size="sm"
                className="mt-6"
                aria-label={`Remove row ${index + 1}`}
                disabled={rows.length === 1}
                onClick={() => remove(index)}
              >
                <X aria-hidden="true" className="size-4" />
              </Button>
            </li>
          ))}
        </ol>
        <Button
          size="sm"
          disabled={rows.length >= INVITE_BULK_MAX}
          onClick={() => append(emptyRow(), { shouldFocus: false })}
        >
          <Plus aria-hidden="true" className="size-4" />
          Add row
        </Button>
        <details className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
          <summary className="cursor-pointer text-sm font-medium">Paste a list of emails</summary>
          <div className="mt-3 space-y-2">
            <TextareaField
              label="Emails"
              description="One per line, or separated by commas. “Name <email>” works too."
              rows={4}
              value={pasted}
              onChange={(event) => {
                setPasted(event.target.value);
                setPasteNote(null);
              }}
            />
            <Button
              size="sm"
              onClick={() => {
                const result = pasteIntoRows(form.getValues('rows'), pasted, new Set(pendingInvites.keys()));
                if (result.lines.length === 0) {
                  setPasteNote('No email address found in the text.');
                  setLines([]);
                  return;
                }
                replace(result.rows);
                setLines(result.lines);
                form.clearErrors();
                // Nothing pasted is lost: what was not added (and cannot be asked for below) stays in the box.
                setPasted(result.left);
                const added = result.lines.filter((l) => l.status.kind === 'added').length;
                setPasteNote(
                  `${added} of ${result.lines.length} ${result.lines.length === 1 ? 'line' : 'lines'} added to the rows${result.left ? '; the lines not added stay in the box' : ''}.`,
                );
              }}
            >
              Fill rows
            </Button>
            {/* Always there, so a screen reader hears the text when it comes. */}
            <p role="status" className="text-sm empty:hidden">
              {pasteNote}
            </p>
            <PastedLines
              lines={lines}
              onResend={(entry) => resend(entry)}
              canAdd={filledRows(values).length < INVITE_BULK_MAX}
            />
          </div>
        </details>
        <div className="space-y-4 border-t border-gray-200 pt-4 dark:border-gray-700">
          <FormFooter
            error={errors.root?.server?.message}
            submitLabel="Send invites"
            pendingLabel="Sending…"
            isSubmitting={isSubmitting}
            scope={inviteEndpoints.bulk.access}
          >
            <Button
              onClick={() =>
                void navigate({ to: '/organizations/$organizationId/invites', params: { organizationId } })
              }
            >
              Cancel
            </Button>
          </FormFooter>
        </div>
      </form>
    </>
  );
}
