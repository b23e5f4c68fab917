import { createElement } from 'react';
import type { ItemType } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { NotFoundError } from '../../../lib/errors.js';
import { renderMail } from '../../../mail/render.js';
import {
  ItemChangeMail,
  itemChangeSubject,
  itemChangeText,
  type ItemChangeMailItem,
  type ItemChangeMailProps,
} from '../../../mail/templates/ItemChangeMail.js';
import { fieldLabel, formatValue, isShownField } from '../../subscriptions/change-format.js';
import { findItemByExternalId, latestChange } from './test-notification.repo.js';

export interface TestNotificationInput {
  itemId: string;
  itemType: ItemType;
  changesSummary?: string;
}

export interface Recipient {
  email: string;
  firstName: string | null;
}

export interface TestNotificationResult {
  outboxId: number | null;
  subject: string;
  /** 'sent' only when the SMTP server took the mail; 'queued' when it waits in the outbox. */
  delivery: 'sent' | 'queued';
  /** Why it is queued: no SMTP server configured, or the server did not take it yet (the outbox retries). */
  queuedBecause: 'no-smtp' | 'not-taken' | null;
}

/**
 * Sends the real item-change mail for one item to the calling admin, so they can see what subscribers get.
 * The changes shown are the admin's `changesSummary` when given, else the item's latest recorded change. The mail
 * goes through the outbox like every other mail (kind 'test-notification', never deduplicated); with an SMTP server
 * configured it is delivered at once, so the admin learns whether it was really sent.
 */
export function createTestNotificationService(ctx: Pick<AppContext, 'db' | 'clock' | 'publicUrl' | 'services'>) {
  return {
    async send(input: TestNotificationInput, to: Recipient): Promise<TestNotificationResult> {
      const source = input.itemType === 'roadmap' ? 'roadmap' : 'messages';
      const item = await findItemByExternalId(ctx.db, source, input.itemId);
      const label = input.itemType === 'roadmap' ? 'Roadmap item' : 'Message Center item';
      if (!item) throw new NotFoundError(`${label} ${input.itemId} not found`);

      let statusChange: ItemChangeMailItem['statusChange'] = null;
      let fields: ItemChangeMailItem['fields'];
      if (input.changesSummary?.trim()) {
        fields = [{ label: 'Changes', from: 'Earlier version', to: input.changesSummary.trim() }];
      } else {
        const latest = await latestChange(ctx.db, item.id);
        fields = [];
        if (!latest) fields.push({ label: 'Changes', from: 'No recorded change yet', to: 'This is a test notification' });
        for (const field of latest?.changedFields ?? []) {
          const from = formatValue(latest?.previousValues[field], field);
          const to = formatValue(latest?.newValues[field], field);
          if (field === 'status') statusChange = { from, to };
          else if (isShownField(field)) fields.push({ label: fieldLabel(field), from, to });
        }
      }

      const base = ctx.publicUrl.replace(/\/$/, '');
      const settingsUrl = `${base}/notifications`;
      const mailItem: ItemChangeMailItem = {
        sourceLabel: input.itemType === 'roadmap' ? 'Roadmap' : 'Message Center',
        idLabel: input.itemType === 'roadmap' ? `Roadmap ID ${item.externalId}` : item.externalId,
        title: item.title,
        url: `${base}/dashboard?${input.itemType === 'roadmap' ? 'roadmap' : 'message'}=${encodeURIComponent(item.externalId)}`,
        kind: item.isRemoved ? 'removed' : 'changed',
        statusChange,
        fields,
        // A test mail belongs to no subscription: both links lead to the notification settings.
        unsubscribeUrl: settingsUrl,
      };
      const props: ItemChangeMailProps = { publicUrl: base, firstName: to.firstName, items: [mailItem], unsubscribeAllUrl: settingsUrl, settingsUrl };
      const rendered = await renderMail(createElement(ItemChangeMail, props), itemChangeText(props));
      const subject = `[Test] ${itemChangeSubject(props.items)}`;
      const mail = ctx.services.mail;
      const outboxId = await mail.enqueue(ctx.db, { kind: 'test-notification', to: to.email, subject, ...rendered });
      if (!mail.mailer || outboxId === null) {
        // Without SMTP the deliver-mail job writes it to the log; nothing is sent.
        mail.kick();
        return { outboxId, subject, delivery: 'queued', queuedBecause: mail.mailer ? 'not-taken' : 'no-smtp' };
      }
      const result = await mail.deliverRows([outboxId]);
      return result.sent > 0
        ? { outboxId, subject, delivery: 'sent', queuedBecause: null }
        : { outboxId, subject, delivery: 'queued', queuedBecause: 'not-taken' };
    },
  };
}
