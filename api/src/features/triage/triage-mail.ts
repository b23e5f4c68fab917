import { createElement } from 'react';
import { TRIAGE_MAIL_KINDS, type TriageMailKind } from '@radar/contracts';
import type { BaseDeps } from '../../deps.js';
import type { MailService } from '../../mail/mail.service.js';
import { renderMail } from '../../mail/render.js';
import { TriageMail, triageSubject, triageText, type TriageMailSection } from '../../mail/templates/TriageMail.js';
import { shareUrlOf } from '../items/share-link.js';
import { createUnsubscribeToken, listUnsubscribeHeaders, unsubscribeUrl } from '../unsubscribe/unsubscribe-token.js';
import { createTriageNotificationsRepo, type PendingTriageEvent } from './triage-notifications.repo.js';
import { createUsersLookup } from './triage-users.repo.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXCERPT_CHARS = 200;

/**
 * Triage mail: at most one a day per user, holding everything that happened to them since the last (items given to
 * them, mentions, items due in 7 days, items that became overdue). The first event after a quiet day goes out at
 * once; later ones wait for the next day's mail. Kinds the user switched off are marked done without a mail.
 */
export function createTriageMail(deps: Pick<BaseDeps, 'db' | 'clock' | 'log' | 'publicUrl' | 'secret'>, mail: Pick<MailService, 'enqueue' | 'kick'>) {
  const { db, clock, log } = deps;
  let running: Promise<number> | null = null;
  let again = false;

  async function mailUser(userId: number, now: Date): Promise<boolean> {
    return db.transaction(async (tx) => {
      const repo = createTriageNotificationsRepo(tx);
      const events = await repo.pendingOf(userId);
      if (events.length === 0) return false;
      const off = await repo.optedOut(userId);
      const wanted = events.filter((e) => !off.has(e.kind));
      await repo.markSent(
        events.filter((e) => off.has(e.kind)).map((e) => e.id),
        now,
        true,
      );
      if (wanted.length === 0) return false;
      const user = await createUsersLookup(tx).byId(userId);
      if (!user) return false;
      const sections = sectionsOf(wanted, userId);
      const kinds = sections.map((s) => s.kind);
      const allUrl = unsubscribeUrl(deps.publicUrl, createUnsubscribeToken(deps.secret, { kind: 'triage', userId, mailKinds: kinds }));
      const props = {
        publicUrl: deps.publicUrl,
        firstName: user.firstName,
        sections,
        unsubscribeAllUrl: allUrl,
        queueUrl: `${deps.publicUrl}/dashboard?triage=mine`,
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
      await repo.markSent(
        wanted.map((e) => e.id),
        now,
        false,
      );
      return true;
    });
  }

  function sectionsOf(events: PendingTriageEvent[], userId: number): TriageMailSection[] {
    return TRIAGE_MAIL_KINDS.flatMap((kind: TriageMailKind) => {
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
    for (const userId of await createTriageNotificationsRepo(db).usersDue(new Date(now.getTime() - DAY_MS))) {
      if (await mailUser(userId, now)) sent++;
    }
    if (sent > 0) mail.kick();
    return sent;
  }

  return {
    /** Adds today's reminders (due in 7 days, overdue), then mails every user who is due a mail. */
    async run(): Promise<{ reminders: number; mails: number }> {
      const now = clock.now();
      const reminders = await createTriageNotificationsRepo(db).addReminders(now.toISOString().slice(0, 10), now);
      return { reminders, mails: await deliver() };
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
          void this.deliver();
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
