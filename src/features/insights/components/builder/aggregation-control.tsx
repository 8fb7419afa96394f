import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { definitionQueries } from '../../api/definitions.queries';
import { FieldMessage, selectClasses } from './field-parts';
import type { ErrorFor } from './panel-types';

interface AggregationControlProps {
  projectId: number;
  /** `aggregation_group_type_index`: absent or null for persons. */
  value: number | null | undefined;
  onChange: (next: number | undefined) => void;
  errorFor: ErrorFor;
  /** What it counts, in words (e.g. "unique counts", "conversions"). */
  hint: string;
}

/**
 * "Aggregating by": persons, or one of the project's group types (docs/api.md, "Groups"). A
 * choice once the project has group types, or while the state names one (so a saved choice stays
 * visible); before that, the words "Aggregating by: Persons".
 */
export function AggregationControl({ projectId, value, onChange, errorFor, hint }: AggregationControlProps) {
  const id = useId();
  const types = useQuery(definitionQueries.groupTypes(projectId)).data ?? [];
  const chosen = value ?? null;
  // Without group types there is nothing to choose: it says so in words.
  if (types.length === 0 && chosen === null)
    return (
      <p className="text-sm">
        <span className="font-medium">Aggregating by:</span> Persons
      </p>
    );
  const error = errorFor('aggregation_group_type_index');
  const known = types.some((t) => t.group_type_index === chosen);
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium">
        Aggregating by
      </label>
      <select
        id={id}
        aria-describedby={`${id}-message`}
        aria-invalid={Boolean(error) || undefined}
        className={selectClasses(Boolean(error), 'w-full')}
        value={chosen === null ? '' : String(chosen)}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      >
        <option value="">Persons</option>
        {types.map((t) => (
          <option key={t.group_type_index} value={String(t.group_type_index)}>
            {t.name_plural ?? `${t.group_type} (groups)`}
          </option>
        ))}
        {chosen !== null && !known ? <option value={String(chosen)}>Group type {chosen}</option> : null}
      </select>
      <FieldMessage id={`${id}-message`} error={error} hint={hint} />
    </div>
  );
}
