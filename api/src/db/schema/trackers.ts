/**
 * Work trackers (Planner, Jira, ServiceNow): the connections, the tasks linked to triage records, the calls' outbox and
 * log. The code says "tracker"; the SQL names (`integrations`, `integration_id`) are from before the rename and stay,
 * like the api's paths: renaming them would cost every installation a migration and no reader anything.
 */
import { boolean, date, index, integer, jsonb, pgTable, serial, text, unique } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { attemptLogColumns, outboxColumns, pauseColumns } from './outbox.js';
import { users } from './people.js';
import { triageRecords } from './triage.js';

/**
 * A tracker connection. `settings` holds what is not secret (the site, project or table, the field mapping); the API
 * token, password or OAuth client secret is sealed at rest (AES-256-GCM with a key of its own) and never answered, and
 * so are the OAuth tokens an admin's authorization gave (`oauth_sealed`: access and refresh token, expiry, the Jira
 * site's cloud id, who authorized). Paused by an admin, or
 * after TRACKER_PAUSE_AFTER_FAILURES failed calls in a row (the admins are mailed): calls wait while paused.
 */
export const trackers = pgTable('integrations', {
  id: serial('id').primaryKey(),
  /** planner | jira | servicenow */
  kind: text('kind').notNull(),
  name: text('name').notNull(),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
  secretSealed: text('secret_sealed'),
  oauthSealed: text('oauth_sealed'),
  ...pauseColumns(),
  lastPullAt: ts('last_pull_at'),
  lastPullError: text('last_pull_error'),
  createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * A triage record's task in one tracker: one per record and tracker, ever (a second push updates it). The
 * idempotency key is written into the task too (a Jira label, ServiceNow's correlation_id), so a create whose answer
 * was lost finds the task it made instead of making another. `remote_*` is what the last read found; a task deleted
 * in the tracker is `deleted` and made again only on request.
 */
export const trackerLinks = pgTable(
  'tracker_links',
  {
    id: serial('id').primaryKey(),
    trackerId: integer('integration_id')
      .notNull()
      .references(() => trackers.id, { onDelete: 'cascade' }),
    recordId: integer('record_id')
      .notNull()
      .references(() => triageRecords.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /** queued (not created yet), open, done, deleted, failed */
    status: text('status').notNull().default('queued'),
    externalId: text('external_id'),
    externalKey: text('external_key'),
    externalUrl: text('external_url'),
    remoteState: text('remote_state'),
    remoteDone: boolean('remote_done'),
    remoteAssignee: text('remote_assignee'),
    remoteDue: date('remote_due', { mode: 'string' }),
    remoteUpdatedAt: ts('remote_updated_at'),
    lastPulledAt: ts('last_pulled_at'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('tracker_links_integration_record_uq').on(t.trackerId, t.recordId),
    index('tracker_links_record_idx').on(t.recordId),
    index('tracker_links_pull_idx').on(t.trackerId, t.lastPulledAt),
  ],
);

/**
 * Calls to trackers, written in the transaction that decided them and sent by the tracker-deliver job: create, update
 * (the record's task as it is now) and comment (`text`: a change of the item). Claimed FOR UPDATE SKIP LOCKED with a
 * lease; retried with backoff (Retry-After honoured) up to TRACKER_DELIVERY.maxAttempts.
 */
export const trackerOutbox = pgTable(
  'tracker_outbox',
  {
    id: serial('id').primaryKey(),
    trackerId: integer('integration_id')
      .notNull()
      .references(() => trackers.id, { onDelete: 'cascade' }),
    linkId: integer('link_id')
      .notNull()
      .references(() => trackerLinks.id, { onDelete: 'cascade' }),
    /** create | update | comment */
    action: text('action').notNull(),
    text: text('text'),
    dedupeKey: text('dedupe_key').unique(),
    ...outboxColumns(),
  },
  (t) => [index('tracker_outbox_due_idx').on(t.status, t.nextAttemptAt), index('tracker_outbox_link_idx').on(t.linkId)],
);

/** The delivery log of a tracker: one row per call (pushes, reads, tests). */
export const trackerAttempts = pgTable(
  'tracker_attempts',
  {
    id: serial('id').primaryKey(),
    trackerId: integer('integration_id')
      .notNull()
      .references(() => trackers.id, { onDelete: 'cascade' }),
    linkId: integer('link_id').references(() => trackerLinks.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    attemptedAt: ts('attempted_at').notNull().defaultNow(),
    ...attemptLogColumns(),
  },
  (t) => [index('tracker_attempts_integration_idx').on(t.trackerId, t.attemptedAt.desc())],
);

/**
 * One OAuth consent an admin started (Authorize): the hash of its state (the state itself travels through the
 * tracker's consent page), the PKCE code verifier sealed, and when it expires. The callback takes the row, so a state
 * works once; expired rows are swept hourly.
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    trackerId: integer('integration_id')
      .notNull()
      .references(() => trackers.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verifierSealed: text('verifier_sealed').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('oauth_states_expires_at_idx').on(t.expiresAt)],
);
