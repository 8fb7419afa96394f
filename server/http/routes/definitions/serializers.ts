import type { EventDefinition, PropertyDefinition, PropertyValueSuggestion } from '../../../../src/contract/index.ts';
import {
  definitionId,
  type EventNameStats,
  type PropertyKeyStats,
  type PropertyValueStats,
} from '../../../analytics/query/definitions.ts';

export function eventDefinitionResponse(projectId: number, s: EventNameStats): EventDefinition {
  return {
    id: definitionId(projectId, 'event', s.name),
    name: s.name,
    volume_30_day: s.volume_30_day,
    query_usage_30_day: null,
    created_at: s.first_seen,
    last_seen_at: s.last_seen,
  };
}

export function propertyDefinitionResponse(
  projectId: number,
  type: 'event' | 'person',
  s: PropertyKeyStats,
): PropertyDefinition {
  return {
    id: definitionId(projectId, `${type}-property`, s.name),
    name: s.name,
    type,
    property_type: s.property_type,
    is_numerical: s.property_type === 'Numeric',
    volume_30_day: s.volume_30_day,
  };
}

export const propertyValueResponse = (s: PropertyValueStats): PropertyValueSuggestion => ({
  name: s.name,
  count: s.count,
});
