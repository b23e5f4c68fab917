import { z } from './zod.js';
import { SOURCES, TRIAGE_OWN_MAIL_KINDS } from './constants.js';
import { relevanceLevel } from './item-relevance.js';
import { itemListQuery } from './items.js';

/** Saved searches one user may keep (organisation searches have the same cap, shared by the admins). */
export const SAVED_SEARCHES_PER_USER = 50;
export const SAVED_SEARCH_NAME_MAX = 100;
/** Channels one user (or the organisation) may keep. */
export const ALERT_CHANNELS_PER_OWNER = 20;
export const ALERT_CHANNEL_NAME_MAX = 100;
/**
 * What a saved search alerts on: items that newly match, changes to items that match, and posts that reached the
 * tenant (the rollout status Microsoft reports for the organisation turned Launched on a platform).
 */
export const ALERT_ON = ['new', 'changed', 'reached_tenant'] as const;
export type AlertOn = (typeof ALERT_ON)[number];
/** instant: one message per sync that touched the search; daily / weekly: a digest at the chosen hour and zone. */
export const ALERT_SCHEDULES = ['instant', 'daily', 'weekly'] as const;
export type AlertSchedule = (typeof ALERT_SCHEDULES)[number];
export const ALERT_CHANNEL_KINDS = ['email', 'teams', 'slack', 'webhook'] as const;
export type AlertChannelKind = (typeof ALERT_CHANNEL_KINDS)[number];
/** personal: the user's own; organisation: added by an admin, managed by every admin. */
export const ALERT_SCOPES = ['personal', 'organisation'] as const;
export type AlertScope = (typeof ALERT_SCOPES)[number];
/** Items a Teams card or Slack message lists per saved search before "N more". */
export const ALERT_ITEMS_SHOWN = 10;
/** Items a webhook body carries per saved search before `more`. */
export const ALERT_WEBHOOK_ITEMS = 100;
/** Consecutive failed deliveries after which a channel is paused and its owner e-mailed. */
export const CHANNEL_PAUSE_AFTER_FAILURES = 10;
/** Characters of a receiver's answer kept in the delivery log. */
export const DELIVERY_RESPONSE_EXCERPT_CHARS = 500;
/** Adaptive Card schema version of Teams messages (Teams renders 1.5 and earlier; 1.4 also on mobile). */
export const ADAPTIVE_CARD_VERSION = '1.4';
/** Headers of a generic webhook delivery. */
export const WEBHOOK_HEADERS = {
  signature: 'X-Radar-Signature',
  timestamp: 'X-Radar-Timestamp',
  delivery: 'X-Radar-Delivery',
  event: 'X-Radar-Event',
} as const;
/** A receiver should refuse a delivery whose timestamp is further than this from its own clock (replay). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * A saved search's `query`: exactly the list's query (GET /api/unified/items) without paging. `sinceLastVisit` is
 * personal to a dashboard visit and means nothing to an alert, so it is refused.
 */
export const savedSearchQuery = itemListQuery
  .omit({ page: true, limit: true })
  .refine((q) => !q.sinceLastVisit, {
    path: ['sinceLastVisit'],
    message: 'sinceLastVisit cannot be part of a saved search: alerts already tell you what is new or changed',
  })
  .refine((q) => !q.triage && q.sortField !== 'due', {
    path: ['triage'],
    message: 'A saved search holds the list filters; choose a triage view beside it on the dashboard',
  });
export type SavedSearchQuery = z.infer<typeof savedSearchQuery>;
export type SavedSearchQueryInput = z.input<typeof savedSearchQuery>;

/** An IANA time zone name the runtime knows (e.g. Europe/Berlin, UTC). */
export const timeZoneName = z
  .string({ error: 'Time zone is required' })
  .trim()
  .min(1, 'Time zone is required')
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'Time zone must be an IANA time zone such as Europe/Berlin or UTC');

const uniqueList = <T>(list: T[]) => [...new Set(list)];
const positiveId = z
  .number({ error: 'Channel ids must be whole numbers' })
  .int('Channel ids must be whole numbers')
  .positive('Channel ids must be whole numbers');

/** POST /api/saved-searches and PUT /api/saved-searches/{id} (a full replacement). */
export const savedSearchInput = z.object({
  name: z
    .string({ error: 'Search name is required' })
    .trim()
    .min(1, 'Search name is required')
    .max(SAVED_SEARCH_NAME_MAX, `Search name must be at most ${SAVED_SEARCH_NAME_MAX} characters`),
  query: savedSearchQuery,
  alertOn: z
    .array(z.enum(ALERT_ON, { error: "alertOn may hold 'new', 'changed' and 'reached_tenant'" }), {
      error: 'Choose at least one: new items, changed items, reached our tenant',
    })
    .min(1, 'Choose at least one: new items, changed items, reached our tenant')
    .transform(uniqueList),
  schedule: z.enum(ALERT_SCHEDULES, { error: "schedule must be 'instant', 'daily' or 'weekly'" }).default('instant'),
  /** Digest hour (0–23) in `timeZone`; daily and weekly only. */
  hour: z
    .number({ error: 'hour must be a whole number from 0 to 23' })
    .int()
    .min(0, 'hour must be from 0 to 23')
    .max(23, 'hour must be from 0 to 23')
    .default(8),
  /** Weekly digest day, 0 = Sunday … 6 = Saturday. */
  weekday: z
    .number({ error: 'weekday must be from 0 (Sunday) to 6 (Saturday)' })
    .int()
    .min(0)
    .max(6, 'weekday must be from 0 (Sunday) to 6 (Saturday)')
    .default(1),
  timeZone: timeZoneName.default('UTC'),
  channelIds: z.array(positiveId).max(ALERT_CHANNELS_PER_OWNER).default([]).transform(uniqueList),
  paused: z.boolean().default(false),
  /** organisation: an admin's search for the organisation's channels (admins only). */
  scope: z.enum(ALERT_SCOPES).default('personal'),
});
export type SavedSearchInput = z.input<typeof savedSearchInput>;

export const savedSearch = z.object({
  id: z.number().int(),
  scope: z.enum(ALERT_SCOPES),
  name: z.string(),
  query: savedSearchQuery,
  alertOn: z.array(z.enum(ALERT_ON)),
  schedule: z.enum(ALERT_SCHEDULES),
  hour: z.number().int(),
  weekday: z.number().int(),
  timeZone: z.string(),
  channelIds: z.array(z.number().int()),
  paused: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When the last digest was due (daily/weekly), null before the first. */
  lastDigestAt: z.string().nullable(),
});
export type SavedSearch = z.infer<typeof savedSearch>;
export const savedSearchesResponse = z.array(savedSearch);

/** POST /api/alert-channels. E-mail goes to the caller's own (verified) address, so it takes no url. */
export const alertChannelInput = z
  .object({
    kind: z.enum(ALERT_CHANNEL_KINDS, { error: "kind must be 'email', 'teams', 'slack' or 'webhook'" }),
    name: z
      .string({ error: 'Channel name is required' })
      .trim()
      .min(1, 'Channel name is required')
      .max(ALERT_CHANNEL_NAME_MAX, `Channel name must be at most ${ALERT_CHANNEL_NAME_MAX} characters`),
    url: z.string().trim().max(2000, 'Webhook URL must be at most 2000 characters').optional(),
    scope: z.enum(ALERT_SCOPES).default('personal'),
    /** Also post the owner's triage notices here (a personal Teams, Slack or webhook channel). */
    triageNotices: z.boolean({ error: 'triageNotices must be true or false' }).default(false),
  })
  .superRefine((c, ctx) => {
    if (c.triageNotices) {
      const refused = triageNoticesRefusal(c);
      if (refused) ctx.addIssue({ code: 'custom', path: ['triageNotices'], message: refused });
    }
    if (c.kind === 'email' && c.url)
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'An e-mail channel has no URL: alerts go to your account address' });
    if (c.kind !== 'email') {
      if (!c.url) ctx.addIssue({ code: 'custom', path: ['url'], message: 'Webhook URL is required' });
      else if (!URL.canParse(c.url)) ctx.addIssue({ code: 'custom', path: ['url'], message: 'Webhook URL must be a valid URL' });
    }
  });
export type AlertChannelInput = z.input<typeof alertChannelInput>;

/**
 * Why a channel cannot take triage notices, or null when it can: they are one person's own notices, so only personal
 * channels take them, and an e-mail channel already has them as the triage mail.
 */
export function triageNoticesRefusal(c: { kind: AlertChannelKind; scope: AlertScope }): string | null {
  if (c.scope === 'organisation') return "Triage notices are one person's own: only personal channels take them";
  if (c.kind === 'email') return 'Triage notices already come by e-mail as the triage mail: choose which on this page under Triage mail';
  return null;
}

/**
 * PUT /api/alert-channels/{id}: rename, pause or resume (a resumed channel starts counting failures from 0), switch
 * triage notices on or off.
 */
export const alertChannelUpdate = z.object({
  name: alertChannelInput.shape.name.optional(),
  paused: z.boolean({ error: 'paused must be true or false' }).optional(),
  triageNotices: z.boolean({ error: 'triageNotices must be true or false' }).optional(),
});

export const alertChannel = z.object({
  id: z.number().int(),
  scope: z.enum(ALERT_SCOPES),
  kind: z.enum(ALERT_CHANNEL_KINDS),
  name: z.string(),
  /** Where alerts go, never in full: the e-mail address, or the webhook's host and the URL's last 4 characters. */
  target: z.string(),
  paused: z.boolean(),
  pausedReason: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  /** The owner's triage notices are posted here too. */
  triageNotices: z.boolean(),
  createdAt: z.string(),
  lastDeliveryAt: z.string().nullable(),
});
export type AlertChannel = z.infer<typeof alertChannel>;
export const alertChannelsResponse = z.array(alertChannel);
/** The answer to POST: a generic webhook's signing secret is shown this once. */
export const createdAlertChannel = alertChannel.extend({ signingSecret: z.string().optional() });
export type CreatedAlertChannel = z.infer<typeof createdAlertChannel>;

export const ALERT_DELIVERY_OUTCOMES = ['sent', 'retrying', 'failed', 'queued'] as const;
/** One attempt of one delivery, as the channel's owner sees it in the delivery log. */
export const alertDeliveryLogEntry = z.object({
  id: z.number().int(),
  deliveryId: z.number().int(),
  at: z.string(),
  /** instant, daily, weekly (alerts), triage (triage notices) or test. */
  trigger: z.string(),
  outcome: z.enum(ALERT_DELIVERY_OUTCOMES),
  /** The receiver's HTTP status; null for a network error, a refusal before sending, or e-mail. */
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  /** The first 500 characters of the receiver's answer. */
  response: z.string(),
  error: z.string().nullable(),
});
export type AlertDeliveryLogEntry = z.infer<typeof alertDeliveryLogEntry>;
export const alertDeliveriesResponse = z.array(alertDeliveryLogEntry);

export const alertTestResponse = z.object({ success: z.boolean(), message: z.string(), entry: alertDeliveryLogEntry.nullable() });

// ---------------------------------------------------------------- the generic webhook's body (OpenAPI `webhooks`)

/**
 * reached_tenant: a post's rollout status for the organisation turned Launched (a change, told apart); triage: a
 * triage notice about the item (`changes` says what: given to you, a mention, due, overdue).
 */
export const ALERT_ITEM_CHANGES = ['new', 'changed', 'removed', 'restored', 'reached_tenant', 'triage'] as const;

export const alertItem = z.object({
  /** `roadmap-<id>` or `messages-<MC id>`, as in the list. */
  id: z.string(),
  source: z.enum(SOURCES),
  /** The roadmap id or Message Center id. */
  externalId: z.string(),
  title: z.string(),
  change: z.enum(ALERT_ITEM_CHANGES),
  /** What changed, one line per field: `Status: In development → Rolling out`. Empty for a new item. */
  changes: z.array(z.string()),
  /** The item's share link in M365 Radar. */
  url: z.string(),
  /** When the sync recorded the change. */
  changedAt: z.string(),
  /**
   * The item's relevance to the search owner's tenants, as the list's chip says it: the highest level among them, the
   * tenant it is of and the reason in words. Absent when there is none to tell (Unknown, or no row for those tenants).
   */
  relevance: z
    .object({
      level: relevanceLevel,
      tenant: z.string(),
      tenantId: z.number().int(),
      /** "1,240 people used Teams in the last 30 days, 82 % of licensed users". */
      reason: z.string(),
    })
    .optional(),
});
export type AlertItem = z.infer<typeof alertItem>;
export type AlertItemRelevance = NonNullable<AlertItem['relevance']>;

/**
 * One saved search of an alert. In a triage notice (`radar.triage`) a section is one kind of notice: `savedSearch.id`
 * is 0, its name the heading ("Items given to you"), `triageKind` the kind, and `viewUrl` the owner's queue.
 */
export const alertSection = z.object({
  savedSearch: z.object({ id: z.number().int(), name: z.string(), scope: z.enum(ALERT_SCOPES) }),
  triageKind: z.enum(TRIAGE_OWN_MAIL_KINDS).optional(),
  /** The saved search's view on the dashboard. */
  viewUrl: z.string(),
  /** Matching items in this alert (`items` holds the first ALERT_WEBHOOK_ITEMS of them). */
  total: z.number().int(),
  items: z.array(alertItem),
  /** total − items.length. */
  more: z.number().int(),
});
export type AlertSection = z.infer<typeof alertSection>;

/**
 * The JSON body POSTed to a generic webhook. Headers: `X-Radar-Timestamp` (Unix seconds), `X-Radar-Signature`
 * (`v1=` + hex HMAC-SHA256 of `<timestamp>.<body>` with the channel's signing secret), `X-Radar-Delivery` (= `id`,
 * the same on every retry of one delivery) and `X-Radar-Event` (= `type`).
 */
export const alertWebhookPayload = z.object({
  type: z.enum(['radar.alert', 'radar.triage', 'radar.test']),
  /** The delivery's id: the same on every retry, so a receiver can drop duplicates. */
  id: z.string(),
  createdAt: z.string(),
  trigger: z.enum(['instant', 'daily', 'weekly', 'triage', 'test']),
  /** The changes covered: one sync (instant), the digest period, or the triage events since the owner's last notice. */
  window: z.object({ from: z.string().nullable(), to: z.string() }),
  channel: z.object({ id: z.number().int(), name: z.string() }),
  sections: z.array(alertSection),
});
export type AlertWebhookPayload = z.infer<typeof alertWebhookPayload>;

// ---------------------------------------------------------------- presentation shared by the apps

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export const ALERT_CHANNEL_KIND_LABELS: Record<AlertChannelKind, string> = { email: 'E-mail', teams: 'Microsoft Teams', slack: 'Slack', webhook: 'Webhook' };

/** "Instant", "Daily at 08:00 (Europe/Berlin)", "Weekly on Monday at 17:00 (UTC)". */
export function describeSchedule(s: Pick<SavedSearch, 'schedule' | 'hour' | 'weekday' | 'timeZone'>): string {
  if (s.schedule === 'instant') return 'Instant (after each sync)';
  const time = `${String(s.hour).padStart(2, '0')}:00`;
  return s.schedule === 'daily' ? `Daily at ${time} (${s.timeZone})` : `Weekly on ${WEEKDAY_NAMES[s.weekday] ?? 'Monday'} at ${time} (${s.timeZone})`;
}

/** "New and changed items", "New items", "Changed items", with ", reaching your tenant" or "Reaching your tenant". */
export function describeAlertOn(alertOn: readonly AlertOn[]): string {
  const items =
    alertOn.includes('new') && alertOn.includes('changed')
      ? 'New and changed items'
      : alertOn.includes('new')
        ? 'New items'
        : alertOn.includes('changed')
          ? 'Changed items'
          : '';
  if (!alertOn.includes('reached_tenant')) return items;
  return items ? `${items}, reaching your tenant` : 'Reaching your tenant';
}

// Types of the schemas above that had none (every exported schema has its type: schema-types.test.ts).
export type AlertChannelUpdate = z.infer<typeof alertChannelUpdate>;
export type AlertChannelsResponse = z.infer<typeof alertChannelsResponse>;
export type AlertDeliveriesResponse = z.infer<typeof alertDeliveriesResponse>;
export type AlertTestResponse = z.infer<typeof alertTestResponse>;
export type SavedSearchesResponse = z.infer<typeof savedSearchesResponse>;
export type TimeZoneName = z.infer<typeof timeZoneName>;
