import { parseArgs } from 'node:util';
import { keyScopeSchema, SCOPES } from '../../src/contract/index.ts';
import { DEMO_USER_EMAIL } from '../seed/data.ts';
import { openDataDir } from '../data-dir.ts';
import type { Store } from '../store/store.ts';
import { dataDirFrom, UsageError } from './args.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const note = (line: string) => process.stderr.write(`${line}\n`);

/** `a:read, b:write` → validated list; unknown scopes are a usage error naming the valid ones. */
export function parseScopes(text: string): string[] {
  const scopes = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (scopes.length === 0)
    throw new UsageError('--scopes is empty: give e.g. organization:read,batch_export:write or *');
  const bad = scopes.filter((s) => !keyScopeSchema.safeParse(s).success);
  if (bad.length > 0) {
    throw new UsageError(
      `unknown scope${bad.length > 1 ? 's' : ''} ${bad.map((s) => `'${s}'`).join(', ')}; valid scopes: *, ${SCOPES.join(', ')}`,
    );
  }
  return scopes;
}

function create(store: Store, values: { label?: string; scopes?: string; organization?: string[]; user?: string }) {
  if (!values.label?.trim()) throw new UsageError('--label is required');
  if (values.scopes === undefined)
    throw new UsageError('--scopes is required (e.g. organization:read,organization:write or *)');
  const scopes = parseScopes(values.scopes);
  const email = values.user ?? DEMO_USER_EMAIL;
  const user = store.users.getByEmail(email);
  if (!user) throw new UsageError(`no user with email '${email}'`);
  const organizations = values.organization ?? [];
  for (const id of organizations) {
    if (!store.organizations.get(id)) throw new UsageError(`no organization with id '${id}'`);
    if (store.memberships.level(id, user.id) === undefined)
      throw new UsageError(`${email} is not a member of organization '${id}'`);
  }
  const { row, key } = store.apiKeys.create(
    {
      user_id: user.id,
      label: values.label.trim(),
      scopes,
      scoped_organizations: organizations.length ? organizations : null,
    },
    new Date().toISOString(),
  );
  note(`created key ${row.id} (${row.mask_value}) for ${email}; it is shown once:`);
  out(key);
}

function list(store: Store) {
  const rows = store.apiKeys.list();
  if (rows.length === 0) return note('no keys');
  out(['id', 'label', 'mask', 'scopes', 'organizations', 'last used'].join('\t'));
  for (const k of rows) {
    out(
      [
        k.id,
        k.label,
        k.mask_value,
        k.scopes.join(','),
        k.scoped_organizations?.join(',') ?? 'all',
        k.last_used_at ?? 'never',
      ].join('\t'),
    );
  }
}

function revoke(store: Store, id: string | undefined) {
  if (!id) throw new UsageError('usage: key revoke ID (see key list)');
  if (!store.apiKeys.revoke(id)) throw new UsageError(`no key with id '${id}'`);
  out(`revoked ${id}`);
}

/** `key create|list|revoke`: runs against the data dir (seeded first if empty). */
export function key(argv: string[]): void {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      label: { type: 'string' },
      scopes: { type: 'string' },
      organization: { type: 'string', multiple: true },
      user: { type: 'string' },
      'data-dir': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [sub, id] = positionals;
  if (sub !== 'create' && sub !== 'list' && sub !== 'revoke') throw new UsageError('usage: key create|list|revoke');
  if (sub === 'create' && values.scopes !== undefined) parseScopes(values.scopes); // fail before touching the data dir
  const { store } = openDataDir(dataDirFrom(values['data-dir']));
  try {
    if (sub === 'create') create(store, values);
    else if (sub === 'list') list(store);
    else revoke(store, id);
  } finally {
    store.close();
  }
}
