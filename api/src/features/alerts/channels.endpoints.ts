import { ALERT_CHANNELS_PER_OWNER, endpoints, triageNoticesRefusal } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, Reply, type EndpointImplementation, implementCallerRead } from '../../http/endpoints.js';
import { freshFactorGuard } from '../../http/fresh-factor.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { fieldError, requireScope, viewerOf } from './access.js';
import { channelKey, newSigningSecret, sealChannelValue, urlHint } from './channel-secrets.js';
import { createChannelsRepo, toAlertChannel, type Viewer } from './channels.repo.js';
import { deliveryLog } from './deliveries.repo.js';
import { checkWebhookUrl, WebhookUrlError } from './ssrf-guard.js';
import { perUserLimiter } from '../../http/rate-limit-store.js';

/** Send test messages one user may ask for per hour (across their channels). */
export const SEND_TESTS_PER_HOUR = 10;

/**
 * /api/alert-channels: where saved searches send alerts. Webhook URLs pass the SSRF guard when saved (and again at
 * every delivery), are stored sealed and answered masked; a generic webhook's signing secret is answered once.
 */
export function createAlertChannelsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createChannelsRepo(ctx.db);
  const alerts = ctx.services.alerts;
  const key = channelKey(ctx.secret);
  // A channel decides where posts flow: an admin confirms adding, changing or deleting one with a recent passkey.
  const fresh = freshFactorGuard(ctx);
  /** Channels with a Send test in flight. */
  const testing = new Set<number>();
  // Send test makes the server call out on demand: a few per user per hour.
  const testLimiter = perUserLimiter({
    name: 'alert-send-test',
    windowMs: 60 * 60 * 1000,
    limit: SEND_TESTS_PER_HOUR,
    message: `You sent ${SEND_TESTS_PER_HOUR} test messages this hour: try again later`,
    db: ctx.db,
  });

  async function load(viewer: Viewer, id: number) {
    const found = await repo.findVisible(viewer, id);
    if (!found) throw new NotFoundError(`Alert channel ${id} not found`);
    return found;
  }

  /** A channel this request just wrote or checked (a vanished row is a 404, not a crash). */
  async function stored(id: number) {
    const row = await repo.byId(id);
    if (!row) throw new NotFoundError(`Alert channel ${id} not found`);
    return row;
  }

  return [
    implementCallerRead(endpoints.alerts.listChannels, async (auth) => (await repo.listVisible(viewerOf(auth))).map(toAlertChannel)),
    implement(endpoints.alerts.createChannel, async ({ body, auth }) => {
      await fresh.require(auth);
      const viewer = viewerOf(auth);
      requireScope(viewer, body.scope, 'alert channels');
      if (body.kind === 'email') {
        if (body.scope === 'organisation')
          throw fieldError('kind', "Organisation channels are Microsoft Teams, Slack or webhook channels: e-mail alerts go to each person's own address");
        // One e-mail channel per user (it always goes to the account's address): adding it again answers the existing one.
        const existing = await repo.personalEmailChannel(auth.user.id);
        if (existing) return Reply.status(200, toAlertChannel(await stored(existing.id)));
      }
      if ((await repo.count(body.scope, auth.user.id)) >= ALERT_CHANNELS_PER_OWNER) {
        throw new ConflictError(
          `${body.scope === 'organisation' ? 'The organisation already has' : 'You already have'} ${ALERT_CHANNELS_PER_OWNER} alert channels: delete one first`,
        );
      }
      let signingSecret: string | undefined;
      const sealed: { urlSealed?: string; urlHint?: string; secretSealed?: string } = {};
      if (body.kind !== 'email') {
        // The body schema requires a url for every kind but e-mail.
        const url = body.url ?? '';
        try {
          await checkWebhookUrl(url, alerts.deliveryDeps.guard);
        } catch (err) {
          if (err instanceof WebhookUrlError) {
            if (err.detail !== err.message) ctx.log.warn({ userId: auth.user.id, detail: err.detail }, 'webhook URL refused');
            throw fieldError('url', err.message);
          }
          throw err;
        }
        sealed.urlSealed = sealChannelValue(key, url);
        sealed.urlHint = urlHint(url);
        if (body.kind === 'webhook') {
          signingSecret = newSigningSecret();
          sealed.secretSealed = sealChannelValue(key, signingSecret);
        }
      }
      const now = ctx.clock.now();
      const row = await repo.insert({
        scope: body.scope,
        ownerUserId: auth.user.id,
        kind: body.kind,
        name: body.name,
        triageNotices: body.triageNotices,
        ...sealed,
        createdAt: now,
        updatedAt: now,
      });
      ctx.log.info({ channelId: row.id, kind: row.kind, scope: row.scope, userId: auth.user.id }, 'alert channel added');
      return Reply.status(201, { ...toAlertChannel(await stored(row.id)), ...(signingSecret ? { signingSecret } : {}) });
    }),
    implement(endpoints.alerts.updateChannel, async ({ params: { id }, body, auth }) => {
      const channel = await load(viewerOf(auth), id);
      await fresh.require(auth);
      const now = ctx.clock.now();
      const pause =
        body.paused === true && !channel.paused
          ? { paused: true, pausedAt: now, pausedReason: channel.scope === 'organisation' ? 'Paused by an admin' : 'Paused by you' }
          : body.paused === false && channel.paused
            ? { paused: false, pausedAt: null, pausedReason: null, consecutiveFailures: 0 }
            : {};
      if (body.triageNotices) {
        const refused = triageNoticesRefusal(channel);
        if (refused) throw fieldError('triageNotices', refused);
      }
      await repo.update(id, {
        ...(body.name ? { name: body.name } : {}),
        ...pause,
        ...(body.triageNotices === undefined ? {} : { triageNotices: body.triageNotices }),
        updatedAt: now,
      });
      return toAlertChannel(await stored(id));
    }),
    implement(endpoints.alerts.deleteChannel, async ({ params: { id }, auth }) => {
      await load(viewerOf(auth), id);
      await fresh.require(auth);
      await repo.remove(id);
      return { success: true, message: 'Alert channel deleted' };
    }),
    implement(
      endpoints.alerts.testChannel,
      async ({ params: { id }, auth }) => {
        const channel = await load(viewerOf(auth), id);
        // One test of a channel at a time (in this process): a second click waits for the first's answer.
        if (testing.has(channel.id)) throw new ConflictError(`A test of “${channel.name}” is already running: wait for its answer`);
        testing.add(channel.id);
        let entry;
        try {
          entry = await alerts.sendTest(channel);
        } finally {
          testing.delete(channel.id);
        }
        if (!entry) return { success: false, message: 'The test message could not be sent', entry: null };
        if (channel.kind === 'email' && (entry.outcome === 'queued' || entry.outcome === 'sent')) {
          // Interactive mail goes out at once: by now it may already be with the mail server.
          return { success: true, message: `Test e-mail ${entry.outcome === 'sent' ? 'sent to' : 'queued for'} ${channel.ownerEmail}`, entry };
        }
        if (entry.outcome === 'sent')
          return { success: true, message: `Test message delivered to “${channel.name}” (HTTP ${entry.statusCode} in ${entry.latencyMs} ms)`, entry };
        return { success: false, message: `Test message not delivered: ${entry.error ?? 'unknown error'}`, entry };
      },
      { middleware: [testLimiter] },
    ),
    implement(endpoints.alerts.channelDeliveries, async ({ params: { id }, auth }) => {
      await load(viewerOf(auth), id);
      return deliveryLog(ctx.db, id);
    }),
  ];
}
