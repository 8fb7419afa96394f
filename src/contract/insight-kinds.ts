/**
 * The kinds of analysis an insight holds (`filters.insight`; a query node's kind without
 * "Query"). A module of its own: the insights list route validates its URL with it, and route
 * search schemas load with the app's entry, where the rest of the insight contract must not.
 */
export const INSIGHT_KINDS = ['TRENDS', 'FUNNELS', 'RETENTION', 'PATHS'] as const;
export type InsightKind = (typeof INSIGHT_KINDS)[number];
