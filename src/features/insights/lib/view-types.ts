import type { ValueUnit } from './format';

/** How a trends result is drawn: the `display` of its filters. */
export type TrendDisplay = 'line' | 'cumulative' | 'area' | 'table' | 'pie' | 'bar' | 'bar-value' | 'map' | 'number';

export interface TrendSeriesView {
  /** Stable across renders and displays: the legend's and the chart's key. */
  key: string;
  label: string;
  /** The palette index: a compared pair shares it. */
  colour: number;
  /** Per point (running sums when cumulative); empty for the aggregated displays. */
  data: number[];
  /** The aggregated value (pie, bar by value, map, number), else the sum of the points. */
  total: number;
  /** With compare: which period this series is. */
  period: 'current' | 'previous' | null;
  /** The breakdown value as text, null without a breakdown. */
  breakdownValue: string | null;
  /** This series' own dates (a previous period has its own). */
  days: string[];
  /** Those dates as the x axis writes them (the API's labels, else the dates). */
  labels: string[];
}

export interface TrendsView {
  type: 'trends';
  display: TrendDisplay;
  /** X axis labels (the current period's); empty for the aggregated displays. */
  labels: string[];
  series: TrendSeriesView[];
  compare: boolean;
  unit: ValueUnit;
  /** What the values count, as the value axis's title ("Persons", "Sum of revenue"). */
  valueLabel: string;
}

export interface FunnelStepView {
  name: string;
  count: number;
  /** From the first step (0..1). */
  conversion: number;
  /** From the previous step (0..1). */
  fromPrevious: number;
  /** Persons who did the previous step and not this one (0 on the first). */
  dropped: number;
  /** Seconds from the previous step; null on the first step or with no conversions. */
  averageTime: number | null;
  medianTime: number | null;
}

export interface FunnelView {
  type: 'funnel';
  /** All persons (the groups summed with a breakdown). */
  steps: FunnelStepView[];
  /** With a breakdown: each value's steps. */
  groups: Array<{ breakdownValue: string; breakdownKey?: string; steps: FunnelStepView[] }> | null;
}

export interface TimeToConvertView {
  type: 'time-to-convert';
  bins: Array<{ seconds: number; count: number }>;
  average: number | null;
  /** What the bins count: "Persons", "Companies". */
  counted: string;
}

export interface RetentionView {
  type: 'retention';
  periods: number;
  /** What a period is called, from the cohorts' labels ("Week 0" → "Week"); "Period" when they say nothing. */
  periodName: string;
  /** `head`: the cohort's start as people read it (its date in the project's zone), else its label. */
  cohorts: Array<{ head: string; counts: number[] }>;
  /**
   * Per period: the share of the cohorts' persons still there (0..1), over the cohorts that
   * reached it; null when those cohorts have no persons (nothing to average).
   */
  curve: Array<number | null>;
  /**
   * Broken down: each value's cohorts and curve, in the API's order (`label` the value, "None",
   * "Other"); without a breakdown one group, labelled null, the same as `cohorts` and `curve`.
   */
  groups: Array<{ label: string | null; cohorts: RetentionView['cohorts']; curve: RetentionView['curve'] }>;
}

export interface PathsView {
  type: 'paths';
  edges: Array<{ source: string; target: string; value: number; averageTime: number | null }>;
}

/** An insight's `result`, read into what its chart and its table both show. */
export type ResultView = TrendsView | FunnelView | TimeToConvertView | RetentionView | PathsView | { type: 'empty' };
