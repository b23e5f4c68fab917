import { createElement } from 'react';
import type { DbOrTx } from '../../db/client.js';
import type { BaseDeps } from '../../deps.js';
import type { MailService } from '../../mail/mail.service.js';
import { enqueueMail } from '../../mail/outbox.repo.js';
import { renderMail } from '../../mail/render.js';
import { ItemChangeMail, itemChangeSubject, itemChangeText, type ItemChangeMailItem, type ItemChangeMailProps } from '../../mail/templates/ItemChangeMail.js';
import { shareUrlOf } from '../items/share-link.js';
import { formatMonthShift, releaseDateMove, ROLE_NAMES, SOURCE_LABELS, timingMove, type Source } from '@radar/contracts';
import { isCosmeticChange } from '../sync/cosmetic.js';
import { fieldLabel, formatValue, isShownField } from './change-format.js';
import { createNotificationsRepo, itemTypeOf, type SubscriberRow, type SyncChangeRow } from './notifications.repo.js';
import { createUnsubscribeToken, listUnsubscribeHeaders, unsubscribeUrl } from '../../mail/unsubscribe-token.js';
import { htmlToPlainText } from '../../lib/html.js';
import { messageSections } from '../../sources/message-sections.js';
import { loadRolesOf } from '../../http/auth.repo.js';
import { tenantScopeOfUser } from '../tenants/tenant-scope.js';
import { changesAsSeen } from '../items/tenant-own-fields.js';
import { visibleTenantIds } from '../items/tenant-status.repo.js';

/** How far back the catch-up sweep looks for syncs whose notification step never ran (crash, restart). */
export const SWEEP_LOOKBACK_MS = 24 * 60 * 60 * 1000;
/** Markers of notified syncs are kept this long, well past the sweep's look-back. */
const MARKER_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface NotifyResult {
  syncId: number;
  /** False when this sync had been notified already (nothing was written). */
  claimed: boolean;
  mails: number;
}

type Deps = Pick<BaseDeps, 'db' | 'clock' | 'log' | 'secret' | 'publicUrl'> & {
  /** Asks the deliver-mail job to run once the mails are committed (optional: the periodic job sends them anyway). */
  mail?: Pick<MailService, 'kick'>;
};

/** What a follower of a post acts on: its rollout schedule and what it asks admins to do, cut to a paragraph each. */
const MAIL_SECTION_KINDS = new Set(['rollout', 'action']);
const MAIL_SECTION_CHARS = 400;
function mailSections(bodyHtml: string | null): { title: string; text: string }[] {
  return messageSections(bodyHtml ?? '')
    .filter((s) => s.kind && MAIL_SECTION_KINDS.has(s.kind))
    .map((s) => {
      const text = htmlToPlainText(s.html).replace(/\s+/g, ' ');
      return { title: s.title, text: text.length > MAIL_SECTION_CHARS ? `${text.slice(0, MAIL_SECTION_CHARS - 1).trimEnd()}…` : text };
    })
    .filter((s) => s.text !== '');
}

const SLIP_LABELS = { releaseDate: 'GA date', previewDate: 'Preview date', timing: 'Rollout' } as const;

/** One item's changes in one sync (several history entries of an item are merged). */
interface ItemChanges {
  key: string;
  itemRowId: number;
  source: Source;
  externalId: string;
  title: string;
  removed: boolean;
  restored: boolean;
  status: { from: string; to: string } | null;
  /** GA / preview date moves (roadmap) and rollout timing moves (Message Center), called out like a status change. */
  dateSlips: { field: 'releaseDate' | 'previewDate' | 'timing'; from: string; to: string; shiftMonths: number | null }[];
  fields: { field: string; from: unknown; to: unknown }[];
  /** A post's rollout and action sections as they read now, plain text. */
  sections: { title: string; text: string }[];
}

/**
 * A status change, for subscriptions that asked only for 'status_change': the roadmap status moved, its GA or preview
 * date moved, a post's rollout timing moved (a date slip is called out like a status change: it is what an admin
 * planning a rollout follows an item for), or the item left or came back to the feed (Message Center posts have no
 * status of their own; their lifecycle is expiry/restore).
 */
const isStatusChange = (c: ItemChanges) => c.removed || c.restored || c.status !== null || c.dateSlips.length > 0;

/**
 * One entry per changed item. Cosmetic edits (only whitespace, punctuation or letter case; see cosmetic.ts) are kept
 * in the history but mailed to nobody: an item whose only change in the sync was cosmetic is left out.
 */
function mergeByItem(rows: SyncChangeRow[]): Map<string, ItemChanges> {
  const byItem = new Map<string, ItemChanges>();
  for (const row of rows) {
    if (isCosmeticChange(row)) continue;
    const key = `${itemTypeOf(row.source)}:${row.externalId}`;
    const entry =
      byItem.get(key) ??
      ({
        key,
        itemRowId: row.itemRowId,
        source: row.source,
        externalId: row.externalId,
        title: row.title,
        removed: false,
        restored: false,
        status: null,
        dateSlips: [],
        fields: [],
        sections: row.source === 'messages' ? mailSections(row.bodyHtml) : [],
      } as ItemChanges);
    byItem.set(key, entry);
    if (row.changeType === 'removed') entry.removed = true;
    if (row.changeType === 'changed' && row.changedFields.includes('isRemoved') && row.newValues.isRemoved === false) entry.restored = true;
    for (const field of row.changedFields) {
      if (field === 'status') {
        entry.status = { from: formatValue(row.previousValues.status), to: formatValue(row.newValues.status) };
        continue;
      }
      const dateField = row.source === 'roadmap' && (field === 'releaseDate' || field === 'previewDate') ? field : null;
      const move = dateField ? releaseDateMove(row.previousValues[dateField], row.newValues[dateField]) : null;
      if (dateField && move) {
        entry.dateSlips.push({ field: dateField, ...move });
        continue;
      }
      const rollout = row.source === 'messages' && field === 'timing' ? timingMove(row.previousValues.timing, row.newValues.timing) : null;
      if (rollout) {
        entry.dateSlips.push({ field: 'timing', ...rollout });
        continue;
      }
      if (!isShownField(field) || entry.fields.some((f) => f.field === field)) continue;
      entry.fields.push({ field, from: row.previousValues[field], to: row.newValues[field] });
    }
  }
  return byItem;
}

function wants(sub: SubscriberRow, change: ItemChanges): boolean {
  if (sub.changeTypes.includes('changed')) return true;
  return sub.changeTypes.includes('status_change') && isStatusChange(change);
}

/**
 * The subscriber-notification step of a sync. It reads what changed from item_history by syncId — never from the
 * sync's in-memory result — so it can run again for the same sync after a crash and produce the same mails. All
 * mails of a sync and the sync's "notified" marker are written in ONE transaction to the outbox (dedupe key
 * `item-change:<syncId>:<userId>` as a second guard), so a retried step sends nothing twice and a crash before the
 * commit loses nothing: the catch-up sweep (notify-subscribers job) finds the unmarked sync and runs it again.
 */
export function createNotificationsService(deps: Deps) {
  const repo = createNotificationsRepo(deps.db);
  const itemUrl = (c: ItemChanges) => shareUrlOf(deps.publicUrl, c);
  const linkFor = (subscriptionIds: number[]) => unsubscribeUrl(deps.publicUrl, createUnsubscribeToken(deps.secret, { kind: 'items', subscriptionIds }));

  function toMailItem(c: ItemChanges, subscriptionId: number): ItemChangeMailItem {
    return {
      sourceLabel: SOURCE_LABELS[c.source],
      idLabel: c.source === 'roadmap' ? `Roadmap ID ${c.externalId}` : c.externalId,
      title: c.title,
      url: itemUrl(c),
      kind: c.removed ? 'removed' : c.restored ? 'restored' : 'changed',
      statusChange: c.status,
      dateSlips: c.dateSlips.map((d) => ({
        label: SLIP_LABELS[d.field],
        from: d.from,
        to: d.to,
        shift: d.shiftMonths === null ? null : formatMonthShift(d.shiftMonths),
      })),
      fields: c.fields.map((f) => ({ label: fieldLabel(f.field), from: formatValue(f.from, f.field), to: formatValue(f.to, f.field) })),
      sections: c.sections,
      unsubscribeUrl: linkFor([subscriptionId]),
    };
  }

  async function buildMails(syncId: number) {
    const rows = await repo.changesOfSync(syncId);
    const changes = mergeByItem(rows);
    // What a reader who may not see the run's tenant is told: the changes without that tenant's own fields.
    const runTenant = rows.find((r) => r.tenantId !== null)?.tenantId ?? null;
    const changesWithoutOwn = runTenant === null ? changes : mergeByItem(changesAsSeen(rows, () => false));
    const subscribers = await repo.activeSubscribersOf([...changes.values()].map((c) => ({ itemType: itemTypeOf(c.source), externalId: c.externalId })));
    const byUser = new Map<number, { sub: SubscriberRow; change: ItemChanges }[]>();
    for (const sub of subscribers) {
      const change = changes.get(`${sub.itemType}:${sub.itemExternalId}`);
      if (!change || !wants(sub, change)) continue;
      byUser.set(sub.userId, [...(byUser.get(sub.userId) ?? []), { sub, change }]);
    }
    const mails = [];
    for (const [userId, all] of byUser) {
      // Each recipient is mailed only about posts of tenants they may see now (a revoked grant stops the mails).
      const roles = await loadRolesOf(deps.db, userId);
      const scope = await tenantScopeOfUser(
        deps.db,
        userId,
        roles.some((r) => r.name === ROLE_NAMES.admin),
      );
      const visible = await repo.visibleItemIds(
        all.map((l) => l.change.itemRowId),
        scope,
      );
      const seesRun = runTenant === null || (await visibleTenantIds(deps.db, [runTenant], scope)).has(runTenant);
      const list = all
        .filter((l) => visible.has(l.change.itemRowId))
        .flatMap((l) => {
          if (seesRun) return [l];
          const change = changesWithoutOwn.get(l.change.key);
          return change && wants(l.sub, change) ? [{ ...l, change }] : [];
        });
      const first = list[0]?.sub;
      if (!first) continue;
      const allUrl = linkFor(list.map((l) => l.sub.subscriptionId));
      const props: ItemChangeMailProps = {
        publicUrl: deps.publicUrl,
        firstName: first.firstName,
        items: list.map((l) => toMailItem(l.change, l.sub.subscriptionId)),
        unsubscribeAllUrl: allUrl,
        settingsUrl: `${deps.publicUrl}/notifications`,
      };
      const rendered = await renderMail(createElement(ItemChangeMail, props), itemChangeText(props));
      mails.push({
        kind: 'item-change',
        to: first.email,
        subject: itemChangeSubject(props.items),
        ...rendered,
        headers: listUnsubscribeHeaders(allUrl),
        dedupeKey: `item-change:${syncId}:${userId}`,
      });
    }
    return { mails, changedItems: changes.size };
  }

  async function notifySync(syncId: number): Promise<NotifyResult> {
    if (await repo.isSyncNotified(syncId)) return { syncId, claimed: false, mails: 0 };
    const { mails, changedItems } = await buildMails(syncId);
    const now = deps.clock.now();
    const result = await deps.db.transaction(async (tx) => {
      const txRepo = createNotificationsRepo(tx as DbOrTx);
      if (!(await txRepo.claimSync(syncId, now, { notifiedAt: now.toISOString(), mails: mails.length, changedItems }))) return { claimed: false, mails: 0 };
      let written = 0;
      for (const mail of mails) if ((await enqueueMail(tx, { ...mail, createdAt: now })) !== null) written++;
      return { claimed: true, mails: written };
    });
    if (result.mails > 0) deps.mail?.kick();
    if (result.claimed) deps.log.info({ syncId, mails: result.mails, changedItems }, 'item subscribers notified');
    return { syncId, ...result };
  }

  return {
    notifySync,

    /** The sync service's onItemsChanged hook: runs the step right after the sync committed. */
    async onItemsChanged(changes: { syncId: number }): Promise<void> {
      await notifySync(changes.syncId);
    },

    /** Catch-up: notify every recent successful sync that changed items and was never marked notified. */
    async sweep(): Promise<NotifyResult[]> {
      const now = deps.clock.now();
      const results: NotifyResult[] = [];
      for (const syncId of await repo.recentSyncsWithChanges(new Date(now.getTime() - SWEEP_LOOKBACK_MS))) {
        if (await repo.isSyncNotified(syncId)) continue;
        results.push(await notifySync(syncId));
      }
      await repo.pruneMarkers(new Date(now.getTime() - MARKER_RETENTION_MS));
      if (results.length) deps.log.warn({ syncs: results.map((r) => r.syncId) }, 'notification sweep caught up on syncs that had not been notified');
      return results;
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
