import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { definitionQueries } from '../../api/definitions.queries';
import { FieldMessage, inputClasses } from './field-parts';
import { useDebounced } from './pickers/use-debounced';

interface PathPointFieldProps {
  projectId: number;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}

/** A path's start or end: free text, with the project's `$current_url` values as suggestions. */
export function PathPointField({ projectId, label, value, onChange, error }: PathPointFieldProps) {
  const id = useId();
  const search = useDebounced(value);
  const suggestions = useQuery(
    definitionQueries.values(projectId, { key: '$current_url', type: 'event', search, eventName: '$pageview' }),
  );
  const values = (suggestions.data ?? []).map((v) => String(v.name ?? '')).filter(Boolean);
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        className={inputClasses(Boolean(error))}
        value={value}
        list={`${id}-suggestions`}
        placeholder="Any page or event"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id={`${id}-suggestions`}>
        {values.map((v) => (
          <option key={v} value={v} />
        ))}
      </datalist>
      <FieldMessage id={`${id}-error`} error={error} />
    </div>
  );
}
