/**
 * How an event is named on screen, wherever it shows (pickers, chart legends, tables, funnel
 * steps): the events the SDKs send in words ("$pageview" → "Pageview"), others as named.
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

/** An event's name in words; null is every event. */
export function eventLabel(name: string | null): string {
  if (name === null) return 'All events';
  return CORE_EVENTS[name] ?? name;
}
