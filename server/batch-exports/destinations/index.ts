import type { DestinationType } from '../../../src/contract/index.ts';
import { bigQueryDestination } from './bigquery.ts';
import { httpDestination } from './http.ts';
import { noOpDestination } from './noop.ts';
import { postgresDestination, redshiftDestination } from './postgres.ts';
import { s3Destination } from './s3.ts';
import { snowflakeDestination } from './snowflake.ts';
import type { Destination } from './types.ts';

export {
  DeliveryError,
  type CheckStep,
  type DeliveryContext,
  type Destination,
  type DestinationOptions,
} from './types.ts';

const DESTINATIONS: Record<DestinationType, Destination> = {
  NoOp: noOpDestination,
  HTTP: httpDestination,
  S3: s3Destination,
  Snowflake: snowflakeDestination,
  Postgres: postgresDestination,
  Redshift: redshiftDestination,
  BigQuery: bigQueryDestination,
};

export function destinationFor(type: DestinationType): Destination {
  return DESTINATIONS[type];
}
