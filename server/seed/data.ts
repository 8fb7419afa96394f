import type { Level } from '../store/memberships.ts';

/** How many days before the seed's moment the demo workspace begins (its first user joins). */
export const SEED_HISTORY_DAYS = 28;

/**
 * The seed's clock: every demo date is relative to `now`, the moment the seed runs, so a new
 * data dir opens on a current workspace ("2 hours ago", not a fixed year).
 */
export function seedClock(now: Date) {
  const nowMs = now.getTime();
  /** Where day 0 of the demo lies: SEED_HISTORY_DAYS before now, on the minute. */
  const start = Math.floor((nowMs - SEED_HISTORY_DAYS * 86_400_000) / 60_000) * 60_000;
  return {
    nowMs,
    /** Day `n` of the demo (0 = when the first user joined), plus `minutes`. */
    day: (n: number, minutes = 0) => new Date(start + n * 86_400_000 + minutes * 60_000).toISOString(),
    /** `hours` before now (on the minute). */
    hoursAgo: (hours: number) => new Date(Math.floor((nowMs - hours * 3_600_000) / 60_000) * 60_000).toISOString(),
  };
}
export type SeedClock = ReturnType<typeof seedClock>;
export const DEMO_USER_EMAIL = 'demo@example.com';
export const SEED_PRNG_SEED = 20240115;

export interface SeedUser {
  first_name: string;
  last_name: string;
  email: string;
  joinedDay: number;
}
export interface SeedOrganization {
  name: string;
  createdDay: number;
  members: { email: string; level: Level }[];
  projects: { name: string; timezone: string; week_start_day: number | null }[];
}

export const SEED_USERS: SeedUser[] = [
  { first_name: 'Demo', last_name: 'Admin', email: DEMO_USER_EMAIL, joinedDay: 0 },
  { first_name: 'Priya', last_name: 'Raman', email: 'priya@hedgebox.example', joinedDay: 1 },
  { first_name: 'Marcus', last_name: 'Chen', email: 'marcus@hedgebox.example', joinedDay: 2 },
  { first_name: 'Sofía', last_name: 'García', email: 'sofia@hedgebox.example', joinedDay: 3 },
  { first_name: 'Amara', last_name: 'Okafor', email: 'amara@northwind.example', joinedDay: 4 },
  { first_name: 'Jonas', last_name: 'Berg', email: 'jonas@northwind.example', joinedDay: 5 },
  { first_name: 'Liam', last_name: "O'Brien", email: 'liam@contractor.example', joinedDay: 6 },
];

export const SEED_ORGANIZATIONS: SeedOrganization[] = [
  {
    name: 'Hedgebox',
    createdDay: 0,
    members: [
      { email: DEMO_USER_EMAIL, level: 15 },
      { email: 'priya@hedgebox.example', level: 8 },
      { email: 'marcus@hedgebox.example', level: 1 },
      { email: 'sofia@hedgebox.example', level: 1 },
      { email: 'liam@contractor.example', level: 1 },
    ],
    projects: [
      { name: 'Hedgebox Web', timezone: 'UTC', week_start_day: 0 },
      { name: 'Hedgebox Mobile', timezone: 'Europe/London', week_start_day: 1 },
    ],
  },
  {
    name: 'Northwind Analytics',
    createdDay: 4,
    members: [
      { email: 'amara@northwind.example', level: 15 },
      { email: DEMO_USER_EMAIL, level: 8 },
      { email: 'jonas@northwind.example', level: 1 },
      { email: 'liam@contractor.example', level: 1 },
    ],
    projects: [{ name: 'Northwind Storefront', timezone: 'America/New_York', week_start_day: 0 }],
  },
];
