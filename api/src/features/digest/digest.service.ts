import { createElement } from 'react';
import { changeHealthSummary, FEATURED_LIMIT, type WeeklyDigestResponse, type WeeklyDigestStatus } from '@radar/contracts';
import type { TenantScope } from '../items/item-query.js';
import type { DbOrTx } from '../../db/client.js';
import type { BaseDeps } from '../../deps.js';
import type { MailService } from '../../mail/mail.service.js';
import { enqueueMails, type OutgoingMail } from '../../mail/outbox.repo.js';
import { renderMail } from '../../mail/render.js';
import {
  WeeklyDigestMail,
  weeklyDigestSubject,
  weeklyDigestText,
  type DigestMailSection,
  type WeeklyDigestMailProps,
} from '../../mail/templates/WeeklyDigestMail.js';
import { toUnifiedItem, type UnifiedItemRow } from '../items/item-mapper.js';
import { createUnsubscribeToken, listUnsubscribeHeaders, unsubscribeUrl } from '../../mail/unsubscribe-token.js';
import { createDigestSignup } from './digest-signup.js';
import { digestEntryOf, digestRelevanceOf, type DigestRelevance } from './digest-entries.js';
import { adminsAndGrantsOf, createDigestRepo, type DigestSubscriberRow } from './digest.repo.js';
import { createTriageReportsRepo } from '../triage/triage-reports.repo.js';
import { DIGEST_WINDOW_MS, scheduledSendOfWeek, weekRange, type DigestSchedule } from './week-range.js';

export { SIGNUP_MESSAGE } from './digest-signup.js';
/** Entries per section in the mail; the rest are counted and linked to the digest page. */
export const MAIL_SECTION_LIMIT = 25;
/** A batch's deliveries and mails are one transaction: a failed run keeps the batches before it. */
const SEND_BATCH = 500;

/** Where each subscriber's first name and unsubscribe link go in the week's rendered digest. */
const FIRST_NAME_MARK = 'RADARDIGESTFIRSTNAMEMARK';
const UNSUBSCRIBE_MARK = 'https://unsubscribe.invalid/RADARDIGESTUNSUBSCRIBEMARK';

interface RenderedDigest {
  subject: string;
  html: string;
  text: string;
}
interface DigestTemplate {
  named: RenderedDigest;
  unnamed: RenderedDigest;
}

const MARKS = new RegExp(`${FIRST_NAME_MARK}|${UNSUBSCRIBE_MARK.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`, 'g');

/** Every mark replaced in one pass (a name that spells a mark stays as written). */
function fillMarks(template: string, values: Record<string, string>): string {
  return template.replace(MARKS, (mark) => values[mark] ?? mark);
}

const REACT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/** What React's server renderer writes for text and attribute values. */
function escapeLikeReact(value: string): string {
  return value.replace(/[&<>"']/g, (c) => REACT_ESCAPES[c] ?? c);
}

type Deps = Pick<BaseDeps, 'db' | 'clock' | 'log' | 'config' | 'secret' | 'publicUrl'> & {
  mail?: Pick<MailService, 'enqueue' | 'kick'>;
  /** Subscribers written to the outbox per transaction (SEND_BATCH). */
  sendBatch?: number;
};

export interface DigestUser {
  id: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

export interface SendDigestResult {
  /** The week's key: the local date of its Sunday in DIGEST_TIMEZONE. */
  weekStart: string;
  /** Digests written to the outbox by this run. */
  queued: number;
  /** Active subscribers that had this week's digest already (an earlier or concurrent run). */
  alreadySent: number;
}

/**
 * Whom a digest is rendered for: the tenants they may see (an account always has a scope, a visitor's address none),
 * and whether they are staff (a moderator or an admin).
 */
interface Audience {
  scope: TenantScope | undefined;
  staff: boolean;
}
const VISITOR: Audience = { scope: undefined, staff: false };

interface WeekContent {
  roadmapNew: UnifiedItemRow[];
  roadmapChanged: UnifiedItemRow[];
  messagesNew: UnifiedItemRow[];
  messagesUpdated: UnifiedItemRow[];
  featured: UnifiedItemRow[];
  /** Service Health incidents of the week (a section only when there are some). */
  incidents: UnifiedItemRow[];
  /** An account's digest: the relevance of the items shown, by item id (empty for a visitor's). */
  relevance: Map<number, DigestRelevance>;
}

/**
 * The weekly digest: the page's data (GET /api/weekly-digest), subscriptions (visitor signup, signed-in toggle,
 * one-click unsubscribe) and the Sunday mail. Exactly one digest per subscriber per week: a digest_deliveries row
 * (unique subscriber + week) and the outbox row are written in the same transaction, so a second run — or a run
 * resumed after a crash — skips everyone already done and sends to the rest.
 */
export function createDigestService(deps: Deps) {
  const repo = createDigestRepo(deps.db);
  const schedule: DigestSchedule = { timezone: deps.config.DIGEST_TIMEZONE, sendHour: deps.config.DIGEST_SEND_HOUR };

  /**
   * The week's lists as `scope` may see them. An account's (a scope) are each ordered most relevant to its tenants
   * first, and its entries say their relevance; a visitor's keep the lists' own order and say none.
   */
  async function loadWeek(start: Date, end: Date, scope?: TenantScope): Promise<WeekContent> {
    const lists = createDigestRepo(deps.db, scope, { byRelevance: scope !== undefined });
    const [roadmapNew, roadmapChanged, messagesNew, messagesUpdated, featured, incidents] = await Promise.all([
      lists.newItems('roadmap', start, end),
      lists.changedRoadmapItems(start, end),
      lists.newItems('messages', start, end),
      lists.updatedMessages(start, end),
      lists.featuredItems(start, end, FEATURED_LIMIT),
      lists.incidents(start, end),
    ]);
    const shown = [roadmapNew, roadmapChanged, messagesNew, messagesUpdated, incidents].flatMap((rows) => rows.slice(0, MAIL_SECTION_LIMIT));
    const relevance = scope
      ? await digestRelevanceOf(
          deps.db,
          scope,
          [...shown, ...featured].map((r) => r.id),
        )
      : new Map<number, DigestRelevance>();
    return { roadmapNew, roadmapChanged, messagesNew, messagesUpdated, featured, incidents, relevance };
  }

  const entriesOf = (week: WeekContent, rows: UnifiedItemRow[]) => rows.map((row) => digestEntryOf(row, deps.publicUrl, week.relevance.get(row.id)));

  function section(week: WeekContent, title: string, rows: UnifiedItemRow[]): DigestMailSection {
    return { title, entries: entriesOf(week, rows.slice(0, MAIL_SECTION_LIMIT)), more: Math.max(0, rows.length - MAIL_SECTION_LIMIT) };
  }

  /** Staff's line of the digest: the change health of the triage their scope sees, now. */
  async function changeHealthOf(scope: TenantScope | undefined, end: Date): Promise<NonNullable<WeeklyDigestMailProps['changeHealth']>> {
    const current = await createTriageReportsRepo(deps.db).health('all', scope, end);
    return { ...changeHealthSummary(current.sums, current.records), open: current.open, url: `${deps.publicUrl}/dashboard?triage=overdue` };
  }

  function digestProps(
    week: WeekContent,
    end: Date,
    firstName: string | null,
    link: string,
    changeHealth?: WeeklyDigestMailProps['changeHealth'],
  ): WeeklyDigestMailProps {
    const range = weekRange(end, end, schedule);
    return {
      ...(changeHealth ? { changeHealth } : {}),
      publicUrl: deps.publicUrl,
      firstName,
      startFormatted: range.startFormatted,
      endFormatted: range.endFormatted,
      featured: entriesOf(week, week.featured),
      sections: [
        section(week, 'New on the roadmap', week.roadmapNew),
        section(week, 'Updated on the roadmap', week.roadmapChanged),
        section(week, 'New in Message Center', week.messagesNew),
        section(week, 'Updated in Message Center', week.messagesUpdated),
        // A short section, and only in a week that had incidents.
        ...(week.incidents.length ? [section(week, 'Service Health incidents', week.incidents)] : []),
      ],
      digestPageUrl: `${deps.publicUrl}/weekly-digest`,
      unsubscribeUrl: link,
    };
  }

  async function render(props: WeeklyDigestMailProps): Promise<RenderedDigest> {
    return { subject: weeklyDigestSubject(props), ...(await renderMail(createElement(WeeklyDigestMail, props), weeklyDigestText(props))) };
  }

  /**
   * Each subscriber's tenant scope, as their account's roles and grants are now: every tenant for an admin, the
   * public ones and those granted for another account (an empty grant list: the public ones, as for a guest, but
   * their relevance is read), a guest's (undefined) for a visitor's address. Two queries a batch, whatever its size.
   */
  async function scopesOf(subscribers: readonly DigestSubscriberRow[]): Promise<Map<number, Audience>> {
    const userIds = [...new Set(subscribers.flatMap((s) => (s.userId === null ? [] : [s.userId])))];
    const { admins, staff, granted } = await adminsAndGrantsOf(deps.db, userIds);
    const scopeOf = (userId: number | null): TenantScope | undefined => {
      if (userId === null) return undefined;
      if (admins.has(userId)) return 'all';
      return { granted: [...(granted.get(userId) ?? [])].sort((a, b) => a - b) };
    };
    return new Map(subscribers.map((s) => [s.id, { scope: scopeOf(s.userId), staff: s.userId !== null && staff.has(s.userId) }]));
  }
  const scopeKey = (scope: TenantScope | undefined) => (scope === undefined ? 'public' : scope === 'all' ? 'all' : `granted:${scope.granted.join(',')}`);
  const audienceKey = (a: Audience) => `${scopeKey(a.scope)}${a.staff ? ':staff' : ''}`;

  const linkOf = (subscriber: DigestSubscriberRow) =>
    unsubscribeUrl(deps.publicUrl, createUnsubscribeToken(deps.secret, { kind: 'digest', subscriberId: subscriber.id }));

  /**
   * The week's mail, rendered once for a run: every subscriber gets the same digest but for their first name and
   * their unsubscribe link, which `personalise` puts in place of two marks (escaped as the renderer escapes text and
   * attributes), so a run of 50,000 renders the template twice (with and without a name), not 50,000 times.
   */
  async function renderWeek(week: WeekContent, end: Date, changeHealth?: WeeklyDigestMailProps['changeHealth']): Promise<DigestTemplate> {
    const [named, unnamed] = await Promise.all([
      render(digestProps(week, end, FIRST_NAME_MARK, UNSUBSCRIBE_MARK, changeHealth)),
      render(digestProps(week, end, null, UNSUBSCRIBE_MARK, changeHealth)),
    ]);
    return { named, unnamed };
  }

  function personalise(template: DigestTemplate, subscriber: DigestSubscriberRow) {
    const link = linkOf(subscriber);
    const mail = subscriber.firstName ? template.named : template.unnamed;
    const name = subscriber.firstName ?? '';
    return {
      subject: mail.subject,
      html: fillMarks(mail.html, { [FIRST_NAME_MARK]: escapeLikeReact(name), [UNSUBSCRIBE_MARK]: escapeLikeReact(link) }),
      text: fillMarks(mail.text, { [FIRST_NAME_MARK]: name, [UNSUBSCRIBE_MARK]: link }),
      headers: listUnsubscribeHeaders(link),
    };
  }

  const service = {
    /**
     * One subscriber's digest of the week up to `end`, rendered on its own rather than from the run's template: the
     * reference a run's personalised copy must equal, letter for letter (the tests compare them).
     */
    async renderDigestFor(subscriber: DigestSubscriberRow, end: Date) {
      const audience = (await scopesOf([subscriber])).get(subscriber.id) ?? VISITOR;
      const week = await loadWeek(new Date(end.getTime() - DIGEST_WINDOW_MS), end, audience.scope);
      const health = audience.staff ? await changeHealthOf(audience.scope, end) : undefined;
      const link = linkOf(subscriber);
      return { ...(await render(digestProps(week, end, subscriber.firstName, link, health))), headers: listUnsubscribeHeaders(link) };
    },

    /** GET /api/weekly-digest: the 7 days up to now. */
    async getWeeklyDigest(now: Date = deps.clock.now()): Promise<WeeklyDigestResponse> {
      const start = new Date(now.getTime() - DIGEST_WINDOW_MS);
      const week = await loadWeek(start, now);
      const map = (rows: UnifiedItemRow[]) => rows.map((r) => toUnifiedItem(r, { includeNotes: false }));
      return {
        weekRange: weekRange(now, now, schedule),
        roadmap: { newItems: map(week.roadmapNew), changedItems: map(week.roadmapChanged) },
        messageCenter: { newItems: map(week.messagesNew), updatedItems: map(week.messagesUpdated) },
        serviceHealth: { incidents: map(week.incidents) },
      };
    },

    /** Visitor signup with double opt-in, and its confirmation link (digest-signup.ts). */
    ...createDigestSignup(deps),

    async statusOf(user: DigestUser): Promise<WeeklyDigestStatus> {
      const row = await repo.subscriberOfUser(user.id, user.email);
      return { isSubscribed: Boolean(row?.isActive && row.confirmedAt), email: row?.email ?? user.email };
    },

    async subscribeUser(user: DigestUser): Promise<WeeklyDigestStatus> {
      const existing = await repo.subscriberOfUser(user.id, user.email);
      const now = deps.clock.now();
      // A row found by user id keeps its address (the digest goes where the user first asked for it).
      const row = existing && existing.email !== user.email ? await repo.setActive(existing.id, true, now, user.id) : await repo.upsertForUser(user, now);
      return { isSubscribed: true, email: row?.email ?? user.email };
    },

    async unsubscribeUser(user: DigestUser): Promise<WeeklyDigestStatus> {
      const existing = await repo.subscriberOfUser(user.id, user.email);
      if (existing?.isActive) await repo.setActive(existing.id, false, deps.clock.now(), user.id);
      return { isSubscribed: false, email: existing?.email ?? user.email };
    },

    /** For the one-click unsubscribe link; false when the subscriber no longer exists. Re-subscribing needs a new confirmation. */
    async unsubscribeById(subscriberId: number): Promise<{ found: boolean; email?: string }> {
      const row = await repo.subscriberById(subscriberId);
      if (!row) return { found: false };
      if (row.isActive) await repo.setActive(row.id, false, deps.clock.now());
      return { found: true, email: row.email };
    },

    /**
     * The Sunday job (and the admin's "send now"): queues this week's digest for every active subscriber who has
     * not had it. The week is the Sunday on or before `now` in DIGEST_TIMEZONE; its content is the 7 days up to
     * that Sunday's send hour (or up to `now` when run before it), so a run resumed after a crash sends the rest
     * of the subscribers the same digest.
     */
    async sendWeeklyDigest({ now = deps.clock.now() }: { now?: Date } = {}): Promise<SendDigestResult> {
      const { weekStart, sendAt } = scheduledSendOfWeek(now, schedule);
      const end = now.getTime() >= sendAt.getTime() ? sendAt : now;
      const start = new Date(end.getTime() - DIGEST_WINDOW_MS);
      // One rendering per tenant scope among the subscribers (most share the public one), and for staff with the
      // change health of that scope, made when first needed.
      const templates = new Map<string, Promise<DigestTemplate>>();
      const templateFor = (audience: Audience) => {
        const key = audienceKey(audience);
        const made =
          templates.get(key) ??
          Promise.all([loadWeek(start, end, audience.scope), audience.staff ? changeHealthOf(audience.scope, end) : undefined]).then(([week, health]) =>
            renderWeek(week, end, health),
          );
        templates.set(key, made);
        return made;
      };
      await templateFor(VISITOR);
      let queued = 0;
      let afterId = 0;
      for (;;) {
        const batch = await repo.pendingSubscribers(weekStart, afterId, deps.sendBatch ?? SEND_BATCH);
        if (batch.length === 0) break;
        afterId = batch.at(-1)?.id ?? afterId;
        const scopes = await scopesOf(batch);
        const mails: { subscriber: DigestSubscriberRow; mail: OutgoingMail & { dedupeKey: string } }[] = [];
        for (const subscriber of batch) {
          mails.push({
            subscriber,
            mail: {
              kind: 'weekly-digest',
              to: subscriber.email,
              ...personalise(await templateFor(scopes.get(subscriber.id) ?? VISITOR), subscriber),
              dedupeKey: `weekly-digest:${subscriber.id}:${weekStart}`,
              createdAt: now,
            },
          });
        }
        // The batch's deliveries and mails in one transaction: a subscriber has this week's delivery exactly when
        // their mail is in the outbox, whichever run wrote them.
        queued += await deps.db.transaction(async (tx) => {
          const txRepo = createDigestRepo(tx as DbOrTx);
          const claimed = await txRepo.claimDeliveries(
            batch.map((s) => s.id),
            weekStart,
            now,
          );
          const toSend = mails.filter((m) => claimed.has(m.subscriber.id));
          const outboxIds = await enqueueMails(
            tx,
            toSend.map((m) => m.mail),
          );
          await txRepo.linkDeliveriesToOutbox(
            toSend.flatMap((m) => {
              const outboxId = outboxIds.get(m.mail.dedupeKey);
              const deliveryId = claimed.get(m.subscriber.id);
              return outboxId === undefined || deliveryId === undefined ? [] : [{ deliveryId, outboxId }];
            }),
          );
          return toSend.length;
        });
        // Delivery starts with the first batch, while the rest are written.
        if (queued > 0) deps.mail?.kick();
      }
      const active = await repo.countActive();
      const result = { weekStart, queued, alreadySent: Math.max(0, active - queued) };
      deps.log.info(result, 'weekly digest queued');
      return result;
    },

    /**
     * The jobs' entry point (the Sunday cron and the hourly catch-up, which also runs at start-up): from this week's
     * send time on, sends the week's digest to everyone who has not had it, until a run completes. So a Sunday missed
     * while the process was down is sent when it is back (in the same week), and a run that failed halfway is resumed
     * by the next check. Once a run completes, the week is marked done and later checks do nothing.
     */
    async sendDueWeeklyDigest({ now = deps.clock.now() }: { now?: Date } = {}): Promise<SendDigestResult | { weekStart: string; skipped: 'not-yet' | 'done' }> {
      const { weekStart, sendAt } = scheduledSendOfWeek(now, schedule);
      if (now.getTime() < sendAt.getTime()) return { weekStart, skipped: 'not-yet' };
      if (await repo.weekDone(weekStart)) return { weekStart, skipped: 'done' };
      const result = await service.sendWeeklyDigest({ now });
      await repo.markWeekDone(weekStart, deps.clock.now());
      return result;
    },
  };
  return service;
}

export type DigestService = ReturnType<typeof createDigestService>;
