import { z } from './zod.js';
import { isoDate } from './common.js';

/** The Microsoft clouds a tenant can live in: each has its own sign-in and Graph hosts. */
export const TENANT_CLOUDS = ['worldwide', 'gcc', 'gcchigh', 'dod'] as const;
export type TenantCloud = (typeof TENANT_CLOUDS)[number];
export const TENANT_CLOUD_LABELS: Record<TenantCloud, string> = {
  worldwide: 'Worldwide',
  gcc: 'GCC',
  gcchigh: 'GCC High',
  dod: 'DoD',
};

/**
 * Sign-in (Entra) and Microsoft Graph hosts per cloud, as Microsoft documents them for national clouds: GCC uses the
 * worldwide hosts; GCC High and DoD sign in at login.microsoftonline.us, and read Graph at graph.microsoft.us and
 * dod-graph.microsoft.us.
 */
export const TENANT_CLOUD_HOSTS: Record<TenantCloud, { authorityUrl: string; graphUrl: string }> = {
  worldwide: { authorityUrl: 'https://login.microsoftonline.com', graphUrl: 'https://graph.microsoft.com' },
  gcc: { authorityUrl: 'https://login.microsoftonline.com', graphUrl: 'https://graph.microsoft.com' },
  gcchigh: { authorityUrl: 'https://login.microsoftonline.us', graphUrl: 'https://graph.microsoft.us' },
  dod: { authorityUrl: 'https://login.microsoftonline.us', graphUrl: 'https://dod-graph.microsoft.us' },
};

/** public: everyone who may browse sees its posts; private: admins and the users given access. */
export const TENANT_VISIBILITIES = ['public', 'private'] as const;
export type TenantVisibility = (typeof TENANT_VISIBILITIES)[number];

/** The feeds read per tenant. */
export const TENANT_FEEDS = ['messages', 'health'] as const;
export type TenantFeed = (typeof TENANT_FEEDS)[number];

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

const tenantName = z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(100, 'name must be at most 100 characters');
/** The directory (tenant) id: a GUID, or a verified domain such as contoso.onmicrosoft.com. */
const directoryId = z
  .string({ error: 'tenantId is required' })
  .trim()
  .refine((v) => GUID.test(v) || DOMAIN.test(v), 'tenantId must be a directory (tenant) id (a GUID) or a verified domain');
const clientId = z
  .string({ error: 'clientId is required' })
  .trim()
  .refine((v) => GUID.test(v), 'clientId must be an application (client) id (a GUID)');
const clientSecret = z
  .string({ error: 'clientSecret is required' })
  .min(1, 'clientSecret is required')
  .max(1000, 'clientSecret must be at most 1000 characters');
const secretExpiresOn = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'secretExpiresOn must be a date (YYYY-MM-DD)')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'secretExpiresOn must be a real date')
  .nullable();

/** POST /api/admin/tenants. New tenants are private and enabled unless said otherwise. */
export const createTenantRequest = z.object({
  name: tenantName,
  tenantId: directoryId,
  clientId,
  clientSecret,
  secretExpiresOn: secretExpiresOn.optional(),
  cloud: z.enum(TENANT_CLOUDS, { error: `cloud must be one of ${TENANT_CLOUDS.join(', ')}` }).default('worldwide'),
  visibility: z.enum(TENANT_VISIBILITIES, { error: 'visibility must be public or private' }).default('private'),
  enabled: z.boolean({ error: 'enabled must be true or false' }).default(true),
});
export type CreateTenantRequest = z.input<typeof createTenantRequest>;

/** PATCH /api/admin/tenants/{id}: any of the fields; a clientSecret replaces the stored one. */
export const updateTenantRequest = z
  .object({
    name: tenantName,
    tenantId: directoryId,
    clientId,
    clientSecret,
    secretExpiresOn,
    cloud: z.enum(TENANT_CLOUDS, { error: `cloud must be one of ${TENANT_CLOUDS.join(', ')}` }),
    visibility: z.enum(TENANT_VISIBILITIES, { error: 'visibility must be public or private' }),
    enabled: z.boolean({ error: 'enabled must be true or false' }),
  })
  .partial()
  .strict();
export type UpdateTenantRequest = z.infer<typeof updateTenantRequest>;

export const tenantIdParams = z.object({ id: z.coerce.number().int().positive() });
export type TenantIdParams = z.infer<typeof tenantIdParams>;
/** DELETE /api/admin/tenants/{id}?deletePosts=true also deletes the posts no other tenant received. */
export const deleteTenantQuery = z.object({
  deletePosts: z
    .enum(['true', 'false'], { error: 'deletePosts must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
});
export type DeleteTenantQuery = z.infer<typeof deleteTenantQuery>;

/** The last run of one feed for a tenant. */
export const tenantFeedStatus = z.object({
  lastSyncAt: isoDate.nullable(),
  status: z.string().nullable(),
  /** The last failure's message while the feed is failing; null once a run succeeds. */
  error: z.string().nullable(),
  /** When it last succeeded. */
  lastSuccessAt: isoDate.nullable(),
});
export type TenantFeedStatus = z.infer<typeof tenantFeedStatus>;

/** One tenant as admins see it: never its secret, only whether one is stored and when it expires. */
/**
 * Whether a tenant's usage reports are read, as Admin → Tenants says it on the tenant's row: `read` (the last read
 * worked), `never` (not read yet: the first read is pending), `permission_missing` (off: the app lacks
 * Reports.Read.All, so relevance says Unknown), `failing` (the last read failed, whole or in part; counts read before
 * stay in use). docs/product/tenants.md, "Usage".
 */
export const TENANT_USAGE_STATES = ['read', 'never', 'permission_missing', 'failing'] as const;
export type TenantUsageState = (typeof TENANT_USAGE_STATES)[number];

export const tenantRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  tenantId: z.string(),
  clientId: z.string(),
  cloud: z.enum(TENANT_CLOUDS),
  visibility: z.enum(TENANT_VISIBILITIES),
  enabled: z.boolean(),
  secretSet: z.boolean(),
  secretExpiresOn: z.string().nullable(),
  /** Made from the GRAPH_* settings at start (the single-tenant set-up this product had before tenants). */
  fromEnvironment: z.boolean(),
  /** Posts this tenant lists now, and all it ever received. */
  /** Message Center posts received (and of them still listed), and Service Health issues received (kept for good). */
  counts: z.object({ livePosts: z.number().int(), posts: z.number().int(), issues: z.number().int() }),
  feeds: z.object({ messages: tenantFeedStatus, health: tenantFeedStatus }),
  /**
   * The tenant's services now (Graph healthOverviews, read with each Service Health run): how many services it has,
   * and those not operational with their status; null before the first read.
   */
  serviceHealth: z
    .object({ at: isoDate, services: z.number().int(), notOperational: z.array(z.object({ service: z.string(), status: z.string() })) })
    .nullable()
    .optional(),
  /**
   * The products the tenant licenses (Graph subscribedSkus, read with each Service Health run, as the feeds name
   * products); null until read. `licencesError` says why the last read failed (a missing permission, say).
   */
  licences: z
    .object({ at: isoDate, products: z.array(z.string()) })
    .nullable()
    .optional(),
  licencesError: z.string().nullable().optional(),
  /**
   * The usage reports' state (TENANT_USAGE_STATES), when they were last read (null: never) and why the last read
   * failed (null: it did not); the counts themselves are GET …/usage's.
   */
  usage: z.object({ state: z.enum(TENANT_USAGE_STATES), readAt: isoDate.nullable(), error: z.string().nullable() }).optional(),
  createdAt: isoDate,
});
export type TenantRecord = z.infer<typeof tenantRecord>;
export const tenantsResponse = z.array(tenantRecord);
export type TenantsResponse = z.infer<typeof tenantsResponse>;

/**
 * The checks of a tenant's connection test (its answer is `connectionTestResult`), one per capability. `licences` and
 * `usage` are optional: without them everything works but the "products we license" filter and, for `usage`
 * (Reports.Read.All), relevance from the tenant's usage.
 */
export const TENANT_CHECKS = ['token', 'messages', 'health', 'licences', 'usage'] as const;
/** The checks a tenant connects without. */
export const OPTIONAL_TENANT_CHECKS: readonly TenantCheckName[] = ['licences', 'usage'];
export type TenantCheckName = (typeof TENANT_CHECKS)[number];

export const tenantSyncResponse = z.object({
  message: z.string(),
  runs: z.array(z.object({ feed: z.enum(TENANT_FEEDS), status: z.string(), syncId: z.number().int().nullable() })),
});
export type TenantSyncResponse = z.infer<typeof tenantSyncResponse>;

/** PUT /api/admin/app-users/{id}/tenants: the private tenants a user may see (public ones need no grant). */
export const userTenantsRequest = z.object({
  tenantIds: z
    .array(z.number({ error: 'tenantIds must be a list of tenant ids' }).int().positive(), { error: 'tenantIds must be a list of tenant ids' })
    .max(1000),
});
export type UserTenantsRequest = z.infer<typeof userTenantsRequest>;
export const userTenantsResponse = z.object({ tenantIds: z.array(z.number().int()) });
export type UserTenantsResponse = z.infer<typeof userTenantsResponse>;

/** GET /api/admin/tenant-access: every user's grants of private tenants (users without any are left out). */
export const tenantAccessResponse = z.array(z.object({ userId: z.number().int(), tenantIds: z.array(z.number().int()) }));
export type TenantAccessResponse = z.infer<typeof tenantAccessResponse>;

/** GET /api/tenants: the tenants whose posts the caller may see, for the list's tenant filter. */
export const visibleTenantsResponse = z.object({
  tenants: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** How many tenants the caller may see in all (the "received by N of M tenants" of a post). */
  total: z.number().int(),
});
export type VisibleTenantsResponse = z.infer<typeof visibleTenantsResponse>;
