import { createElement } from 'react';
import { FEATURED_LIMIT, healthStatusLabel, PREVIEW_CHARS, type WeeklyDigestResponse, type WeeklyDigestStatus } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { BaseDeps } from '../../deps.js';
import type { MailService } from '../../mail/mail.service.js';
import { enqueueMail } from '../../mail/outbox.repo.js';
import { renderMail } from '../../mail/render.js';
import {
  WeeklyDigestMail,
  weeklyDigestSubject,
  weeklyDigestText,
  type DigestMailEntry,
  type DigestMailSection,
  type WeeklyDigestMailProps,
} from '../../mail/templates/WeeklyDigestMail.js';
import { htmlToPlainText } from '../../lib/html.js';
import { toUnifiedItem, type UnifiedItemRow } from '../items/item-mapper.js';
import { shareUrlOf } from '../items/share-link.js';
import { createUnsubscribeToken, listUnsubscribeHeaders, unsubscribeUrl } from '../unsubscribe/unsubscribe-token.js';
import { createDigestSignup } from './digest-signup.js';
import { createDigestRepo, type DigestSubscriberRow } from './digest.repo.js';
import { DIGEST_WINDOW_MS, scheduledSendOfWeek, weekRange, type DigestSchedule } from './week-range.js';

export { SIGNUP_MESSAGE } from './digest-signup.js';
/** Entries per section in the mail; the rest are counted and linked to the digest page. */
export const MAIL_SECTION_LIMIT = 25;
const SEND_BATCH = 100;

type Deps = Pick<BaseDeps, 'db' | 'clock' | 'log' | 'config' | 'secret' | 'publicUrl'> & { mail?: Pick<MailService, 'enqueue' | 'kick'> };

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

interface WeekContent {
  roadmapNew: UnifiedItemRow[];
  roadmapChanged: UnifiedItemRow[];
  messagesNew: UnifiedItemRow[];
  messagesUpdated: UnifiedItemRow[];
  featured: UnifiedItemRow[];
  /** Service Health incidents of the week (a section only when there are some). */
  incidents: UnifiedItemRow[];
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
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

  async function loadWeek(start: Date, end: Date): Promise<WeekContent> {
    const [roadmapNew, roadmapChanged, messagesNew, messagesUpdated, featured, incidents] = await Promise.all([
      repo.newItems('roadmap', start, end),
      repo.changedRoadmapItems(start, end),
      repo.newItems('messages', start, end),
      repo.updatedMessages(start, end),
      repo.featuredItems(start, end, FEATURED_LIMIT),
      repo.incidents(start, end),
    ]);
    return { roadmapNew, roadmapChanged, messagesNew, messagesUpdated, featured, incidents };
  }

  const itemUrl = (row: UnifiedItemRow) => shareUrlOf(deps.publicUrl, row);

  function toEntry(row: UnifiedItemRow): DigestMailEntry {
    const roadmap = row.source === 'roadmap';
    const text = htmlToPlainText(roadmap ? row.description : (row.summary ?? row.bodyHtml)).replace(/\s+/g, ' ');
    return {
      title: row.title,
      url: itemUrl(row),
      idLabel: roadmap ? `Roadmap ID ${row.externalId}` : row.externalId,
      meta: roadmap
        ? row.status
        : row.source === 'health'
          ? [row.products.join(', '), healthStatusLabel(row.status)].filter(Boolean).join(' · ')
          : row.products.join(', ') || null,
      preview: text ? cut(text, PREVIEW_CHARS) : null,
    };
  }

  function section(title: string, rows: UnifiedItemRow[]): DigestMailSection {
    return { title, entries: rows.slice(0, MAIL_SECTION_LIMIT).map(toEntry), more: Math.max(0, rows.length - MAIL_SECTION_LIMIT) };
  }

  async function renderDigest(subscriber: DigestSubscriberRow, week: WeekContent, end: Date) {
    const link = unsubscribeUrl(deps.publicUrl, createUnsubscribeToken(deps.secret, { kind: 'digest', subscriberId: subscriber.id }));
    const range = weekRange(end, end, schedule);
    const props: WeeklyDigestMailProps = {
      publicUrl: deps.publicUrl,
      firstName: subscriber.firstName,
      startFormatted: range.startFormatted,
      endFormatted: range.endFormatted,
      featured: week.featured.map(toEntry),
      sections: [
        section('New on the roadmap', week.roadmapNew),
        section('Updated on the roadmap', week.roadmapChanged),
        section('New in Message Center', week.messagesNew),
        section('Updated in Message Center', week.messagesUpdated),
        // A short section, and only in a week that had incidents.
        ...(week.incidents.length ? [section('Service Health incidents', week.incidents)] : []),
      ],
      digestPageUrl: `${deps.publicUrl}/weekly-digest`,
      unsubscribeUrl: link,
    };
    const rendered = await renderMail(createElement(WeeklyDigestMail, props), weeklyDigestText(props));
    return { subject: weeklyDigestSubject(props), ...rendered, headers: listUnsubscribeHeaders(link) };
  }

  const service = {
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
      const week = await loadWeek(start, end);
      let queued = 0;
      let afterId = 0;
      for (;;) {
        const batch = await repo.pendingSubscribers(weekStart, afterId, SEND_BATCH);
        if (batch.length === 0) break;
        for (const subscriber of batch) {
          afterId = subscriber.id;
          const mail = await renderDigest(subscriber, week, end);
          const done = await deps.db.transaction(async (tx) => {
            const txRepo = createDigestRepo(tx as DbOrTx);
            const deliveryId = await txRepo.claimDelivery(subscriber.id, weekStart, now);
            if (deliveryId === null) return false;
            const outboxId = await enqueueMail(tx, {
              kind: 'weekly-digest',
              to: subscriber.email,
              ...mail,
              dedupeKey: `weekly-digest:${subscriber.id}:${weekStart}`,
              createdAt: now,
            });
            await txRepo.linkDeliveryToOutbox(deliveryId, outboxId);
            return true;
          });
          if (done) queued++;
        }
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
