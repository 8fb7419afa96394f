import { querySummary } from '../lib/query-summary';

/** What a saved insight shows, in words, above its chart (lib/query-summary.ts). */
export function QuerySummary({ filters }: { filters: unknown }) {
  const lines = querySummary(filters);
  if (lines.length === 0) return null;
  return (
    <dl
      aria-label="Query"
      className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 rounded-lg border border-gray-200 p-3 text-sm dark:border-gray-800"
    >
      {lines.map((line) => (
        <div key={line.label} className="contents">
          <dt className="font-medium text-gray-600 dark:text-gray-400">{line.label}</dt>
          <dd className="min-w-0 wrap-anywhere">{line.text}</dd>
        </div>
      ))}
    </dl>
  );
}
