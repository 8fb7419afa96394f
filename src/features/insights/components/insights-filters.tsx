import { Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { INSIGHT_KINDS, type InsightKind } from '@/contract/insights';
import { kindLabel } from './insight-kind';
import { listRoute } from './list-route';

const SEARCH_DELAY_MS = 300;

/** The search box, the kind, "Favorites only" and "Created by me", all in the URL (a new filter starts at page 1). */
export function InsightsFilters() {
  const { search = '', favorited = false, kind, mine = false } = listRoute.useSearch();
  const navigate = listRoute.useNavigate();
  const [text, setText] = useState(search);
  const [shownSearch, setShownSearch] = useState(search);
  const searchId = useId();
  const kindId = useId();

  // The URL changed elsewhere (back button, a link): the box follows it.
  if (shownSearch !== search) {
    setShownSearch(search);
    if (text.trim() !== search) setText(search);
  }

  useEffect(() => {
    if (text.trim() === search) return;
    const timer = setTimeout(
      () =>
        void navigate({
          search: (previous) => ({ ...previous, search: text.trim() || undefined, page: 1 }),
          replace: true,
        }),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [text, search, navigate]);

  return (
    <div role="search" aria-label="Filter insights" className="mb-4 flex flex-wrap items-center gap-4">
      <div className="relative">
        <label htmlFor={searchId} className="sr-only">
          Search insights
        </label>
        <Search aria-hidden="true" className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-gray-500" />
        <input
          id={searchId}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Search by name, description or tag"
          className="block w-72 rounded-md border border-gray-300 bg-white py-2 pr-3 pl-8 text-sm dark:border-gray-600 dark:bg-gray-900"
        />
      </div>
      <div className="inline-flex items-center gap-2 text-sm">
        <label htmlFor={kindId}>Kind</label>
        <select
          id={kindId}
          value={kind ?? ''}
          onChange={(event) =>
            void navigate({
              search: (previous) => ({
                ...previous,
                kind: (event.target.value || undefined) as InsightKind | undefined,
                page: 1,
              }),
              replace: true,
            })
          }
          className="rounded-md border border-gray-300 bg-white px-2 py-2 text-sm dark:border-gray-600 dark:bg-gray-900"
        >
          <option value="">All kinds</option>
          {INSIGHT_KINDS.map((k) => (
            <option key={k} value={k}>
              {kindLabel(k)}
            </option>
          ))}
        </select>
      </div>
      <label className="inline-flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={favorited}
          onChange={(event) =>
            void navigate({
              search: (previous) => ({ ...previous, favorited: event.target.checked || undefined, page: 1 }),
              replace: true,
            })
          }
          className="size-4"
        />
        Favorites only
      </label>
      <label className="inline-flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={mine}
          onChange={(event) =>
            void navigate({
              search: (previous) => ({ ...previous, mine: event.target.checked || undefined, page: 1 }),
              replace: true,
            })
          }
          className="size-4"
        />
        Created by me
      </label>
    </div>
  );
}
