import type { PropertyMath } from '@/contract/analytics-params';

/**
 * How events and property keys are named on screen, wherever they show (pickers, chart legends,
 * tables, funnel steps): what the SDKs send in words ("$pageview" → "Pageview", "$browser" →
 * "Browser"); other names as they are.
 */
const CORE_EVENTS: Record<string, string> = {
  $pageview: 'Pageview',
  $pageleave: 'Pageleave',
  $screen: 'Screen',
  $autocapture: 'Autocapture',
  $identify: 'Identify',
  $groupidentify: 'Group identify',
  $feature_flag_called: 'Feature flag called',
  $exception: 'Exception',
};

/** A property math in words, for "Sum of revenue" on an axis and "Sum of a property" in the picker. */
export const PROPERTY_MATH_WORDS: Record<PropertyMath, string> = {
  sum: 'Sum',
  avg: 'Average',
  min: 'Minimum',
  max: 'Maximum',
  median: 'Median',
  p90: '90th percentile',
  p95: '95th percentile',
  p99: '99th percentile',
};

/** An event's name in words; null is every event. */
export function eventLabel(name: string | null): string {
  if (name === null) return 'All events';
  return CORE_EVENTS[name] ?? name;
}

const CORE_PROPERTIES: Record<string, string> = {
  $browser: 'Browser',
  $browser_version: 'Browser version',
  $browser_language: 'Browser language',
  $os: 'OS',
  $os_version: 'OS version',
  $device_type: 'Device type',
  $current_url: 'Current URL',
  $pathname: 'Path name',
  $host: 'Host',
  $referrer: 'Referrer URL',
  $referring_domain: 'Referring domain',
  $screen_width: 'Screen width',
  $screen_height: 'Screen height',
  $lib: 'Library',
  $lib_version: 'Library version',
  $session_id: 'Session ID',
  $geoip_country_code: 'Country code',
  $geoip_country_name: 'Country name',
  $geoip_city_name: 'City name',
  $geoip_continent_name: 'Continent name',
};

/** A property key in words ("$browser" → "Browser"); others as they are. */
export function propertyLabel(key: string): string {
  return CORE_PROPERTIES[key] ?? key;
}

const COUNT_MATH_WORDS: Record<string, string> = {
  weekly_active: 'weekly active',
  monthly_active: 'monthly active',
  unique_session: 'unique sessions',
};

/**
 * A series' math in words for its name ("Pageview (unique persons)", "Purchase (sum of revenue)");
 * null for a plain count.
 */
export function mathWords(
  math: string | null | undefined,
  property?: string | null,
  hogql?: string | null,
  actors = 'persons',
): string | null {
  if (!math || math === 'total') return null;
  if (math === 'hogql') return hogql ?? 'HogQL';
  if (math === 'dau') return `unique ${actors}`;
  const count = COUNT_MATH_WORDS[math];
  if (count) return count;
  const words = (PROPERTY_MATH_WORDS as Record<string, string>)[math]?.toLowerCase() ?? math;
  return property ? `${words} of ${propertyLabel(property)}` : words;
}
