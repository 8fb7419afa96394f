/** Bounds on every analytics input: see docs/limits.md. */
/**
 * Bounds on every analytics input (docs/limits.md): far above what a person builds by clicking,
 * low enough that the worst request stays cheap. Each is a 400 naming the field; the time
 * budget of the server (ANALYTICS_TIMEOUT_MS) stops whatever the limits still allow.
 */
export const ANALYTICS_LIMITS = {
  /** Series of a trend (events + actions together). */
  series: 50,
  /** Steps of a funnel (events + actions together). */
  funnelSteps: 20,
  exclusions: 20,
  /** Formulas of a trend (`formulas`). */
  formulas: 5,
  /** Entries of one property group (filters or inner groups). */
  groupValues: 50,
  /** Property filters in the whole request (every series, step and group counted). */
  filters: 200,
  /** Values of one filter (`exact` with a list). */
  filterValues: 1000,
  /** Characters of one filter value. */
  valueLength: 4000,
  breakdownLimit: 1000,
  /** Entries of a list breakdown (cohort ids). */
  breakdowns: 50,
  /** Entries of `breakdowns` (several breakdowns at once), as the production service allows. */
  multipleBreakdowns: 3,
  /** Bins of a numeric breakdown (`breakdown_histogram_bin_count`, `histogram_bin_count`). */
  histogramBins: 100,
  /** Time buckets of one chart (interval × range). */
  buckets: 1000,
  /** Cells of a trend: buckets × series × breakdown values. */
  trendCells: 500_000,
  pathCleaningRules: 50,
  excludedEvents: 100,
  /** The longest funnel conversion window, in days (12 months, 52 weeks). */
  funnelWindowDays: 366,
} as const;

/**
 * HogQL expressions (breakdown, `type: hogql` filters, `math_hogql`; docs/hogql.md): the
 * longest expression in characters and the deepest nesting (parentheses, function calls,
 * operators), so that parsing and the SQL built from it stay small.
 */
export const HOGQL_LIMITS = {
  length: 2000,
  depth: 32,
} as const;
