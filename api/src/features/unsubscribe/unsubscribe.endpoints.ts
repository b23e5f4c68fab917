import type { Response } from 'express';
import { endpoints, TRIAGE_MAIL_KIND_LABELS } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { createSavedSearchesRepo } from '../alerts/saved-searches.repo.js';
import { createTriageNotificationsRepo } from '../triage/triage-notifications.repo.js';
import { createNotificationsRepo } from '../subscriptions/notifications.repo.js';
import { renderUnsubscribePage } from './unsubscribe-page.js';
import { verifyUnsubscribeToken, type UnsubscribeTarget } from '../../mail/unsubscribe-token.js';

/**
 * The one-click unsubscribe link of every mail (no sign-in; the signed token is the authority).
 *  GET  /api/unsubscribe?token=  a confirmation page with a button. GET never changes anything: mail scanners and
 *                                link previews fetch links on their own.
 *  POST /api/unsubscribe?token=  unsubscribes: the page's button, and the RFC 8058 one-click POST a mail client
 *                                sends to the List-Unsubscribe URL (body `List-Unsubscribe=One-Click`).
 * A missing, malformed or forged token answers 400 with an explanatory page.
 */
export function createUnsubscribeEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createNotificationsRepo(ctx.db);
  const searches = createSavedSearchesRepo(ctx.db);
  const digest = ctx.services.digest;

  async function describe(target: UnsubscribeTarget): Promise<string | null> {
    if (target.kind === 'digest') return 'the M365 Radar weekly digest';
    if (target.kind === 'triage') return `triage mails: ${target.mailKinds.map((k) => TRIAGE_MAIL_KIND_LABELS[k].toLowerCase()).join(', ')}`;
    if (target.kind === 'savedSearches') {
      const rows = await searches.byIds(target.savedSearchIds);
      if (rows.length === 0) return null;
      const names = rows.map((r) => `“${r.name}”`);
      return `e-mail alerts of your saved ${names.length === 1 ? 'search' : 'searches'} ${names.join(', ')}`;
    }
    const subs = await repo.subscriptionsByIds(target.subscriptionIds);
    if (subs.length === 0) return null;
    const names = subs.map((s) => `“${s.itemTitle ?? s.itemExternalId}”`);
    return names.length === 1 ? `changes to ${names[0]}` : `changes to ${names.length} items: ${names.join(', ')}`;
  }

  function invalid(res: Response) {
    res
      .status(400)
      .type('html')
      .send(renderUnsubscribePage({ kind: 'invalid', homeUrl: ctx.publicUrl }));
  }

  return [
    implement(endpoints.unsubscribe.page, async ({ query: { token }, res }) => {
      const target = verifyUnsubscribeToken(ctx.secret, token);
      const what = target && (await describe(target));
      if (!token || !target || !what) return invalid(res);
      res.type('html').send(renderUnsubscribePage({ kind: 'confirm', what, formAction: `/api/unsubscribe?token=${encodeURIComponent(token)}` }));
    }),
    implement(endpoints.unsubscribe.confirm, async ({ query: { token }, res }) => {
      const target = verifyUnsubscribeToken(ctx.secret, token);
      const what = target && (await describe(target));
      if (!target || !what) return invalid(res);
      if (target.kind === 'digest') {
        const done = await digest.unsubscribeById(target.subscriberId);
        if (!done.found) return invalid(res);
      } else if (target.kind === 'triage') {
        await createTriageNotificationsRepo(ctx.db).optOut(target.userId, target.mailKinds, ctx.clock.now());
      } else if (target.kind === 'savedSearches') {
        await searches.unlinkChannel(target.savedSearchIds, target.channelId);
      } else {
        await repo.deactivateSubscriptions(target.subscriptionIds, ctx.clock.now());
      }
      ctx.log.info({ target }, 'unsubscribed by link');
      res.type('html').send(renderUnsubscribePage({ kind: 'done', what, settingsUrl: `${ctx.publicUrl}/notifications` }));
    }),
  ];
}
