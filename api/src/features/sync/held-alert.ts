import { createElement } from 'react';
import type { DbOrTx } from '../../db/client.js';
import { adminAddresses } from '../admin/admin-guards.repo.js';
import type { BaseDeps } from '../../deps.js';
import type { MailService } from '../../mail/mail.service.js';
import { renderMail } from '../../mail/render.js';
import { SyncHeldMail, syncHeldSubject, syncHeldText, type SyncHeldMailProps } from '../../mail/templates/SyncHeldMail.js';
import type { HeldAlert } from './sync-types.js';

/** The sync service's held-snapshot alert: one mail per admin, written with the hold, sent after it commits. */
export function createHeldAlerts(deps: Pick<BaseDeps, 'config' | 'publicUrl'>, mail: Pick<MailService, 'enqueue' | 'kick'>) {
  return {
    async write(tx: DbOrTx, alert: HeldAlert): Promise<void> {
      const props: SyncHeldMailProps = {
        publicUrl: deps.publicUrl,
        syncId: alert.syncId,
        sourceLabel: alert.source === 'roadmap' ? 'Roadmap' : 'Message Center',
        reason: alert.reason,
      };
      const rendered = await renderMail(createElement(SyncHeldMail, props), syncHeldText(props));
      for (const to of await adminAddresses(tx, deps.config.ADMIN_EMAILS)) {
        await mail.enqueue(tx, { kind: 'sync-held', to, subject: syncHeldSubject(props), ...rendered, dedupeKey: `sync-held:${alert.syncId}:${to}` });
      }
    },
    afterCommit: () => mail.kick(),
  };
}
