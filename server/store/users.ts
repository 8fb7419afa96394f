import type { Db } from './db.ts';

export interface UserRow {
  id: number;
  uuid: string;
  distinct_id: string;
  first_name: string;
  last_name: string;
  email: string;
  is_email_verified: number;
  created_at: string;
}

export type NewUser = Omit<UserRow, 'id'>;

export function createUsersRepository(db: Db) {
  const insert =
    db.prepare(`INSERT INTO users (uuid, distinct_id, first_name, last_name, email, is_email_verified, created_at)
    VALUES (@uuid, @distinct_id, @first_name, @last_name, @email, @is_email_verified, @created_at)`);
  const byId = db.prepare<unknown[], UserRow>('SELECT * FROM users WHERE id = ?');
  const byEmail = db.prepare<unknown[], UserRow>('SELECT * FROM users WHERE email = ?');
  const count = db.prepare<unknown[], number>('SELECT COUNT(*) AS n FROM users').pluck();

  return {
    create(user: NewUser): UserRow {
      const id = Number(insert.run(user).lastInsertRowid);
      return { id, ...user };
    },
    get(id: number): UserRow | undefined {
      return byId.get(id);
    },
    getByEmail(email: string): UserRow | undefined {
      return byEmail.get(email);
    },
    count(): number {
      return count.get()!;
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
