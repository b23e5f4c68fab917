import { createElement } from 'react';
import { changeHealthSummary, TRIAGE_MAIL_KIND_LABELS, TRIAGE_OWN_MAIL_KINDS, type TriageMailKind } from '@radar/contracts';
import { enqueueAlert, newPublicId } from '../alerts/alert-enqueue.js';
import type { AlertMessage } from '../alerts/alert-message.js';
import type { AlertsService } from '../alerts/alerts.service.js';
import { createChannelsRepo, type ChannelWithOwner } from '../alerts/channels.repo.js';
import type { BaseDeps } from '../../deps.js';
import type { MailService } from '../../mail/mail.service.js';
import { renderMail } from '../../mail/render.js';
import { TriageMail, triageLine, triageSubject, triageText, type TriageMailSection } from '../../mail/templates/TriageMail.js';
import { shareUrlOf } from '../items/share-link.js';
import { createUnsubscribeToken, listUnsubscribeHeaders, unsubscribeUrl } from '../../mail/unsubscribe-token.js';
import { createTriageNotificationsRepo, type PendingTriageEvent } from './triage-notifications.repo.js';
import { createUsersLookup } from './triage-users.repo.js';
import { createTriageReportsRepo } from './triage-reports.repo.js';
import { adminAddresses } from '../admin/admin-guards.repo.js';
import { ChangeHealthMail, changeHealthSubject, changeHealthText, type ChangeHealthMailProps } from '../../mail/templates/ChangeHealthMail.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXCERPT_CHARS = 200;

/**
 * Triage mail: at most one a day per user, holding everything that happened to them since the last (items given to
 * them, mentions, items due in 7 days, items that became overdue). The first event after a quiet day goes out at
 * once; later ones wait for the next day's mail. Kinds the user switched off are marked done without a mail. The
 * same batch is posted to the user's own channels that take triage notices (through the alert deliveries).
 */
export function createTriageMail(
  deps: Pick<BaseDeps, 'db' | 'clock' | 'log' | 'publicUrl' | 'secret' | 'config'>,
  mail: Pick<MailService, 'enqueue' | 'kick'>,
  alerts?: Pick<AlertsService, 'deliveriesWritten'>,
) {
  const { db, clock, log } = deps;
  let running: Promise<number> | null = null;
  let again = false;

  /**
   * One user's batch: the mail with the kinds they did not switch off, and every event on each of their channels that
   * take triage notices (a channel's switch is its own; the mail's kinds do not apply to it). An event neither mailed
   * nor posted is marked skipped, so it does not count as the day's notice.
   */
  async function notifyUser(userId: number, now: Date): Promise<{ mailed: boolean; posted: number }> {
    return db.transaction(async (tx) => {
      const repo = createTriageNotificationsRepo(tx);
      const events = await repo.pendingOf(userId, now);
      if (events.length === 0) return { mailed: false, posted: 0 };
      const user = await createUsersLookup(tx).byId(userId);
      const off = await repo.optedOut(userId);
      const wanted = user ? events.filter((e) => !off.has(e.kind)) : [];
      const channels = user ? await createChannelsRepo(tx).triageChannelsOf(userId) : [];
      if (user && wanted.length > 0) {
        const sections = sectionsOf(wanted, userId);
        const kinds = sections.map((s) => s.kind);
        const allUrl = unsubscribeUrl(deps.publicUrl, createUnsubscribeToken(deps.secret, { kind: 'triage', userId, mailKinds: kinds }));
        const props = {
          publicUrl: deps.publicUrl,
          firstName: user.firstName,
          sections,
          unsubscribeAllUrl: allUrl,
          queueUrl: queueUrl(),
        };
        const rendered = await renderMail(createElement(TriageMail, props), triageText(props));
        await mail.enqueue(tx, {
          kind: 'triage',
          to: user.email,
          subject: triageSubject(sections),
          ...rendered,
          headers: listUnsubscribeHeaders(allUrl),
          dedupeKey: `triage:${userId}:${wanted[0]?.id ?? 0}`,
          createdAt: now,
        });
      }
      let posted = 0;
      if (channels.length > 0) {
        const sections = sectionsOf(events, userId);
        const first = events[0]?.id ?? 0;
        for (const channel of channels) {
          const message = noticeMessage(channel, sections, events, now);
          if (
            (await enqueueAlert(tx, { publicUrl: deps.publicUrl, secret: deps.secret, mail }, channel, message, `triage:${userId}:${first}:${channel.id}`)) !==
            null
          )
            posted++;
        }
      }
      const delivered = new Set(channels.length > 0 ? events.map((e) => e.id) : wanted.map((e) => e.id));
      await repo.markSent(
        events.filter((e) => delivered.has(e.id)).map((e) => e.id),
        now,
        false,
      );
      await repo.markSent(
        events.filter((e) => !delivered.has(e.id)).map((e) => e.id),
        now,
        true,
      );
      return { mailed: user !== null && wanted.length > 0, posted };
    });
  }

  const queueUrl = () => `${deps.publicUrl}/dashboard?triage=mine`;

  /** A triage notice for a Teams, Slack or webhook channel: a section per kind, each item with what happened. */
  function noticeMessage(channel: ChannelWithOwner, sections: TriageMailSection[], events: PendingTriageEvent[], now: Date): AlertMessage {
    return {
      publicId: newPublicId(),
      trigger: 'triage',
      title: triageSubject(sections),
      createdAt: now,
      window: { from: null, to: now },
      channel: { id: channel.id, name: channel.name },
      settingsUrl: `${deps.publicUrl}/notifications`,
      sections: sections.map((section) => {
        // sectionsOf lists a kind's events in this order: the n-th item is the n-th event of its kind.
        const ofKind = events.filter((e) => e.kind === section.kind);
        return {
          savedSearch: { id: 0, name: TRIAGE_MAIL_KIND_LABELS[section.kind], scope: 'personal' as const },
          triageKind: section.kind as (typeof TRIAGE_OWN_MAIL_KINDS)[number],
          viewUrl: queueUrl(),
          total: section.items.length,
          more: 0,
          items: section.items.map((item, index) => {
            const event = ofKind[index];
            const lines = [triageLine(section.kind, item), item.excerpt ? `“${item.excerpt}”` : ''].filter(Boolean);
            return {
              id: `${event?.itemSource ?? 'messages'}-${item.providerId}`,
              source: event?.itemSource ?? 'messages',
              externalId: item.providerId,
              title: item.title,
              change: 'triage' as const,
              changes: lines.length > 0 ? lines : [TRIAGE_MAIL_KIND_LABELS[section.kind]],
              url: item.url,
              changedAt: now.toISOString(),
            };
          }),
        };
      }),
    };
  }

  function sectionsOf(events: PendingTriageEvent[], userId: number): TriageMailSection[] {
    return TRIAGE_OWN_MAIL_KINDS.flatMap((kind: TriageMailKind) => {
      const ofKind = events.filter((e) => e.kind === kind);
      if (ofKind.length === 0) return [];
      return [
        {
          kind,
          unsubscribeUrl: unsubscribeUrl(deps.publicUrl, createUnsubscribeToken(deps.secret, { kind: 'triage', userId, mailKinds: [kind] })),
          items: ofKind.map((e) => ({
            title: e.title,
            providerId: e.externalId,
            url: shareUrlOf(deps.publicUrl, { source: e.itemSource, externalId: e.externalId }),
            tenantName: e.tenantName,
            dueDate: e.dueDate,
            actorName: e.actorName,
            excerpt: e.commentBody ? (e.commentBody.length > EXCERPT_CHARS ? `${e.commentBody.slice(0, EXCERPT_CHARS - 1)}…` : e.commentBody) : null,
          })),
        },
      ];
    });
  }

  async function deliver(): Promise<number> {
    const now = clock.now();
    let sent = 0;
    let posted = 0;
    for (const userId of await createTriageNotificationsRepo(db).usersDue(new Date(now.getTime() - DAY_MS))) {
      const done = await notifyUser(userId, now);
      if (done.mailed) sent++;
      posted += done.posted;
    }
    if (sent > 0) mail.kick();
    if (posted > 0) alerts?.deliveriesWritten();
    return sent;
  }

  /**
   * The admins' change-health reports: weekly on Mondays (UTC), monthly on the 1st (of the month just ended), once per
   * period and admin address (a dedupe key); admins who switched them off are left out. Returns how many were queued.
   */
  async function changeHealthReports(now: Date): Promise<number> {
    let sent = 0;
    if (now.getUTCDay() === 1) sent += await changeHealthReport(now, 'week');
    if (now.getUTCDate() === 1) sent += await changeHealthReport(now, 'month');
    return sent;
  }

  async function changeHealthReport(now: Date, period: 'week' | 'month'): Promise<number> {
    const today = now.toISOString().slice(0, 10);
    const since = period === 'week' ? new Date(now.getTime() - 7 * DAY_MS) : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const periodLabel = period === 'week' ? `week of ${today}` : since.toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    const days = Math.round((now.getTime() - since.getTime()) / DAY_MS);
    const sent = await db.transaction(async (tx) => {
      const reports = createTriageReportsRepo(tx);
      const health = await reports.changeHealth(now, since);
      const current = await reports.health('all', 'all', now);
      const { score, costs } = changeHealthSummary(current.sums, current.records);
      const trend = await reports.healthSeries('all', days, now);
      const accounts = await createUsersLookup(tx).byEmails(await adminAddresses(tx, deps.config.ADMIN_EMAILS));
      let queued = 0;
      for (const [to, userId] of accounts) {
        if (userId !== null && (await createTriageNotificationsRepo(tx).optedOut(userId)).has('change_health')) continue;
        const props: ChangeHealthMailProps = {
          publicUrl: deps.publicUrl,
          period,
          periodLabel,
          score,
          costs,
          trend,
          ...health,
          nearest: health.nearest.map((n) => ({
            ...n,
            providerId: n.externalId,
            url: shareUrlOf(deps.publicUrl, { source: n.source, externalId: n.externalId }),
          })),
          ...(userId !== null
            ? { unsubscribeUrl: unsubscribeUrl(deps.publicUrl, createUnsubscribeToken(deps.secret, { kind: 'triage', userId, mailKinds: ['change_health'] })) }
            : {}),
        };
        const rendered = await renderMail(createElement(ChangeHealthMail, props), changeHealthText(props));
        const id = await mail.enqueue(tx, {
          kind: 'change-health',
          to,
          subject: changeHealthSubject(props),
          ...rendered,
          ...(props.unsubscribeUrl ? { headers: listUnsubscribeHeaders(props.unsubscribeUrl) } : {}),
          dedupeKey: period === 'week' ? `change-health:${today}:${to}` : `change-health-month:${since.toISOString().slice(0, 7)}:${to}`,
          createdAt: now,
        });
        if (id !== null) queued++;
      }
      return queued;
    });
    if (sent > 0) mail.kick();
    return sent;
  }

  return {
    /**
     * Counts today's triage for the analytics, adds today's reminders (due in 7 days, overdue), mails every user who
     * is due a mail, and the admins' change-health reports (Mondays, and the 1st of each month).
     */
    async run(): Promise<{ reminders: number; mails: number; reports: number }> {
      const now = clock.now();
      await createTriageReportsRepo(db).recordDay(now);
      const reminders = await createTriageNotificationsRepo(db).addReminders(now.toISOString().slice(0, 10), now);
      const mails = await deliver();
      return { reminders, mails, reports: await changeHealthReports(now) };
    },
    /** Mails whoever is due one now (after an assignment or a mention); one run at a time, a call during a run runs again after it. */
    deliver(): Promise<number> {
      if (running) {
        again = true;
        return running;
      }
      running = deliver().finally(() => {
        running = null;
        if (again) {
          again = false;
          // Nobody awaits the rerun: its failure is logged here (the daily job sends what it missed), never left
          // unhandled.
          this.deliverSoon();
        }
      });
      return running;
    },
    /** deliver() without waiting, its failure logged (the daily job sends what this missed). */
    deliverSoon(): void {
      this.deliver().catch((err: unknown) => log.error({ err }, 'triage mail failed'));
    },
  };
}

export type TriageMailService = ReturnType<typeof createTriageMail>;
