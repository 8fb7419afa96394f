import { INVITE_BULK_MAX, inviteCreateSchema, type InviteCreateInput } from '@/contract/invites';
import { isApiError } from '@/lib/api-client';

export interface InviteRow {
  key: number;
  target_email: string;
  first_name: string;
  level: 1 | 8 | 15;
}
export type RowField = 'target_email' | 'first_name' | 'level';
export type RowErrors = Partial<Record<RowField, string>>;

let nextKey = 0;
export const emptyRow = (): InviteRow => ({ key: nextKey++, target_email: '', first_name: '', level: 1 });

const EMAIL_IN_TEXT = /[^\s<>,;"']+@[^\s<>,;"']+/g;

/**
 * Emails found in pasted text (one per line, comma- or semicolon-separated, or `Name <email>`),
 * without duplicates. `Name <email>` gives the first word of the name too.
 */
export function parsePastedEmails(text: string): { target_email: string; first_name: string }[] {
  const seen = new Set<string>();
  const out: { target_email: string; first_name: string }[] = [];
  for (const part of text.split(/[\n,;]+/)) {
    for (const match of part.matchAll(EMAIL_IN_TEXT)) {
      const email = match[0].replace(/^mailto:/i, '');
      if (seen.has(email.toLowerCase())) continue;
      seen.add(email.toLowerCase());
      const name = /^\s*"?([^"<]+?)"?\s*</.exec(part)?.[1]?.trim().split(/\s+/)[0] ?? '';
      out.push({ target_email: email, first_name: name });
    }
  }
  return out;
}

type Pasted = { target_email: string; first_name: string };

/**
 * Rows after pasting: blank rows are filled first, then new rows are added up to the bulk limit;
 * `left` is what did not fit (for the next invite), in the pasted order.
 */
export function fillRows(rows: InviteRow[], pasted: Pasted[]): { rows: InviteRow[]; left: Pasted[] } {
  const kept = rows.filter((r) => r.target_email.trim() !== '' || r.first_name.trim() !== '');
  const room = Math.max(0, INVITE_BULK_MAX - kept.length);
  const next = [...kept, ...pasted.slice(0, room).map((p) => ({ ...emptyRow(), ...p }))];
  return { rows: next.length > 0 ? next : [emptyRow()], left: pasted.slice(room) };
}

/** Pasted entries as text again (one per line, `Name <email>` when named): what stays to paste. */
export const pastedText = (entries: Pasted[]) => entries.map((p) => (p.first_name ? `${p.first_name} <${p.target_email}>` : p.target_email)).join('\n');

/** What is sent for the rows: blank rows are left out. */
export const filledRows = (rows: InviteRow[]) => rows.filter((r) => r.target_email.trim() !== '' || r.first_name.trim() !== '');

export const toBody = (row: InviteRow): InviteCreateInput => ({
  target_email: row.target_email.trim(), first_name: row.first_name.trim(), level: row.level,
});

/** Each row checked with the contract before sending: errors by row key. */
export function validateRows(rows: InviteRow[]): Map<number, RowErrors> {
  const errors = new Map<number, RowErrors>();
  for (const row of rows) {
    const result = inviteCreateSchema.safeParse(toBody(row));
    if (result.success) continue;
    const rowErrors: RowErrors = {};
    for (const issue of result.error.issues) {
      const field = issue.path[0] as RowField;
      rowErrors[field] ??= issue.message;
    }
    errors.set(row.key, rowErrors);
  }
  return errors;
}

interface BulkItemError { index: number; attr: string | null; detail: string }

/** A bulk 400's per-item errors (`errors: [{index, attr, detail}]`) by row key; null when the error is not of that kind. */
export function serverRowErrors(error: unknown, sent: InviteRow[]): Map<number, RowErrors> | null {
  if (!isApiError(error) || error.status !== 400 || !Array.isArray(error.body.errors)) return null;
  const errors = new Map<number, RowErrors>();
  for (const item of error.body.errors as BulkItemError[]) {
    const row = sent[item.index];
    if (!row) continue;
    const field: RowField = item.attr === 'first_name' || item.attr === 'level' ? item.attr : 'target_email';
    errors.set(row.key, { ...errors.get(row.key), [field]: item.detail });
  }
  return errors;
}
