import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { PERSONS, pluralOf, type ActorWords } from '../lib/actor-words';
import { definitionQueries } from './definitions.queries';

/**
 * The words for what an analysis aggregated by `index` counts: its group type's names (from the
 * project's `groups_types/`), persons when it is not aggregated by a group type. The same object
 * while they stay the same, so views memoised on it are not rebuilt.
 */
export function useActorWords(projectId: number | null, index: number | null | undefined): ActorWords {
  const byGroup = typeof index === 'number';
  const types = useQuery({
    ...definitionQueries.groupTypes(projectId ?? 0),
    enabled: byGroup && projectId !== null,
  }).data;
  const type = byGroup ? types?.find((t) => t.group_type_index === index) : undefined;
  const one = type ? (type.name_singular ?? type.group_type) : 'group';
  const many = type ? (type.name_plural ?? pluralOf(type.group_type)) : 'groups';
  return useMemo(() => (byGroup ? { one, many, groups: true } : PERSONS), [byGroup, one, many]);
}
