import type { BaseDeps } from './deps.js';
import { createAuthService, type AuthService } from './features/auth/auth.service.js';
import { createDigestService, type DigestService } from './features/digest/digest.service.js';
import { createHeldAlerts } from './features/held-sync/held-alert.js';
import { createHeldSyncService, type HeldSyncService } from './features/held-sync/held-sync.service.js';
import { createNotificationsService, type NotificationsService } from './features/notifications/notifications.service.js';
import { createRemoteRegistry, type RemoteRegistry } from './features/remotes/registry.js';
import { createMailService, type MailService } from './mail/mail.service.js';
import type { SyncService } from './sync/sync.service.js';
import { createSyncServiceFor, heldPayloadParser } from './sync/wiring.js';

/**
 * The services shared by routes, jobs and the CLI, built once per process so that, for example, the sync service
 * an admin triggers is the same one the scheduled job uses. Each feature adds its service here.
 */
export interface Services {
  /** Outbox, delivery (deliverNow) and the SMTP mailer. */
  mail: MailService;
  /** Passwordless sign-in, sessions, current user. */
  auth: AuthService;
  /** Roadmap and Message Center sync (jobs, admin triggers, CLI). Notifications plug into its onItemsChanged. */
  sync: SyncService;
  /** Item-subscriber mails after a sync (the sync's onItemsChanged hook and the notify-subscribers job). */
  notifications: NotificationsService;
  /** Weekly digest page data, subscriptions and the Sunday mail (sendWeeklyDigest). */
  digest: DigestService;
  /** "Apply anyway" / "Discard" of a snapshot the sync's guard held. */
  heldSync: HeldSyncService;
  /** Which build of each remote the shell loads (Admin → Remotes; the shell page and its CSP read it). */
  remotes: RemoteRegistry;
}

export function createServices(base: BaseDeps): Services {
  const mail = createMailService(base);
  const auth = createAuthService({ ...base, mail });
  const notifications = createNotificationsService({ ...base, mail });
  const sync = createSyncServiceFor(base, { onItemsChanged: notifications.onItemsChanged, heldAlerts: createHeldAlerts(base, mail) });
  const digest = createDigestService({ ...base, mail });
  const heldSync = createHeldSyncService({ db: base.db, clock: base.clock, sync, parseHeld: heldPayloadParser(base.db) });
  const remotes = createRemoteRegistry(base);
  return { mail, auth, sync, notifications, digest, heldSync, remotes };
}
