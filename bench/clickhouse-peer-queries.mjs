// ClickHouse SQL of bench/clickhouse-peer.mjs: the work our endpoints do, written as the
// production service would run it on its events table (windowFunnel for funnels). Instants are
// epoch milliseconds (UTC); every value here comes from the bench itself, never from users.
const DAY = 86_400_000;
const WEEK = 7 * DAY;

const at = (ms) => `fromUnixTimestamp64Milli(toInt64(${Math.trunc(ms)}), 'UTC')`;
const list = (names) => names.map((n) => `'${n.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`).join(', ');
const between = ({ from, to }) => `timestamp >= ${at(from)} AND timestamp <= ${at(to)}`;

/** Sunday 00:00 UTC of the week holding `t` (1 Jan 1970 was a Thursday). */
const sundayOf = (t) => Math.floor((t + 4 * DAY) / WEEK) * WEEK - 4 * DAY;

export function clickhouseQueries({ now, trend, funnel, paths, trendEvents, funnelSteps }) {
  const trendWhere = `${between(trend)} AND event IN (${list(trendEvents)})`;
  const funnelConds = funnelSteps.map((s) => `event = ${list([s])}`).join(', ');
  const funnelWindow = 14 * DAY;
  const lastWeek = sundayOf(now);
  const retention = { from: lastWeek - 7 * WEEK, to: lastWeek + WEEK - 1 };
  return {
    // Counts per series, day and browser: the top 25 browsers of each series by count, the
    // rest 'Other', empty 'None' (the trend endpoint's breakdown rules).
    trend: `SELECT event, toDate(timestamp) AS day,
        multiIf(browser = '', 'None', (event, browser) IN (
          SELECT event, browser FROM events WHERE ${trendWhere} AND browser != ''
          GROUP BY event, browser ORDER BY count() DESC, browser LIMIT 25 BY event), browser, 'Other') AS bval,
        count() AS c
      FROM events WHERE ${trendWhere} GROUP BY event, day, bval`,
    'funnel ordered': `SELECT level, count() FROM (
        SELECT person_id, windowFunnel(${funnelWindow})(toUInt64(toUnixTimestamp64Milli(timestamp)), ${funnelConds}) AS level
        FROM events WHERE ${between(funnel)} AND event IN (${list(funnelSteps)}) GROUP BY person_id)
      WHERE level > 0 GROUP BY level ORDER BY level`,
    // strict_order needs every event of the person (another event breaks the chain).
    'funnel strict': `SELECT level, count() FROM (
        SELECT person_id, windowFunnel(${funnelWindow}, 'strict_order')(toUInt64(toUnixTimestamp64Milli(timestamp)), ${funnelConds}) AS level
        FROM events WHERE ${between(funnel)} GROUP BY person_id)
      WHERE level > 0 GROUP BY level ORDER BY level`,
    // Recurring retention by week (Sunday), 8 cohorts ending with the week holding now.
    retention: `WITH weeks AS (
        SELECT DISTINCT person_id, toStartOfWeek(timestamp, 0) AS wk FROM events WHERE event = '$pageview' AND ${between(retention)})
      SELECT c.wk AS cohort, r.wk AS period, count() AS n
      FROM weeks c INNER JOIN weeks r ON r.person_id = c.person_id WHERE r.wk >= c.wk GROUP BY cohort, period`,
    // Paths: sessions split at gaps over 30 minutes, repeats collapsed, the first 5 items,
    // edges with distinct persons and mean milliseconds.
    paths: `WITH ev AS (
        SELECT person_id, uuid, timestamp AS ts,
          if(event = '$pageview', coalesce(current_url, event), coalesce(screen_name, event)) AS item
        FROM events WHERE event IN ('$pageview', '$screen') AND ${between(paths)}),
      marked AS (
        SELECT *, row_number() OVER w AS rn, lagInFrame(ts) OVER w AS pts, lagInFrame(item) OVER w AS pitem
        FROM ev WINDOW w AS (PARTITION BY person_id ORDER BY ts, uuid ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)),
      sessions AS (
        SELECT *, sum(toUInt64(rn = 1 OR dateDiff('millisecond', pts, ts) > 1800000)) OVER (PARTITION BY person_id ORDER BY ts, uuid ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS session,
          rn = 1 OR dateDiff('millisecond', pts, ts) > 1800000 AS starts
        FROM marked),
      kept AS (SELECT * FROM sessions WHERE starts OR item != pitem),
      positioned AS (
        SELECT person_id, item, ts, row_number() OVER s AS pos, leadInFrame(item) OVER s AS nitem, leadInFrame(ts) OVER s AS nts,
          count() OVER s AS len
        FROM kept WINDOW s AS (PARTITION BY person_id, session ORDER BY ts, uuid ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))
      SELECT concat(toString(pos), '_', item) AS source, concat(toString(pos + 1), '_', nitem) AS target,
        uniqExact(person_id) AS value, avg(dateDiff('millisecond', ts, nts)) AS average_conversion_time
      FROM positioned WHERE pos < 5 AND pos < len GROUP BY source, target ORDER BY value DESC, source, target LIMIT 50`,
  };
}
