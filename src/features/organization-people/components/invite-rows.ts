import { INVITE_BULK_MAX, inviteCreateSchema, type InviteCreateInput } from '@/contract/invites';
import { z } from '@/contract/z';
import { isApiError } from '@/lib/api-client';

/** One row of the invite form (a field array's item: react-hook-form gives it its key). */
export interface InviteRow {
  target_email: string;
  first_name: string;
  level: 1 | 8 | 15;
  /** The address has a pending invite and the admin chose to send again (which replaces it). */
  resend: boolean;
}
export interface InviteFormValues {
  rows: InviteRow[];
}
export type RowField = 'target_email' | 'first_name' | 'level';
export type RowErrors = Partial<Record<RowField, string>>;

export const emptyRow = (): InviteRow => ({ target_email: '', first_name: '', level: 1, resend: false });

/**
 * A pasted list, line by line. Every entry of the text gets a status the form shows beside it:
 * added to a row, not an address, a duplicate (in the list or the form), already invited (the
 * invite is pending: sending again replaces it, so it is added only when asked), or past the
 * bulk limit. Nothing is dropped: entries that were not added and cannot be asked for again
 * stay in the box.
 */
export type PasteStatus =
  | { kind: 'added'; row: number }
  | { kind: 'invalid'; reason: string }
  | { kind: 'duplicate'; row: number | null }
  | { kind: 'invited'; entry: Pasted }
  | { kind: 'no-room' };
export interface PasteLine {
  text: string;
  status: PasteStatus;
}
export type Pasted = { target_email: string; first_name: string };

/** Entries of pasted text: split at line breaks, and at commas and semicolons outside quotes and `<…>`. */
export function splitPaste(text: string): string[] {
  const entries: string[] = [];
  let current = '';
  let quoted = false;
  let angled = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (ch === '<') angled = true;
    else if (ch === '>') angled = false;
    if (ch === '\n' || ch === '\r' || ((ch === ',' || ch === ';') && !quoted && !angled)) {
      entries.push(current);
      current = '';
      quoted = false;
      angled = false;
    } else current += ch;
  }
  entries.push(current);
  // "a@x.example b@y.example" on one line: addresses only, so each is an entry.
  return entries
    .map((e) => e.trim())
    .filter(Boolean)
    .flatMap((e) => (/^(\S+@\S+)(\s+\S+@\S+)+$/.test(e) ? e.split(/\s+/) : [e]));
}

const emailSchema = inviteCreateSchema.shape.target_email;

/** One entry: `Name <email>`, `"Last, First" <email>`, `email`, or words and one address. */
export function readEntry(entry: string): Pasted | { invalid: string } {
  const angled = /^"?([^"<]*?)"?\s*<([^<>]*)>$/.exec(entry);
  let email: string;
  let name: string;
  if (angled) {
    name = angled[1]!.trim();
    email = angled[2]!.trim();
  } else {
    const words = entry.split(/\s+/);
    const addresses = words.filter((w) => w.includes('@'));
    if (addresses.length === 0) return { invalid: 'No email address on this line.' };
    if (addresses.length > 1) return { invalid: 'More than one address with a name: put each on its own line.' };
    email = addresses[0]!;
    name = words.filter((w) => w !== email).join(' ');
  }
  email = email.replace(/^mailto:/i, '');
  if (!emailSchema.safeParse(email).success) return { invalid: `“${email}” is not a valid email address.` };
  return { target_email: email, first_name: name.replace(/^"|"$/g, '').trim() };
}

/**
 * Rows after pasting `text`: blank rows are filled first, then rows are added up to the bulk
 * limit. `pending` holds the lower-cased addresses of the organization's pending invites.
 * `left` is the text that stays in the box: entries not added that cannot be asked for again.
 */
export function pasteIntoRows(
  rows: InviteRow[],
  text: string,
  pending: ReadonlySet<string>,
): { rows: InviteRow[]; lines: PasteLine[]; left: string } {
  const next = filledRows(rows);
  const rowOf = new Map(next.map((r, i) => [r.target_email.trim().toLowerCase(), i + 1] as const));
  const seen = new Set<string>();
  const lines: PasteLine[] = [];
  const left: string[] = [];
  for (const entry of splitPaste(text)) {
    const read = readEntry(entry);
    if ('invalid' in read) {
      lines.push({ text: entry, status: { kind: 'invalid', reason: read.invalid } });
      left.push(entry);
      continue;
    }
    const key = read.target_email.toLowerCase();
    if (rowOf.has(key) || seen.has(key)) {
      lines.push({ text: entry, status: { kind: 'duplicate', row: rowOf.get(key) ?? null } });
      continue;
    }
    seen.add(key);
    if (pending.has(key)) {
      lines.push({ text: entry, status: { kind: 'invited', entry: read } });
      continue;
    }
    if (next.length >= INVITE_BULK_MAX) {
      lines.push({ text: entry, status: { kind: 'no-room' } });
      left.push(entry);
      continue;
    }
    next.push({ ...emptyRow(), ...read });
    rowOf.set(key, next.length);
    lines.push({ text: entry, status: { kind: 'added', row: next.length } });
  }
  return { rows: next.length > 0 ? next : [emptyRow()], lines, left: left.join('\n') };
}

/** What is sent for the rows: blank rows are left out. */
const isFilled = (row: InviteRow) => row.target_email.trim() !== '' || row.first_name.trim() !== '';
export const filledRows = (rows: InviteRow[]) => rows.filter(isFilled);

export const toBody = (row: InviteRow): InviteCreateInput => ({
  target_email: row.target_email.trim(),
  first_name: row.first_name.trim(),
  level: row.level,
});

export const ALREADY_INVITED = 'Already invited, not yet accepted: send again to replace that invite with this one.';

/** A filled row as sent, with its place in the form (where the server's error for it goes). */
export interface SentRow {
  index: number;
  body: InviteCreateInput;
}

/**
 * The form's schema: each filled row checked with the contract (blank rows are left out), its
 * errors on its own fields. A row whose address has a pending invite (`pending`, lower-cased) is
 * held back once, unless the admin asked to resend. The output is the rows to send.
 */
export function inviteRowsSchema(pending: ReadonlySet<string>): z.ZodMiniType<SentRow[], InviteFormValues> {
  const values = z.object({ rows: z.array(z.custom<InviteRow>()) }).check(
    z.superRefine(({ rows }, ctx) => {
      rows.forEach((row, index) => {
        if (!isFilled(row)) return;
        const result = inviteCreateSchema.safeParse(toBody(row));
        if (result.success) {
          if (!row.resend && pending.has(row.target_email.trim().toLowerCase())) {
            ctx.addIssue({
              code: 'custom',
              path: ['rows', index, 'target_email'],
              message: ALREADY_INVITED,
              input: row.target_email,
            });
          }
          return;
        }
        const seen = new Set<PropertyKey>();
        for (const issue of result.error.issues) {
          const field = issue.path[0];
          if (field === undefined || seen.has(field)) continue;
          seen.add(field);
          ctx.addIssue({ code: 'custom', path: ['rows', index, field], message: issue.message, input: row });
        }
      });
    }),
  );
  return z.pipe(
    values,
    z.transform(({ rows }) => rows.flatMap((row, index) => (isFilled(row) ? [{ index, body: toBody(row) }] : []))),
  );
}

/** Whether a row's only error is that its address is already invited (it is held back once). */
export const onlyAlreadyInvited = (errors: Partial<Record<RowField, { message?: string }>> | undefined) =>
  errors?.target_email?.message === ALREADY_INVITED && Object.keys(errors).length === 1;

interface BulkItemError {
  index: number;
  attr: string | null;
  detail: string;
}
const ROW_FIELDS: readonly string[] = ['target_email', 'first_name', 'level'] satisfies RowField[];
const rowField = (attr: string | null): RowField =>
  attr && ROW_FIELDS.includes(attr) ? (attr as RowField) : 'target_email';

/**
 * A bulk 400's errors by the form's row index: each item's (`errors: [{index, attr, detail}]`,
 * `index` its place among the rows sent), or the first one's `attr` (`1__first_name`) when the
 * answer lists no items. Null when the error names no row.
 */
export function serverRowErrors(error: unknown, sent: readonly SentRow[]): Map<number, RowErrors> | null {
  if (!isApiError(error) || error.status !== 400) return null;
  const items: BulkItemError[] = Array.isArray(error.body.errors)
    ? (error.body.errors as BulkItemError[])
    : (() => {
        const match = error.attr ? /^(\d+)(?:__(.+))?$/.exec(error.attr) : null;
        return match ? [{ index: Number(match[1]), attr: match[2] ?? null, detail: error.detail }] : [];
      })();
  const errors = new Map<number, RowErrors>();
  for (const item of items) {
    const row = sent[item.index];
    if (!row) continue;
    errors.set(row.index, { ...errors.get(row.index), [rowField(item.attr)]: item.detail });
  }
  return errors.size > 0 ? errors : null;
}
