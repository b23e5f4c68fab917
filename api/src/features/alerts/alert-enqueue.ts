import crypto from 'node:crypto';
import { createElement } from 'react';
import type { DbOrTx } from '../../db/client.js';
import type { MailService } from '../../mail/mail.service.js';
import { MAIL_PRIORITY } from '../../mail/priority.js';
import { renderMail } from '../../mail/render.js';
import { SavedSearchAlertMail, savedSearchAlertText, type SavedSearchAlertMailProps } from '../../mail/templates/SavedSearchAlertMail.js';
import { createUnsubscribeToken, listUnsubscribeHeaders, unsubscribeUrl } from '../../mail/unsubscribe-token.js';
import { itemRowIdsOf } from './alert-audience.repo.js';
import { alertTitle, type AlertMessage } from './alert-message.js';
import type { ChannelWithOwner } from './channels.repo.js';
import { insertAttempt, insertDelivery, setDeliveryState } from './deliveries.repo.js';
import { buildSlackMessage } from './slack-message.js';
import { buildTeamsMessage } from './teams-card.js';
import { buildWebhookPayload } from './webhook-payload.js';

export interface EnqueueDeps {
  publicUrl: string;
  secret: string;
  mail: Pick<MailService, 'enqueue'>;
}

const PERIOD_TEXT: Record<AlertMessage['trigger'], string> = {
  instant: 'after the latest sync',
  daily: 'since the previous daily digest',
  weekly: 'since the previous weekly digest',
  triage: 'since your last triage notice',
  test: '(a test message)',
};

/** The body a webhook channel gets (Teams card, Slack blocks or the generic JSON), as the text that is sent. */
export function webhookBody(kind: ChannelWithOwner['kind'], m: AlertMessage): string {
  if (kind === 'teams') return JSON.stringify(buildTeamsMessage(m));
  if (kind === 'slack') return JSON.stringify(buildSlackMessage(m));
  return JSON.stringify(buildWebhookPayload(m));
}

/** The e-mail of an alert: every saved search with its own stop link, and List-Unsubscribe for all of them. */
export async function alertMail(deps: EnqueueDeps, channel: ChannelWithOwner, m: AlertMessage) {
  const link = (savedSearchIds: number[]) =>
    unsubscribeUrl(deps.publicUrl, createUnsubscribeToken(deps.secret, { kind: 'savedSearches', channelId: channel.id, savedSearchIds }));
  const realIds = m.sections.map((s) => s.savedSearch.id).filter((id) => id > 0);
  const allUrl = realIds.length ? link(realIds) : `${deps.publicUrl}/notifications`;
  const props: SavedSearchAlertMailProps = {
    publicUrl: deps.publicUrl,
    title: alertTitle(m),
    firstName: channel.ownerFirstName,
    sections: m.sections.map((s) => ({ ...s, unsubscribeUrl: s.savedSearch.id > 0 ? link([s.savedSearch.id]) : allUrl })),
    unsubscribeAllUrl: allUrl,
    settingsUrl: m.settingsUrl,
    periodText: PERIOD_TEXT[m.trigger],
  };
  const rendered = await renderMail(createElement(SavedSearchAlertMail, props), savedSearchAlertText(props));
  return {
    kind: 'saved-search-alert',
    to: channel.ownerEmail,
    subject: props.title,
    ...rendered,
    headers: realIds.length ? listUnsubscribeHeaders(allUrl) : {},
    // Whoever pressed "Send test" is waiting for it: the interactive lane, never behind a digest run.
    ...(m.trigger === 'test' ? { priority: MAIL_PRIORITY.interactive } : {}),
  };
}

export const newPublicId = () => crypto.randomUUID();

/**
 * Writes one message to one channel inside the caller's transaction: a webhook delivery row (pending, sent by the
 * deliver-alerts job), or for e-mail the mail in the mail outbox plus a delivery row that points at it. Returns the
 * delivery id, or null when a delivery with the same dedupe key exists (a re-run of the same alert).
 */
export async function enqueueAlert(
  tx: DbOrTx,
  deps: EnqueueDeps,
  channel: ChannelWithOwner,
  m: AlertMessage,
  dedupeKey: string | null,
): Promise<number | null> {
  const base = {
    publicId: m.publicId,
    channelId: channel.id,
    savedSearchIds: m.sections.map((s) => s.savedSearch.id).filter((id) => id > 0),
    trigger: m.trigger,
    dedupeKey,
    itemIds: await itemRowIdsOf(
      tx,
      m.sections.flatMap((s) => s.items),
    ),
    relevanceTenantIds: [...new Set(m.relevanceTenantIds ?? [])].sort((a, b) => a - b),
    createdAt: m.createdAt,
    nextAttemptAt: m.createdAt,
  };
  if (channel.kind !== 'email') {
    return insertDelivery(tx, { ...base, body: webhookBody(channel.kind, m) });
  }
  const id = await insertDelivery(tx, { ...base, status: 'sent', sentAt: m.createdAt });
  if (id === null) return null;
  const outboxId = await deps.mail.enqueue(tx, {
    ...(await alertMail(deps, channel, m)),
    dedupeKey: dedupeKey ? `alert-mail:${dedupeKey}` : undefined,
    createdAt: m.createdAt,
  });
  await setDeliveryState(tx, id, { mailOutboxId: outboxId });
  await insertAttempt(tx, { deliveryId: id, channelId: channel.id, attemptedAt: m.createdAt, outcome: 'queued', responseExcerpt: 'Handed to the mail outbox' });
  return id;
}
