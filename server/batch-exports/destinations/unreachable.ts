import type { DestinationType } from '../../../src/contract/index.ts';
import { DeliveryError, type Destination } from './types.ts';

const LABELS: Partial<Record<DestinationType, string>> = {
  S3: 'S3', Snowflake: 'Snowflake', Postgres: 'Postgres', Redshift: 'Redshift', BigQuery: 'BigQuery',
};

/** Where the export would write, named without any secret. */
function target(type: DestinationType, config: Record<string, unknown>): string {
  switch (type) {
    case 'S3': return `bucket ${String(config.bucket_name)} in ${String(config.region)}`;
    case 'Snowflake': return `account ${String(config.account)}`;
    case 'BigQuery': return `project ${String(config.project_id)}`;
    default: return `host ${String(config.host)}`;
  }
}

/** The latest_error of a run to a destination this server cannot reach. */
export function unreachableMessage(type: DestinationType, config: Record<string, unknown>, total: number): string {
  return `${LABELS[type] ?? type} destinations cannot be reached from this reference server ` +
    `(${target(type, config)}): the ${total} records of this interval were not exported. ` +
    'Use an HTTP or NoOp destination here, or point the dashboard at a production instance.';
}

/**
 * Destinations this reference server cannot write to: the run fails (never Completed) with an
 * error saying so. Not retried: trying again cannot help.
 */
export function unreachable(type: DestinationType): Destination {
  return {
    deliver: ({ config, total }) => Promise.reject(new DeliveryError(unreachableMessage(type, config, total), false)),
    check: () => Promise.resolve([{ step: 'Connect', status: 'failed', detail: `${LABELS[type] ?? type} destinations are not supported yet.` }]),
  };
}
