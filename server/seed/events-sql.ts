/**
 * The demo event generator, run entirely inside DuckDB: `range()` makes the rows and `hash()`
 * of (salt, row, purpose) gives each choice a pseudo-random number in [0, 1), so the same
 * parameters give the same events (ids, times, properties) every time, in a second or so for
 * a million rows. Only static SQL here: every input is a bound named parameter:
 *   $team, $salt, $persons, $days, $day0 (epoch seconds of the first day's midnight, UTC),
 *   $epoch_day0 (that day's number since 1970-01-01), $now_s, $mobile_share,
 *   $sessions_per_person, $host, $test_accounts, $limit (browsing events to keep).
 */
import { MATERIALIZED_PROPERTIES, materializedInsert, materializedPointer } from '../analytics/store/schema.ts';

/**
 * The demo's companies: persons belong to one each, and their events name it once they are known
 * (`$groups: {company: <key>}`, docs/api.md "Groups"); a `$groupidentify` at the company's first
 * sign-up gives its name, plan and employees.
 */
export const COMPANIES = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Hooli',
  'Stark Industries',
  'Wayne Enterprises',
  'Wonka',
  'Soylent',
  'Cyberdyne',
  'Tyrell',
  'Aperture',
  'Black Mesa',
  'Vandelay',
  'Pied Piper',
  'Dunder Mifflin',
  'Oscorp',
  'Gringotts',
  'Monsters Inc',
  'Krusty Krab',
  'Prestige Worldwide',
  'Massive Dynamic',
  'Virtucon',
  'Nakatomi',
] as const;
/** SQL list of the companies' names (fixed text, no user input). */
const COMPANY_NAMES = `[${COMPANIES.map((c) => `'${c}'`).join(', ')}]`;
/** SQL of a company's key from its index: its name in lower case, words joined by '-'. */
const companyKey = (idx: string) => `replace(lower(${COMPANY_NAMES}[1 + ${idx}]), ' ', '-')`;

/** Temp macros of the writer connection: r() a number in [0, 1), uid() a UUID-shaped id. */
export const SEED_MACROS = [
  `CREATE OR REPLACE TEMP MACRO seed_r(salt, a, b) AS ((hash(salt, a, b) % 1000003) / 1000003.0)`,
  `CREATE OR REPLACE TEMP MACRO seed_uid(salt, a, b) AS (md5(concat_ws(':', salt, a, b))::UUID::VARCHAR)`,
];

/** One row per person, with every choice made for them up front. */
export const SEED_PERSONS = `
CREATE OR REPLACE TEMP TABLE seed_persons AS
WITH base AS (
  SELECT p,
    CASE WHEN seed_r($salt, p, 1) < 0.25 THEN floor(14 * seed_r($salt, p, 2))::INTEGER
         ELSE floor(($days - 1) * pow(seed_r($salt, p, 2), 0.85))::INTEGER END AS raw_day,
    seed_r($salt, p, 3) < $mobile_share AS mobile,
    p < $test_accounts AS test,
    seed_r($salt, p, 4) AS r_signup, seed_r($salt, p, 5) AS r_plan, seed_r($salt, p, 6) AS r_project,
    seed_r($salt, p, 7) AS r_invite, seed_r($salt, p, 8) AS r_device,
    floor(6 * pow(seed_r($salt, p, 9), 1.6))::INTEGER AS i_browser,
    floor(10 * pow(seed_r($salt, p, 10), 2))::INTEGER AS i_country,
    (6 + 7 * (seed_r($salt, p, 11) + seed_r($salt, p, 12))) * 3600 + floor(seed_r($salt, p, 13) * 3600) AS first_second,
    1 + least(60, floor(-ln(1 - seed_r($salt, p, 14)) * ($sessions_per_person - 1)))::INTEGER AS n_sessions
  FROM range($persons::BIGINT) t(p)
), weekly AS (
  -- Fewer people arrive at weekends: most weekend arrivals move to the Friday before (or the Monday after).
  SELECT *, CASE WHEN (($epoch_day0 + raw_day + 4) % 7)::INTEGER NOT IN (0, 6) OR seed_r($salt, p, 19) >= 0.55 THEN raw_day
    WHEN raw_day >= 2 THEN raw_day - (CASE (($epoch_day0 + raw_day + 4) % 7)::INTEGER WHEN 6 THEN 1 ELSE 2 END)
    ELSE raw_day + (CASE (($epoch_day0 + raw_day + 4) % 7)::INTEGER WHEN 6 THEN 2 ELSE 1 END) END AS first_day
  FROM base
), shaped AS (
  SELECT *,
    test OR r_signup < 0.55 AS signed_up,
    $day0 + first_day * 86400 + first_second AS first_s,
    CASE WHEN mobile THEN (CASE WHEN r_device < 0.55 THEN 'iOS' ELSE 'Android' END)
         WHEN r_device < 0.16 THEN 'iOS' WHEN r_device < 0.22 THEN 'Android'
         ELSE ['Mac OS X', 'Windows', 'Windows', 'Linux'][1 + floor(seed_r($salt, p, 15) * 4)::INTEGER] END AS os,
    ['US', 'GB', 'DE', 'FR', 'IN', 'BR', 'CA', 'NL', 'JP', 'AU'][1 + i_country] AS country,
    ['ada', 'ben', 'chloe', 'dev', 'emma', 'farid', 'grace', 'hiro', 'ines', 'jon', 'kofi', 'lena'][1 + floor(seed_r($salt, p, 16) * 12)::INTEGER] AS first_name
  FROM weekly
)
SELECT *,
  CASE WHEN mobile THEN NULL
       WHEN os IN ('iOS', 'Android') THEN (CASE WHEN os = 'iOS' THEN 'Mobile Safari' ELSE 'Chrome' END)
       ELSE ['Chrome', 'Chrome', 'Safari', 'Firefox', 'Edge', 'Opera'][1 + i_browser] END AS browser,
  CASE WHEN mobile OR os IN ('iOS', 'Android') THEN 'Mobile' ELSE 'Desktop' END AS device_type,
  CASE WHEN NOT signed_up THEN NULL WHEN test THEN 'enterprise' WHEN r_plan < 0.7 THEN 'free' WHEN r_plan < 0.92 THEN 'pro' ELSE 'enterprise' END AS plan,
  CASE WHEN test THEN 'qa.' || first_name || p || '@hedgebox.example'
       ELSE first_name || '.' || p || '@' || ['gmail.example', 'outlook.example', 'acme.example', 'globex.example', 'initech.example'][1 + floor(seed_r($salt, p, 17) * 5)::INTEGER]
  END AS email,
  seed_uid($salt, 'anon', p) AS anon_id,
  -- Their company (a few big ones, many small): the group their events name once they are known.
  floor(${COMPANIES.length} * pow(seed_r($salt, p, 60), 1.5))::INTEGER AS company_idx,
  seed_uid($salt, 'person', p) AS person_id,
  first_s + 90 + floor(seed_r($salt, p, 18) * 500) AS signup_s,
  signed_up AND r_project < 0.62 AS created_project
FROM shaped`;

/** Sessions: the first at the person's first visit, the rest spread over later days, fewer at weekends. */
export const SEED_SESSIONS = `
CREATE OR REPLACE TEMP TABLE seed_sessions AS
WITH s AS (
  SELECT p, unnest(range(n_sessions)) AS j FROM seed_persons
), placed AS (
  SELECT s.p, s.j, sp.first_day,
    CASE WHEN s.j = 0 THEN sp.first_day
         ELSE sp.first_day + floor(($days - sp.first_day) * seed_r($salt, s.p * 100 + s.j, 20))::INTEGER END AS d0
  FROM s JOIN seed_persons sp USING (p)
), weekly AS (
  -- 0 = Sunday. Most weekend sessions move to a weekday: a shift of 1..5 days lands on Monday..Friday.
  SELECT *, (($epoch_day0 + d0 + 4) % 7)::INTEGER AS weekday, 1 + floor(seed_r($salt, p * 100 + j, 28) * 5)::INTEGER AS shift FROM placed
)
SELECT p, j,
  CASE WHEN j = 0 OR weekday NOT IN (0, 6) OR seed_r($salt, p * 100 + j, 21) >= 0.55 THEN d0
       WHEN d0 + 6 <= $days - 1 THEN d0 + shift + (CASE weekday WHEN 6 THEN 1 ELSE 0 END)
       WHEN d0 - 6 >= first_day THEN d0 - shift - (CASE weekday WHEN 0 THEN 1 ELSE 0 END)
       ELSE d0 END AS d,
  2 + floor(seed_r($salt, p * 100 + j, 22) * 10)::INTEGER AS len,
  20 + floor(seed_r($salt, p * 100 + j, 23) * 90)::INTEGER AS step,
  floor(seed_r($salt, p * 100 + j, 24) * 6)::INTEGER AS journey,
  (6 + 7 * (seed_r($salt, p * 100 + j, 25) + seed_r($salt, p * 100 + j, 26))) * 3600 + floor(seed_r($salt, p * 100 + j, 27) * 3600) AS second,
  seed_uid($salt, 'session', p * 100 + j) AS session_id
FROM weekly`;

const COMMON_PROPS = `'$os', os, '$device_type', device_type, '$geoip_country_code', country`;
const WEB_PROPS = `'$current_url', 'https://' || $host || path, '$pathname', path, '$host', $host, '$browser', browser, '$lib', 'web', ${COMMON_PROPS}`;
const APP_PROPS = `'$lib', CASE WHEN os = 'iOS' THEN 'posthog-ios' ELSE 'posthog-android' END, '$app_version', '2.4.' || (p % 3), ${COMMON_PROPS}`;

/** `props` with `$groups: {company}` added when `known` (SQL). */
const withCompany = (known: string, idx: string, props: string) =>
  `CASE WHEN ${known} THEN json_merge_patch(${props}, json_object('$groups', json_object('company', ${companyKey(idx)}))) ELSE ${props} END`;

/** Browsing: pageviews along a few journeys ending in a pageleave on the web; screens in the app. */
export const SEED_BROWSING = `
CREATE OR REPLACE TEMP TABLE seed_browsing AS
WITH ev AS (
  SELECT ss.*, unnest(range(ss.len)) AS k FROM seed_sessions ss
), timed AS (
  SELECT ev.*, sp.* EXCLUDE (p), $day0 + CASE WHEN ev.j = 0 THEN sp.first_day * 86400 + sp.first_second ELSE ev.d * 86400 + ev.second END
           + ev.k * ev.step + floor(seed_r($salt, ev.p * 100 + ev.j, 1000 + ev.k) * 10) AS ts_s,
    sp.signed_up AND (CASE WHEN ev.j = 0 THEN sp.first_s ELSE $day0 + ev.d * 86400 + ev.second END) >= sp.signup_s AS known
  FROM ev JOIN seed_persons sp USING (p)
), named AS (
  SELECT *,
    CASE WHEN known THEN [4, 6, 4, 1, 5, 6][1 + journey] ELSE [1, 2, 3, 5, 1, 2][1 + journey] END AS tpl,
    CASE WHEN NOT mobile AND k = len - 1 THEN k - 1 ELSE k END AS page_k
  FROM timed WHERE ts_s <= $now_s AND first_s <= $now_s
), paged AS (
  SELECT *,
    list_element([['/', '/pricing', '/signup', '/files', '/files/shared'], ['/blog', '/blog/launch-week', '/', '/pricing'],
      ['/docs', '/docs/getting-started', '/docs/api', '/docs'], ['/files', '/files/shared', '/files', '/settings'],
      ['/', '/features', '/pricing', '/account/billing'], ['/files', '/files/upload', '/files', '/files/shared', '/settings/team']][tpl],
      1 + page_k % CASE tpl WHEN 2 THEN 4 WHEN 3 THEN 4 WHEN 4 THEN 4 WHEN 5 THEN 4 ELSE 5 END) AS path,
    list_element([['Home', 'Files', 'File Detail', 'Share'], ['Home', 'Upload', 'Files'], ['Files', 'File Detail', 'Files', 'Settings'],
      ['Home', 'Settings', 'Upgrade'], ['Home', 'Files', 'File Detail', 'Share'], ['Files', 'Upload', 'Files', 'Settings']][tpl],
      1 + page_k % CASE tpl WHEN 2 THEN 3 WHEN 4 THEN 3 ELSE 4 END) AS screen
  FROM named
)
SELECT seed_uid($salt, 'event', (p * 100 + j) * 100 + k) AS uuid,
  CASE WHEN mobile AND k = 0 THEN 'Application Opened' WHEN mobile THEN '$screen'
       WHEN k = len - 1 THEN '$pageleave' ELSE '$pageview' END AS event,
  CASE WHEN known THEN email ELSE anon_id END AS distinct_id,
  ts_s,
  ${withCompany(
    'known',
    'company_idx',
    `CASE WHEN mobile THEN json_object('$screen_name', screen, '$session_id', session_id, ${APP_PROPS})
       ELSE json_object('$session_id', session_id, ${WEB_PROPS}) END`,
  )} AS properties,
  hash($salt, p, j, k) AS keep_order
FROM paged`;

/** Sign-up (with `$identify` merging the anonymous id), created project, invited teammate, purchases. */
export const SEED_LIFECYCLE = `
CREATE OR REPLACE TEMP TABLE seed_lifecycle AS
WITH ids AS (
  SELECT sp.*, seed_uid($salt, 'session', p * 100) AS session_id,
    CASE WHEN mobile THEN '' ELSE '/signup' END AS path,
    signup_s + 60 + floor(-ln(1 - seed_r($salt, p, 30)) * 6 * 3600) AS project_s
  FROM seed_persons sp WHERE signed_up
), steps AS (
  SELECT p, 'user signed up' AS event, signup_s AS ts_s, 0 AS n FROM ids
  UNION ALL SELECT p, '$identify', signup_s, 0 FROM ids
  UNION ALL SELECT p, 'created project', project_s, 0 FROM ids WHERE created_project
  UNION ALL SELECT p, 'invited teammate', project_s + 120 + floor(-ln(1 - seed_r($salt, p, 31)) * 24 * 3600), 0 FROM ids
    WHERE created_project AND r_invite < 0.45
  UNION ALL SELECT p, 'purchase', project_s + 1800 + n * 30 * 86400 + floor(seed_r($salt, p, 40 + n) * 2 * 86400), n
    FROM (SELECT *, unnest(range(1 + floor(seed_r($salt, p, 32) * 3)::INTEGER)) AS n FROM ids WHERE created_project AND plan <> 'free')
)
SELECT seed_uid($salt, 'milestone:' || steps.event, p * 10 + steps.n) AS uuid, steps.event, ids.email AS distinct_id, steps.ts_s,
  ${withCompany(
    'true',
    'ids.company_idx',
    `CASE steps.event
    WHEN '$identify' THEN json_object('$anon_distinct_id', ids.anon_id, '$set', json_object('email', ids.email, 'plan', ids.plan), '$session_id', ids.session_id, ${COMMON_PROPS})
    WHEN 'user signed up' THEN json_object('signup_method', ['email', 'google', 'github'][1 + floor(seed_r($salt, ids.p, 33) * 3)::INTEGER],
      '$session_id', ids.session_id, '$current_url', CASE WHEN ids.mobile THEN NULL ELSE 'https://' || $host || ids.path END, ${COMMON_PROPS})
    WHEN 'purchase' THEN json_object('revenue', CASE WHEN ids.plan = 'pro' THEN [29, 49][1 + floor(seed_r($salt, ids.p, 50 + steps.n) * 2)::INTEGER]
        ELSE 200 + floor(seed_r($salt, ids.p, 50 + steps.n) * 800)::INTEGER END, 'currency', 'USD', 'plan', ids.plan, ${COMMON_PROPS})
    ELSE json_object('plan', ids.plan, ${COMMON_PROPS})
  END`,
  )} AS properties
FROM steps JOIN ids USING (p)
WHERE steps.ts_s <= $now_s
UNION ALL
SELECT seed_uid($salt, 'groupidentify', c.company_idx), '$groupidentify', c.email, c.ts_s,
  json_object('$group_type', 'company', '$group_key', ${companyKey('c.company_idx')}, '$group_set', json_object(
    'name', ${COMPANY_NAMES}[1 + c.company_idx],
    'plan', ['free', 'pro', 'pro', 'enterprise'][1 + floor(4 * seed_r($salt, c.company_idx, 61))::INTEGER],
    'employees', 5 + floor(2000 * pow(seed_r($salt, c.company_idx, 62), 3))::INTEGER),
    '$groups', json_object('company', ${companyKey('c.company_idx')}))
FROM (SELECT company_idx, arg_min(email, signup_s) AS email, min(signup_s) AS ts_s FROM ids GROUP BY company_idx) c
WHERE c.ts_s <= $now_s`;

const MATERIALIZED = materializedInsert('properties', (_, i) => `$mp_${i}`);
/** Named parameters of {@link SEED_STAGE_EVENTS} besides $limit: the materialized keys' paths. */
export const SEED_MATERIALIZED_PARAMS = Object.fromEntries(
  MATERIALIZED_PROPERTIES.map((m, i) => [`mp_${i}`, materializedPointer(m.key)]),
);

/**
 * The project's demo events, staged with their materialized keys extracted (one JSON parse per
 * row) and no ordering: writing this needs little memory whatever the size.
 */
export const SEED_STAGE_EVENTS = `
CREATE OR REPLACE TABLE seed_all AS
SELECT *, ${MATERIALIZED.list} AS mp FROM (
  SELECT uuid, event, distinct_id, ts_s, properties FROM seed_lifecycle
  UNION ALL
  SELECT uuid, event, distinct_id, ts_s, properties FROM (SELECT * FROM seed_browsing ORDER BY keep_order, uuid LIMIT $limit::BIGINT)
)`;

/**
 * Moves one time slice [$from_s, $to_s) of the staged events into `events`, sorted by time:
 * slices go oldest first, so the table ends up in time order (good zone maps) while each sort
 * stays small — one sort over a million rows runs out of the store's memory limit. Each event
 * stores its person and its key (persons, their keys and distinct ids are written first).
 */
export const SEED_INSERT_EVENTS = `
INSERT INTO events (uuid, team_id, event, distinct_id, person_id, person_key, timestamp, properties, created_at, ${MATERIALIZED.columns})
SELECT uuid, $team, event, s.distinct_id, pdi.person_id, k.key, to_timestamp(ts_s), properties, to_timestamp(ts_s), ${MATERIALIZED.values}
FROM seed_all s LEFT JOIN person_distinct_ids pdi ON pdi.team_id = $team AND pdi.distinct_id = s.distinct_id
LEFT JOIN person_keys k ON k.team_id = $team AND k.person_id = pdi.person_id
WHERE ts_s >= $from_s AND ts_s < $to_s
ORDER BY ts_s, uuid`;

export const SEED_INSERT_PERSONS = `
INSERT INTO persons (id, team_id, properties, is_identified, created_at)
SELECT person_id, $team,
  CASE WHEN signed_up
    THEN json_object('email', email, 'name', upper(first_name[1]) || first_name[2:], 'plan', plan, '$initial_os', os,
                     '$initial_browser', browser, '$geoip_country_code', country)
    ELSE json_object('$initial_os', os, '$initial_browser', browser, '$geoip_country_code', country) END,
  signed_up, to_timestamp(first_s)
FROM seed_persons WHERE first_s <= $now_s`;

export const SEED_INSERT_DISTINCT_IDS = `
INSERT INTO person_distinct_ids (team_id, distinct_id, person_id)
SELECT $team, anon_id, person_id FROM seed_persons WHERE first_s <= $now_s
UNION ALL
SELECT $team, email, person_id FROM seed_persons WHERE signed_up AND first_s <= $now_s`;

export const SEED_DROP = ['seed_all', 'seed_browsing', 'seed_lifecycle', 'seed_sessions', 'seed_persons'].map(
  (t) => `DROP TABLE IF EXISTS ${t}`,
);
