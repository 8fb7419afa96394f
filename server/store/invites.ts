import type { Db } from './db.ts';
import type { Level } from './memberships.ts';
import { LIMIT_OFFSET } from './paging-sql.ts';
import { timingSafeEqual } from 'node:crypto';
import { hashKey, newUuid, randomBase62 } from './secrets.ts';

export interface InviteRow {
  id: string;
  organization_id: string;
  target_email: string;
  first_name: string | null;
  level: Level;
  message: string | null;
  /** JSON list of {id, level}, or null. */
  private_project_access: string | null;
  emailing_attempt_made: number;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  /** SHA-256 of the accept link's secret: the secret itself is only in the email. */
  secret_hash: string | null;
}

export type NewInvite = Omit<InviteRow, 'id' | 'emailing_attempt_made' | 'updated_at' | 'secret_hash'> & {
  id?: string;
};

/** A new invite with its accept secret, known only until the email is sent. */
export type CreatedInvite = InviteRow & { secret: string };

/** The accept secret: 32 base62 characters, about 190 bits. */
const INVITE_SECRET_LENGTH = 32;

/** Pending invites of organizations; a new invite to the same email replaces the older one. */
export function createInvitesRepository(db: Db) {
  const insert = db.prepare(`INSERT INTO invites (id, organization_id, target_email, first_name, level, message,
      private_project_access, emailing_attempt_made, created_by, created_at, updated_at, secret_hash)
    VALUES (@id, @organization_id, @target_email, @first_name, @level, @message, @private_project_access, 0, @created_by, @created_at,
      @created_at, @secret_hash)`);
  const removeForEmail = db.prepare('DELETE FROM invites WHERE organization_id = ? AND target_email = ?');
  const list = db.prepare<Record<string, unknown>, InviteRow>(
    `SELECT * FROM invites WHERE organization_id = @organization ORDER BY created_at DESC, id ${LIMIT_OFFSET}`,
  );
  const count = db.prepare<unknown[], number>('SELECT COUNT(*) FROM invites WHERE organization_id = ?').pluck();
  const byId = db.prepare<unknown[], InviteRow>('SELECT * FROM invites WHERE id = ?');
  const remove = db.prepare('DELETE FROM invites WHERE id = ?');
  const emailed = db.prepare('UPDATE invites SET emailing_attempt_made = 1 WHERE id = ?');

  return {
    /** Stores the invite with a new accept secret, replacing a pending one to the same email. */
    create(input: NewInvite): CreatedInvite {
      const secret = randomBase62(INVITE_SECRET_LENGTH);
      const row: InviteRow = {
        ...input,
        id: input.id ?? newUuid(),
        emailing_attempt_made: 0,
        updated_at: input.created_at,
        secret_hash: hashKey(secret),
      };
      removeForEmail.run(row.organization_id, row.target_email);
      insert.run(row);
      return { ...row, secret };
    },
    /** Whether `secret` is the invite's accept secret (compared in constant time). */
    secretMatches(row: InviteRow, secret: string): boolean {
      if (row.secret_hash === null) return false;
      const given = Buffer.from(hashKey(secret), 'hex');
      const stored = Buffer.from(row.secret_hash, 'hex');
      return given.length === stored.length && timingSafeEqual(given, stored);
    },
    list(organizationId: string, limit: number, offset: number): InviteRow[] {
      return list.all({ organization: organizationId, limit, offset });
    },
    count(organizationId: string): number {
      return count.get(organizationId)!;
    },
    get(id: string): InviteRow | undefined {
      return byId.get(id);
    },
    remove(id: string): void {
      remove.run(id);
    },
    markEmailed(id: string): void {
      emailed.run(id);
    },
  };
}
export type InvitesRepository = ReturnType<typeof createInvitesRepository>;
