import { z } from './z';
import { endpoint, keyScopeSchema, nullableTimestampSchema, timestampSchema } from './common';

/** Personal API keys are `phx_` followed by base62 text. */
export const PERSONAL_API_KEY_PATTERN = /^phx_[A-Za-z0-9]{20,}$/;

export const personalApiKeySchema = z.looseObject({
  id: z.string(),
  label: z.string(),
  mask_value: z.string(),
  scopes: z.array(z.union([keyScopeSchema, z.string()])),
  scoped_organizations: z.nullable(z.array(z.string())),
  scoped_teams: z.nullable(z.array(z.int())),
  created_at: timestampSchema,
  last_used_at: nullableTimestampSchema,
});
export type PersonalApiKey = z.infer<typeof personalApiKeySchema>;

export const personalApiKeyEndpoints = {
  current: endpoint({
    method: 'GET',
    path: '/api/personal_api_keys/@current/',
    access: 'authenticated',
    summary: 'The key making the request, with its scopes',
    status: 200,
    response: personalApiKeySchema,
  }),
};
