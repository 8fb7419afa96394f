import type { DestinationType } from '../../../src/contract/index.ts';
import { deliverHttp } from './http.ts';
import { deliverNoOp } from './noop.ts';
import type { Deliver } from './types.ts';
import { unreachable } from './unreachable.ts';

export { DeliveryError, type DeliveryContext, type DestinationOptions } from './types.ts';

const DESTINATIONS: Record<DestinationType, Deliver> = {
  NoOp: deliverNoOp,
  HTTP: deliverHttp,
  S3: unreachable('S3'),
  Snowflake: unreachable('Snowflake'),
  Postgres: unreachable('Postgres'),
  Redshift: unreachable('Redshift'),
  BigQuery: unreachable('BigQuery'),
};

export function destinationFor(type: DestinationType): Deliver {
  return DESTINATIONS[type];
}
