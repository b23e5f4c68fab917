import { z } from './zod.js';
import { TRIAGE_PRIORITIES } from './constants.js';
import { triageBulkItems } from './triage.js';

/**
 * Work trackers a triage record can be pushed to as a task, and read back from: Microsoft Planner (through a connected
 * tenant's Graph app), Jira Cloud (REST API v3) and ServiceNow (Table API).
 */
export const TRACKER_KINDS = ['planner', 'jira', 'servicenow'] as const;
export type TrackerKind = (typeof TRACKER_KINDS)[number];
export const TRACKER_KIND_LABELS: Record<TrackerKind, string> = { planner: 'Microsoft Planner', jira: 'Jira Cloud', servicenow: 'ServiceNow' };
/** Failed calls in a row after which a tracker is paused and the admins mailed. */
export const TRACKER_PAUSE_AFTER_FAILURES = 10;
/** Trackers one installation may connect. */
export const TRACKERS_MAX = 20;
/** How often linked tasks are read back (minutes). */
export const TRACKER_PULL_MINUTES = 15;

const name = z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(100, 'name must be at most 100 characters');
const httpsUrl = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .max(500, `${field} must be at most 500 characters`)
    .refine((v) => URL.canParse(v), `${field} must be a URL such as https://example.atlassian.net`)
    .transform((v) => v.replace(/\/+$/, ''));
const secret = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .min(1, `${field} is required`)
    .max(2000, `${field} must be at most 2000 characters`);
const shortText = (field: string, max = 100) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

/** What each triage priority becomes in the tracker (its own priority names or numbers); null sets none. */
export const priorityMapping = z
  .object(
    Object.fromEntries(TRIAGE_PRIORITIES.map((p) => [p, z.string().trim().max(50, `priority ${p} must be at most 50 characters`)])) as Record<
      (typeof TRIAGE_PRIORITIES)[number],
      z.ZodString
    >,
  )
  .nullable();
export type PriorityMapping = z.infer<typeof priorityMapping>;

const labels = z
  .array(z.string().trim().min(1).max(50, 'labels must be at most 50 characters each').regex(/^\S+$/, 'labels cannot contain spaces'), {
    error: 'labels must be a list of words',
  })
  .max(10, 'at most 10 labels');

type AuthCheck = { addIssue: (issue: { code: 'custom'; message: string; path: string[] }) => void };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Token sign-in needs the account's e-mail (and the token); OAuth needs the app's client id (and its secret). */
function checkJiraAuth(v: { auth: string; email: string; clientId: string; apiToken?: string; clientSecret?: string }, ctx: AuthCheck, secrets = false) {
  if (v.auth === 'token' && !EMAIL.test(v.email))
    ctx.addIssue({ code: 'custom', message: 'email must be the e-mail address of the Jira account', path: ['email'] });
  if (v.auth === 'oauth' && !v.clientId)
    ctx.addIssue({ code: 'custom', message: 'clientId is required for OAuth: the client id of the app', path: ['clientId'] });
  if (secrets && v.auth === 'token' && !v.apiToken) ctx.addIssue({ code: 'custom', message: 'apiToken is required', path: ['apiToken'] });
  if (secrets && v.auth === 'oauth' && !v.clientSecret) ctx.addIssue({ code: 'custom', message: 'clientSecret is required for OAuth', path: ['clientSecret'] });
}

/** Basic sign-in needs the user name (and the password); OAuth needs the client id (and its secret). */
function checkServiceNowAuth(
  v: { auth: string; username: string; clientId: string; password?: string; clientSecret?: string },
  ctx: AuthCheck,
  secrets = false,
) {
  if (v.auth === 'basic' && !v.username) ctx.addIssue({ code: 'custom', message: 'username is required', path: ['username'] });
  if (v.auth === 'oauth' && !v.clientId)
    ctx.addIssue({ code: 'custom', message: 'clientId is required for OAuth: the client id of the app', path: ['clientId'] });
  if (secrets && v.auth === 'basic' && !v.password) ctx.addIssue({ code: 'custom', message: 'password is required', path: ['password'] });
  if (secrets && v.auth === 'oauth' && !v.clientSecret) ctx.addIssue({ code: 'custom', message: 'clientSecret is required for OAuth', path: ['clientSecret'] });
}

/** How Jira signs in: an account's e-mail and API token, or OAuth 2.0 (3LO) authorized by an admin in the browser. */
export const JIRA_AUTHS = ['token', 'oauth'] as const;
/** How ServiceNow signs in: a user and password, or an OAuth client authorized by an admin in the browser. */
export const SERVICENOW_AUTHS = ['basic', 'oauth'] as const;
const clientId = z.string().trim().max(200, 'clientId must be at most 200 characters').default('');

/**
 * The private tenants whose posts the tracker may carry (their titles and text go into its tasks); public tenants'
 * posts and posts of no tenant always may. A Planner tracker carries its own tenant's besides.
 */
const privateTenantIds = z
  .array(z.number({ error: 'privateTenantIds must list tenant ids' }).int().positive('privateTenantIds must list tenant ids'), {
    error: 'privateTenantIds must list tenant ids',
  })
  .max(200, 'privateTenantIds must list at most 200 tenants')
  .default([]);

/**
 * Jira Cloud: the site, how it signs in (an account's e-mail and API token, or an OAuth 2.0 app's client id whose
 * secret is sealed like a token), the project and issue type, and the field mapping.
 */
export const jiraSettings = z
  .object({
    baseUrl: httpsUrl('baseUrl'),
    auth: z.enum(JIRA_AUTHS, { error: 'auth must be token or oauth' }).default('token'),
    /** The account the API token belongs to (token sign-in). */
    email: z.string().trim().max(254, 'email must be at most 254 characters').default(''),
    /** The OAuth 2.0 (3LO) app's client id, from developer.atlassian.com (OAuth sign-in). */
    clientId,
    projectKey: z
      .string({ error: 'projectKey is required' })
      .trim()
      .regex(/^[A-Z][A-Z0-9_]{1,19}$/, 'projectKey must be a Jira project key such as CHG'),
    issueType: shortText('issueType'),
    /** Jira priority names per triage priority (Highest, High, Medium, Low, Lowest on a default site); null leaves it unset. */
    priorities: priorityMapping.default({ high: 'High', medium: 'Medium', low: 'Low' }),
    /** Labels every issue gets, beside the one that ties it to its triage record. */
    labels: labels.default(['m365-radar']),
    /** Set the issue's due date from the triage record. */
    setDueDate: z.boolean().default(true),
    privateTenantIds,
  })
  .superRefine((v, ctx) => checkJiraAuth(v, ctx));
export type JiraSettings = z.infer<typeof jiraSettings>;

/**
 * ServiceNow: the instance, how it signs in (a user and password, or an OAuth client registered in the instance's
 * Application Registry, authorized by an admin in the browser), the table and field mapping.
 */
export const serviceNowSettings = z
  .object({
    baseUrl: httpsUrl('baseUrl'),
    auth: z.enum(SERVICENOW_AUTHS, { error: 'auth must be basic or oauth' }).default('basic'),
    /** The user the password belongs to (basic sign-in). */
    username: z.string().trim().max(200, 'username must be at most 200 characters').default(''),
    /** The OAuth client's id (OAuth sign-in). */
    clientId,
    table: z
      .string({ error: 'table is required' })
      .trim()
      .regex(/^[a-z][a-z0-9_]{1,79}$/, 'table must be a ServiceNow table name such as sc_task or change_request'),
    /** The assignment group (its sys_id or name); empty leaves it to the instance's rules. */
    assignmentGroup: z.string().trim().max(100, 'assignmentGroup must be at most 100 characters').default(''),
    /** The `priority` value (1–5 on a default instance) per triage priority; null leaves it to the instance. */
    priorities: priorityMapping.default({ high: '2', medium: '3', low: '4' }),
    setDueDate: z.boolean().default(true),
    privateTenantIds,
  })
  .superRefine((v, ctx) => checkServiceNowAuth(v, ctx));
export type ServiceNowSettings = z.infer<typeof serviceNowSettings>;

/** A Graph object id (a group, plan or bucket): letters, digits, '-' and '_' as Graph writes them. */
const graphId = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, `${field} must be a Planner id as the lists show it`);

/** How Planner signs in: as the tenant's app, or as an admin who authorized the app to act for them. */
export const PLANNER_AUTHS = ['application', 'delegated'] as const;

/**
 * Microsoft Planner: a connected tenant (its app registration signs in, so Planner needs no secret of its own; the app
 * needs the Tasks.ReadWrite.All application permission, and User.Read.All to assign tasks), the group, plan and bucket
 * tasks go to (chosen from the lists `GET /api/admin/integrations/planner-options` reads), and the field mapping.
 */
export const plannerSettings = z.object({
  /**
   * application: the tenant's app signs in with its own Tasks.ReadWrite.All; delegated: an admin authorizes the app to
   * act as them (Tasks.ReadWrite, User.ReadBasic.All), for tenants that grant no application permission to Planner.
   */
  auth: z.enum(PLANNER_AUTHS, { error: 'auth must be application or delegated' }).default('application'),
  tenantId: z.number({ error: 'tenantId must be a tenant id' }).int().positive('tenantId must be a tenant id'),
  groupId: graphId('groupId'),
  planId: graphId('planId'),
  bucketId: graphId('bucketId'),
  /** The names the lists showed when chosen, for the admin page (the ids are what count). */
  planName: z.string().trim().max(255, 'planName must be at most 255 characters').default(''),
  bucketName: z.string().trim().max(255, 'bucketName must be at most 255 characters').default(''),
  /** Planner's priority (0-10: 1 urgent, 3 important, 5 medium, 9 low) per triage priority; null leaves it medium. */
  priorities: z
    .object(
      Object.fromEntries(
        TRIAGE_PRIORITIES.map((p) => [
          p,
          z
            .string()
            .trim()
            .regex(/^(10|[0-9])?$/, `priority ${p} must be a Planner priority from 0 to 10`),
        ]),
      ) as Record<(typeof TRIAGE_PRIORITIES)[number], z.ZodString>,
    )
    .nullable()
    .default({ high: '3', medium: '5', low: '9' }),
  setDueDate: z.boolean().default(true),
  privateTenantIds,
});
export type PlannerSettings = z.infer<typeof plannerSettings>;

/** GET /api/admin/integrations/planner-options: the tenant's groups; with groupId its plans; with planId its buckets. */
export const plannerOptionsQuery = z.object({
  tenantId: z.coerce.number({ error: 'tenantId must be a tenant id' }).int().positive('tenantId must be a tenant id'),
  groupId: graphId('groupId').optional(),
  planId: graphId('planId').optional(),
});
export type PlannerOptionsQuery = z.infer<typeof plannerOptionsQuery>;
const plannerOption = z.object({ id: z.string(), name: z.string() });
export const plannerOptionsResponse = z.object({
  groups: z.array(plannerOption),
  plans: z.array(plannerOption),
  buckets: z.array(plannerOption),
  /** What could not be listed and why (a missing Group.Read.All, say), while the rest was. */
  problem: z.string().nullable(),
});
export type PlannerOptionsResponse = z.infer<typeof plannerOptionsResponse>;

/** POST /api/admin/integrations: one of the kinds with its settings and secret (sealed at rest, never answered). */
export const createTrackerRequest = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('planner'), name }).extend(plannerSettings.shape),
    z
      .object({ kind: z.literal('jira'), name, apiToken: secret('apiToken').optional(), clientSecret: secret('clientSecret').optional() })
      .extend(jiraSettings.shape)
      .superRefine((v, ctx) => checkJiraAuth(v, ctx, true)),
    z
      .object({ kind: z.literal('servicenow'), name, password: secret('password').optional(), clientSecret: secret('clientSecret').optional() })
      .extend(serviceNowSettings.shape)
      .superRefine((v, ctx) => checkServiceNowAuth(v, ctx, true)),
  ],
  { error: `kind must be one of ${TRACKER_KINDS.join(', ')}` },
);
export type CreateTrackerRequest = z.input<typeof createTrackerRequest>;

/**
 * PUT /api/admin/integrations/{id}: rename, pause or resume, change settings (checked as on creation, for the
 * tracker's kind), or replace the secret (`apiToken` for Jira with a token, `password` for ServiceNow with a user,
 * `clientSecret` for either with OAuth; Planner signs in with its tenant's app and has none). Changing how it signs in
 * (`settings.auth`) takes the new secret in the same request.
 */
export const updateTrackerRequest = z
  .object({
    name: name.optional(),
    paused: z.boolean({ error: 'paused must be true or false' }).optional(),
    settings: z.record(z.string(), z.unknown(), { error: 'settings must be an object' }).optional(),
    apiToken: secret('apiToken').optional(),
    password: secret('password').optional(),
    clientSecret: secret('clientSecret').optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Send at least one of name, paused, settings, apiToken, password, clientSecret');
export type UpdateTrackerRequest = z.infer<typeof updateTrackerRequest>;

export const trackerIdParams = z.object({ id: z.coerce.number({ error: 'id must be a number' }).int().positive('id must be a positive number') });
export type TrackerIdParams = z.infer<typeof trackerIdParams>;

export const tracker = z.object({
  id: z.number().int(),
  kind: z.enum(TRACKER_KINDS),
  name: z.string(),
  /** The settings as stored (never the secret). */
  settings: z.record(z.string(), z.unknown()),
  /** Whether a secret is stored and can be read (false after the installation secret changed: enter it again). */
  hasSecret: z.boolean(),
  /**
   * OAuth sign-in (and Planner's delegated sign-in): whether an admin authorized it (Authorize opens the consent page),
   * by whom and when, and the callback URL to register; null for the other ways of signing in.
   */
  authorization: z
    .object({ authorized: z.boolean(), authorizedBy: z.string().nullable(), authorizedAt: z.string().nullable(), callbackUrl: z.string() })
    .nullable(),
  paused: z.boolean(),
  pausedReason: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  linkedTasks: z.number().int(),
  openTasks: z.number().int(),
  lastPullAt: z.string().nullable(),
  lastPullError: z.string().nullable(),
  createdAt: z.string(),
});
export type Tracker = z.infer<typeof tracker>;
export const trackersResponse = z.object({ trackers: z.array(tracker) });
export type TrackersResponse = z.infer<typeof trackersResponse>;

/** POST /api/admin/integrations/{id}/authorize: the tracker's consent page to open (valid for 10 minutes). */
export const authorizeTrackerResponse = z.object({ url: z.string() });
export type AuthorizeTrackerResponse = z.infer<typeof authorizeTrackerResponse>;
/** GET /api/admin/integrations/oauth/callback: where the tracker's consent page sends the admin back. */
export const oauthCallbackQuery = z.object({
  code: z.string().max(4000, 'code is too long').optional(),
  state: z.string().max(2000, 'state is too long').optional(),
  error: z.string().max(200, 'error is too long').optional(),
  error_description: z.string().max(1000, 'error_description is too long').optional(),
});
export type OAuthCallbackQuery = z.infer<typeof oauthCallbackQuery>;

/** POST …/pull: the linked tasks read now and what came back into triage. */
export const trackerPullResult = z.object({
  read: z.number().int(),
  changed: z.number().int(),
  missing: z.number().int(),
  message: z.string(),
});
export type TrackerPullResult = z.infer<typeof trackerPullResult>;

export const TRACKER_ATTEMPT_OUTCOMES = ['sent', 'retrying', 'failed'] as const;
/** One call to a tracker, as the delivery log shows it. */
export const trackerAttempt = z.object({
  id: z.number().int(),
  at: z.string(),
  /** create, update, comment, read, test */
  action: z.string(),
  /** The task's key, when known. */
  taskKey: z.string().nullable(),
  outcome: z.enum(TRACKER_ATTEMPT_OUTCOMES),
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  response: z.string(),
  error: z.string().nullable(),
});
export type TrackerAttempt = z.infer<typeof trackerAttempt>;
export const trackerAttemptsResponse = z.object({ attempts: z.array(trackerAttempt) });
export type TrackerAttemptsResponse = z.infer<typeof trackerAttemptsResponse>;

/** POST /api/triage/{itemType}/{itemId}/tasks: push the record (`tenant` query as for the record) to a tracker. */
export const createTaskRequest = z.object({
  trackerId: z.number({ error: 'trackerId must be a tracker id' }).int().positive('trackerId must be a tracker id'),
  /** A task deleted in the tracker is made again only when asked. */
  recreate: z.boolean().default(false),
});
export type CreateTaskRequest = z.input<typeof createTaskRequest>;

/** POST /api/triage/bulk-tasks: push up to 500 records to one tracker; every record is found first, or none is pushed. */
export const bulkTasksRequest = z
  .object({
    items: triageBulkItems,
    trackerId: createTaskRequest.shape.trackerId,
  })
  .strict();
export type BulkTasksRequest = z.input<typeof bulkTasksRequest>;
export const bulkTasksResponse = z.object({ queued: z.number().int() });
export type BulkTasksResponse = z.infer<typeof bulkTasksResponse>;

/** The trackers a moderator or admin may push to now (not paused). */
export const trackerTargetsResponse = z.object({
  targets: z.array(z.object({ id: z.number().int(), name: z.string(), kind: z.enum(TRACKER_KINDS) })),
});
export type TrackerTargetsResponse = z.infer<typeof trackerTargetsResponse>;

export const TRACKER_TASK_STATUSES = ['queued', 'open', 'done', 'deleted', 'failed'] as const;
export type TrackerTaskStatus = (typeof TRACKER_TASK_STATUSES)[number];
export const TRACKER_TASK_STATUS_LABELS: Record<TrackerTaskStatus, string> = {
  queued: 'Queued',
  open: 'Open',
  done: 'Done',
  deleted: 'Deleted in the tracker',
  failed: 'Failed',
};

/** A record's task in one tracker. */
export const trackerTask = z.object({
  trackerId: z.number().int(),
  trackerName: z.string(),
  kind: z.enum(TRACKER_KINDS),
  tenantId: z.number().int().nullable(),
  /** queued: waiting in the outbox (the tracker did not answer yet); failed: given up (see the delivery log). */
  status: z.enum(TRACKER_TASK_STATUSES),
  key: z.string().nullable(),
  url: z.string().nullable(),
  /** The tracker's own state name (e.g. "In Progress", "Closed Complete"). */
  remoteState: z.string().nullable(),
  lastError: z.string().nullable(),
  lastPulledAt: z.string().nullable(),
});
export type TrackerTask = z.infer<typeof trackerTask>;
/**
 * The item's tasks, and the trackers the caller may push it to (moderators and admins: every tracker that is not
 * paused; others none).
 */
export const trackerTasksResponse = z.object({
  tasks: z.array(trackerTask),
  targets: trackerTargetsResponse.shape.targets,
});
export type TrackerTasksResponse = z.infer<typeof trackerTasksResponse>;
