import { z } from './z';
import { endpoint, listQuerySchema, pageSchema, timestampSchema, uuidSchema } from './common';

/** Membership levels (docs/api.md): 1 member, 8 admin, 15 owner. */
export const MEMBERSHIP_LEVELS = { member: 1, admin: 8, owner: 15 } as const;
export const membershipLevelSchema = z.union([z.literal(1), z.literal(8), z.literal(15)]);
export type MembershipLevel = z.infer<typeof membershipLevelSchema>;

export const organizationSchema = z.looseObject({
  id: uuidSchema,
  name: z.string(),
  slug: z.string(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
  membership_level: z.nullable(z.int()),
  plugins_access_level: z.int(),
  teams: z.array(z.record(z.string(), z.unknown())),
  available_product_features: z.array(z.unknown()),
  is_member_join_email_enabled: z.boolean(),
  metadata: z.unknown(),
  customer_id: z.nullable(z.string()),
  enforce_2fa: z.nullable(z.boolean()),
  member_count: z.union([z.string(), z.number()]),
});
export type Organization = z.infer<typeof organizationSchema>;

export const ORGANIZATION_NAME_MAX = 64;

export const organizationCreateSchema = z.object({
  name: z.string({ error: 'This field is required.' }).check(
    z.trim(),
    z.minLength(1, { error: 'This field may not be blank.' }),
    z.maxLength(ORGANIZATION_NAME_MAX, {
      error: `Ensure this field has no more than ${ORGANIZATION_NAME_MAX} characters.`,
    }),
  ),
  is_member_join_email_enabled: z.optional(z.boolean()),
  enforce_2fa: z.optional(z.nullable(z.boolean())),
});
export type OrganizationCreate = z.infer<typeof organizationCreateSchema>;

export const organizationUpdateSchema = z.partial(organizationCreateSchema);
export type OrganizationUpdate = z.infer<typeof organizationUpdateSchema>;

const idParams = z.object({ id: uuidSchema });

export const organizationEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/organizations/',
    access: 'organization:read',
    summary: 'List organizations',
    query: listQuerySchema,
    status: 200,
    response: pageSchema(organizationSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/organizations/',
    access: 'organization:write',
    summary: 'Create an organization',
    body: organizationCreateSchema,
    status: 201,
    response: organizationSchema,
  }),
  retrieve: endpoint({
    method: 'GET',
    path: '/api/organizations/:id/',
    access: 'organization:read',
    summary: 'Retrieve an organization',
    params: idParams,
    status: 200,
    response: organizationSchema,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/organizations/:id/',
    access: 'organization:write',
    summary: 'Update an organization',
    params: idParams,
    body: organizationUpdateSchema,
    status: 200,
    response: organizationSchema,
  }),
  destroy: endpoint({
    method: 'DELETE',
    path: '/api/organizations/:id/',
    access: 'organization:write',
    summary: 'Delete an organization',
    params: idParams,
    status: 204,
  }),
};
