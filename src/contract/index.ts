/**
 * The API contract: zod schemas of every resource, request body and list query of the API,
 * and the registry of every endpoint. Imported by the SPA, the test handlers and the server.
 * zod only: no React, no Node.
 */
import type { Endpoint } from './common';
import { batchExportEndpoints } from './batch-exports';
import { cohortEndpoints } from './cohorts';
import { eventDefinitionEndpoints, propertyDefinitionEndpoints, propertyValueEndpoints } from './definitions';
import { domainEndpoints } from './domains';
import { groupEndpoints } from './groups';
import { insightEndpoints } from './insights';
import { inviteEndpoints } from './invites';
import { memberEndpoints } from './members';
import { organizationEndpoints } from './organizations';
import { personalApiKeyEndpoints } from './personal-api-keys';
import { personEndpoints } from './persons';
import { pipelineDestinationEndpoints, pipelineFrontendAppEndpoints, pipelineImportAppEndpoints } from './plugins';
import { pluginConfigEndpoints } from './plugin-configs';
import { projectEndpoints } from './projects';
import { userEndpoints } from './users';

export * from './common';
export * from './fields';
export * from './users';
export * from './organizations';
export * from './members';
export * from './invites';
export * from './domains';
export * from './batch-exports';
export * from './plugins';
export * from './plugin-configs';
export * from './personal-api-keys';
export * from './projects';
export * from './insights';
export * from './analytics';
export * from './persons';
export * from './definitions';
export * from './cohorts';
export * from './groups';

/** Every endpoint of the API, grouped by resource. */
export const endpoints = {
  organizations: organizationEndpoints,
  members: memberEndpoints,
  invites: inviteEndpoints,
  domains: domainEndpoints,
  batchExports: batchExportEndpoints,
  pipelineDestinations: pipelineDestinationEndpoints,
  pipelineFrontendApps: pipelineFrontendAppEndpoints,
  pipelineImportApps: pipelineImportAppEndpoints,
  pluginConfigs: pluginConfigEndpoints,
  projects: projectEndpoints,
  insights: insightEndpoints,
  personalApiKeys: personalApiKeyEndpoints,
  persons: personEndpoints,
  cohorts: cohortEndpoints,
  groups: groupEndpoints,
  eventDefinitions: eventDefinitionEndpoints,
  propertyDefinitions: propertyDefinitionEndpoints,
  propertyValues: propertyValueEndpoints,
  users: userEndpoints,
} satisfies Record<string, Record<string, Endpoint>>;

export const allEndpoints: Endpoint[] = Object.values(endpoints).flatMap((group) => Object.values(group));
