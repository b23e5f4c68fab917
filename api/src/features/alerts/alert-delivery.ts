import { createElement } from 'react';
import { CHANNEL_PAUSE_AFTER_FAILURES, DELIVERY_RESPONSE_EXCERPT_CHARS, WEBHOOK_HEADERS } from '@radar/contracts';
import type { Db } from '../../db/client.js';
import type { alertDeliveries } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import type { MailService } from '../../mail/mail.service.js';
import {
  backoffMs,
  recordAttempt as recordOutboxAttempt,
  retryAfterMs,
  type AttemptOutcome,
  type AttemptResult,
  type RetryPolicy,
} from '../../outbox/index.js';
import { renderMail } from '../../mail/render.js';
import { ChannelPausedMail, channelPausedSubject, channelPausedText, type ChannelPausedMailProps } from '../../mail/templates/ChannelPausedMail.js';
import { parseRetryAfter } from '../../sources/http.js';
import { openChannelValue, webhookSignature } from './channel-secrets.js';
import { createChannelsRepo, type ChannelWithOwner } from './channels.repo.js';
import { channelStreak, claimDueDeliveries, deliveryInOutbox, insertAttempt, releaseDeliveries } from './deliveries.repo.js';
import { checkWebhookUrl, WebhookUrlError, type GuardOptions } from './ssrf-guard.js';
import { postToWebhook, WebhookNetworkError } from './webhook-http.js';

export const ALERT_DELIVERY = {
  batchSize: 20,
  /** Attempts before a delivery is given up. */
  maxAttempts: 8,
  /** First retry after 1 minute, doubling, at most 6 hours apart. */
  baseBackoffMs: 60_000,
  maxBackoffMs: 6 * 60 * 60 * 1000,
  /** A receiver's Retry-After is honoured up to this. */
  maxRetryAfterMs: 60 * 60 * 1000,
  /** A delivery left in 'sending' this long (the process died mid-send) is claimed again. */
  sendingLeaseMs: 5 * 60 * 1000,
};

/** The outbox's retry schedule with the alert delivery's numbers. */
const ALERT_RETRY: RetryPolicy = {
  baseMs: ALERT_DELIVERY.baseBackoffMs,
  maxMs: ALERT_DELIVERY.maxBackoffMs,
  maxRetryAfterMs: ALERT_DELIVERY.maxRetryAfterMs,
  maxAttempts: ALERT_DELIVERY.maxAttempts,
};

export const alertBackoffMs = (attempts: number) => backoffMs(attempts, ALERT_RETRY);

export interface AlertDeliveryDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  guard: GuardOptions;
  channelKey: Buffer;
  timeoutMs: number;
  publicUrl: string;
  mail: Pick<MailService, 'enqueue' | 'kick'>;
  /** Graceful shutdown has begun: no further delivery is started. */
  stopping?: () => boolean;
  /** Fires past the shutdown budget: requests in flight are cut and recorded as network errors (retried later). */
  abort?: AbortSignal;
}

type DeliveryRow = typeof alertDeliveries.$inferSelect;
export type { AttemptOutcome, AttemptResult };

const KIND_LABEL: Record<ChannelWithOwner['kind'], string> = { email: 'E-mail', teams: 'Microsoft Teams', slack: 'Slack', webhook: 'Webhook' };

/**
 * One HTTP attempt of a delivery, classified like a real integration: 2xx sent; network errors, timeouts, 429
 * (after the receiver's Retry-After, capped at an hour) and 5xx retried with backoff; every other answer (other 4xx,
 * redirects, which are never followed) fails at once. The URL passes the SSRF guard again before every attempt.
 */
export async function attemptDelivery(
  deps: AlertDeliveryDeps,
  channel: ChannelWithOwner,
  row: Pick<DeliveryRow, 'publicId' | 'body' | 'trigger' | 'attempts'>,
): Promise<AttemptResult> {
  const fail = (error: string): AttemptResult => ({ outcome: 'failed', statusCode: null, latencyMs: null, response: '', error });
  const url = openChannelValue(deps.channelKey, channel.urlSealed);
  if (!url) return fail('The webhook URL cannot be read (was SESSION_SECRET changed?): delete the channel and add it again');
  let target;
  try {
    target = await checkWebhookUrl(url, deps.guard);
  } catch (err) {
    if (err instanceof WebhookUrlError) {
      // The delivery log is the channel owner's to read: the refusal; the resolved address only in the server's log.
      if (err.detail !== err.message) deps.log.warn({ channelId: channel.id, detail: err.detail }, 'webhook delivery refused by the SSRF guard');
      return fail(err.message);
    }
    throw err;
  }
  const body = row.body ?? '';
  const headers: Record<string, string> = {};
  if (channel.kind === 'webhook') {
    const secret = openChannelValue(deps.channelKey, channel.secretSealed);
    if (!secret) return fail('The signing secret cannot be read (was SESSION_SECRET changed?): delete the channel and add it again');
    const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
    headers[WEBHOOK_HEADERS.timestamp] = String(timestamp);
    headers[WEBHOOK_HEADERS.signature] = webhookSignature(secret, timestamp, body);
    headers[WEBHOOK_HEADERS.delivery] = row.publicId;
    headers[WEBHOOK_HEADERS.event] = row.trigger === 'test' ? 'radar.test' : row.trigger === 'triage' ? 'radar.triage' : 'radar.alert';
  }
  try {
    const res = await postToWebhook(target, body, headers, deps.timeoutMs, deps.abort);
    const response = res.text.slice(0, DELIVERY_RESPONSE_EXCERPT_CHARS);
    const base = { statusCode: res.status, latencyMs: res.latencyMs, response };
    if (res.status >= 200 && res.status < 300) return { outcome: 'sent', ...base, error: null };
    if (res.status === 429) {
      const asked = parseRetryAfter(res.retryAfter, deps.clock.now().getTime());
      const retryInMs = retryAfterMs(asked, row.attempts, ALERT_RETRY);
      return { outcome: 'retrying', ...base, error: `HTTP 429 Too Many Requests${asked !== null ? ` (Retry-After ${res.retryAfter})` : ''}`, retryInMs };
    }
    if (res.status >= 500) return { outcome: 'retrying', ...base, error: `HTTP ${res.status}`, retryInMs: alertBackoffMs(row.attempts) };
    if (res.status >= 300 && res.status < 400)
      return { outcome: 'failed', ...base, error: `HTTP ${res.status}: redirects are not followed; use the final URL` };
    return { outcome: 'failed', ...base, error: `HTTP ${res.status}: the receiver refused the message` };
  } catch (err) {
    if (!(err instanceof WebhookNetworkError)) throw err;
    return { outcome: 'retrying', statusCode: null, latencyMs: err.latencyMs, response: '', error: err.message, retryInMs: alertBackoffMs(row.attempts) };
  }
}

/**
 * Records an attempt: the log row, the delivery's new state (a retry past maxAttempts fails for good) and the
 * channel's failure streak; the attempt that reaches CHANNEL_PAUSE_AFTER_FAILURES pauses the channel and, in the same
 * transaction, mails its owner. Tests (`trigger = 'test'`) are logged but never retried and never move the streak.
 */
export async function recordAttempt(deps: AlertDeliveryDeps, channel: ChannelWithOwner, row: DeliveryRow, result: AttemptResult): Promise<AttemptOutcome> {
  const now = deps.clock.now();
  const isTest = row.trigger === 'test';
  const { outcome, mailed } = await deps.db.transaction(async (tx) => {
    const recorded = await recordOutboxAttempt(tx, {
      now,
      attempt: result,
      row: deliveryInOutbox(row),
      policy: ALERT_RETRY,
      noRetry: isTest,
      log: (entry) => insertAttempt(tx, { deliveryId: row.id, channelId: channel.id, ...entry }),
      streak: isTest
        ? null
        : channelStreak(channel.id, now, CHANNEL_PAUSE_AFTER_FAILURES, `Paused after ${CHANNEL_PAUSE_AFTER_FAILURES} failed deliveries in a row`),
    });
    const { streak } = recorded;
    if (!streak?.pausedNow) return { outcome: recorded.outcome, mailed: false };
    const props: ChannelPausedMailProps = {
      publicUrl: deps.publicUrl,
      firstName: channel.ownerFirstName,
      channelName: channel.name,
      kindLabel: KIND_LABEL[channel.kind],
      failures: streak.failures,
      lastError: result.error ?? 'unknown',
      settingsUrl: `${deps.publicUrl}/notifications`,
    };
    const rendered = await renderMail(createElement(ChannelPausedMail, props), channelPausedText(props));
    await deps.mail.enqueue(tx, {
      kind: 'alert-channel-paused',
      to: channel.ownerEmail,
      subject: channelPausedSubject(props),
      ...rendered,
      dedupeKey: `alert-channel-paused:${channel.id}:${now.toISOString()}`,
    });
    deps.log.warn({ channelId: channel.id, failures: streak.failures }, 'alert channel paused after consecutive failures');
    return { outcome: recorded.outcome, mailed: true };
  });
  if (mailed) deps.mail.kick();
  return outcome;
}

export interface AlertDeliveryResult {
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Sends due webhook deliveries. Claims are FOR UPDATE SKIP LOCKED with a lease, so two workers never send the same
 * delivery and a delivery whose worker died is claimed again when the lease ends (at-least-once: receivers drop
 * duplicates by X-Radar-Delivery / the body's id). Deliveries of a paused channel wait. When a shutdown begins, the
 * attempt in progress finishes and is recorded; the rest of the batch is released rather than left to its lease.
 */
export async function deliverDueAlerts(deps: AlertDeliveryDeps): Promise<AlertDeliveryResult> {
  const result: AlertDeliveryResult = { sent: 0, retrying: 0, failed: 0 };
  const channels = createChannelsRepo(deps.db);
  const claimed = await claimDueDeliveries(deps.db, deps.clock.now(), ALERT_DELIVERY.batchSize, ALERT_DELIVERY.sendingLeaseMs);
  for (const [index, row] of claimed.entries()) {
    if (deps.stopping?.()) {
      await releaseDeliveries(
        deps.db,
        deps.clock.now(),
        claimed.slice(index).map((r) => r.id),
      );
      break;
    }
    const channel = await channels.byId(row.channelId);
    if (!channel) continue;
    const attempt = await attemptDelivery(deps, channel, row);
    const outcome = await recordAttempt(deps, channel, row, attempt);
    result[outcome]++;
    if (outcome !== 'sent')
      deps.log.warn({ deliveryId: row.id, channelId: channel.id, attempts: row.attempts, error: attempt.error, outcome }, 'alert delivery not sent');
  }
  return result;
}
