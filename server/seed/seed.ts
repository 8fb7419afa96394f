import { generatePersonalApiKey, generateProjectToken, newUuid, randomBase62 } from '../store/secrets.ts';
import type { Store } from '../store/store.ts';
import { seedBatchExports } from './batch-exports.ts';
import { seedInsights } from './insights.ts';
import { seedPlugins } from './plugins.ts';
import { seedPeople } from './people.ts';
import { DEMO_USER_EMAIL, SEED_ORGANIZATIONS, SEED_PRNG_SEED, SEED_USERS, seedClock } from './data.ts';
import { createPrng } from './prng.ts';

export interface SeedResult {
  /** Plaintext of the demo key (scope `*`): shown, never stored. */
  demoKey: string;
  organizationIds: string[];
}

export interface SeedOptions {
  /** The moment the seed runs (tests inject theirs): every seeded date lies within the 30 days before it. */
  now?: Date;
}

/**
 * Fills an empty store with the demo data: the same names and contents every time, dated relative
 * to `now`. What identifies or authorises (organization, user and project ids, project API tokens,
 * the demo key) is random per data directory, so no two installs share one. Tests read the ids
 * from the result. One transaction: all or nothing.
 */
export function seed(store: Store, options: SeedOptions = {}): SeedResult {
  const prng = createPrng(SEED_PRNG_SEED);
  const clock = seedClock(options.now ?? new Date());
  const day = clock.day;
  return store.transaction(() => {
    const userIds = new Map<string, number>();
    for (const u of SEED_USERS) {
      const user = store.users.create({
        uuid: newUuid(),
        distinct_id: randomBase62(32),
        first_name: u.first_name,
        last_name: u.last_name,
        email: u.email,
        is_email_verified: 1,
        created_at: day(u.joinedDay),
      });
      userIds.set(u.email, user.id);
    }
    const userId = (email: string) => {
      const id = userIds.get(email);
      if (id === undefined) throw new Error(`seed: unknown user ${email}`);
      return id;
    };
    const organizationIds: string[] = [];
    const projectIds: number[][] = [];
    for (const o of SEED_ORGANIZATIONS) {
      const at = day(o.createdDay);
      const organization = store.organizations.create({ name: o.name }, at, newUuid());
      organizationIds.push(organization.id);
      o.members.forEach((m, i) =>
        store.memberships.add(organization.id, userId(m.email), m.level, day(o.createdDay + i), newUuid()),
      );
      projectIds.push([]);
      for (const p of o.projects) {
        projectIds.at(-1)!.push(
          store.projects.create(
            {
              organization_id: organization.id,
              name: p.name,
              timezone: p.timezone,
              week_start_day: p.week_start_day,
              uuid: newUuid(),
              api_token: generateProjectToken(),
            },
            at,
          ).id,
        );
      }
    }
    seedBatchExports(store, organizationIds[0]!, projectIds[0]!, clock);
    seedPlugins(store, organizationIds[0]!, projectIds[0]![0]!, clock);
    projectIds.forEach((ids, o) =>
      ids.forEach((projectId) =>
        seedInsights(store, prng, organizationIds[o]!, projectId, userId(DEMO_USER_EMAIL), clock),
      ),
    );
    seedPeople(store, organizationIds, userId(DEMO_USER_EMAIL), new Date(clock.nowMs));
    const demoKey = generatePersonalApiKey();
    store.apiKeys.create({ user_id: userId(DEMO_USER_EMAIL), label: 'Demo key', scopes: ['*'], key: demoKey }, day(0));
    return { demoKey, organizationIds };
  });
}
