import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { FUNNEL_CORRELATION_LIMITS } from '@/contract/insights';
import { definitionQueries } from '../../api/definitions.queries';

interface Props {
  projectId: number;
  value: readonly string[];
  onChange: (next: string[]) => void;
}

/** Choose the person properties whose values are correlated with conversion (at most 20). */
export function CorrelationPropertyChooser({ projectId, value, onChange }: Props) {
  const id = useId();
  const [search, setSearch] = useState('');
  const definitions = useQuery(definitionQueries.properties(projectId, { type: 'person', search }));
  const options = (definitions.data?.results ?? []).map((d) => d.name).filter((name) => !value.includes(name));
  const full = value.length >= FUNNEL_CORRELATION_LIMITS.names;

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end gap-2">
        <div className="space-y-1">
          <label htmlFor={`${id}-search`} className="block text-sm font-medium">
            Find a person property
          </label>
          <input
            id={`${id}-search`}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="block w-48 rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm dark:border-gray-600 dark:bg-gray-900"
          />
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-add`} className="block text-sm font-medium">
            Add a person property
          </label>
          <select
            id={`${id}-add`}
            value=""
            disabled={full}
            onChange={(e) => {
              if (e.target.value) onChange([...value, e.target.value]);
            }}
            className="block w-56 rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm dark:border-gray-600 dark:bg-gray-900"
          >
            <option value="">
              {definitions.isPending ? 'Loading…' : options.length ? 'Choose…' : 'No properties found'}
            </option>
            {options.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {value.length ? (
        <ul aria-label="Person properties correlated" className="flex flex-wrap gap-2">
          {value.map((name) => (
            <li
              key={name}
              className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-3 text-sm text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100"
            >
              {name}
              <button
                type="button"
                aria-label={`Remove ${name}`}
                onClick={() => onChange(value.filter((v) => v !== name))}
                className="rounded-full p-1 hover:bg-indigo-100 dark:hover:bg-indigo-900"
              >
                <X aria-hidden="true" className="size-3" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
