import type { BaseDeps } from '../deps.js';
import type { DbOrTx } from '../db/client.js';
import { DELIVERY_DEFAULTS, deliverDueMail, type DeliveryResult } from './delivery.js';
import { createMailer, type Mailer } from './mailer.js';
import { enqueueMail, type OutgoingMail } from './outbox.js';

export interface MailService {
  /** Writes a mail to the outbox inside the caller's transaction (see enqueueMail). */
  enqueue(tx: DbOrTx, mail: OutgoingMail): Promise<number | null>;
  /**
   * Asks the deliver-mail job to run now. Call it after the transaction that enqueued mail has committed; without
   * a job runner (tests, web-only replicas) it does nothing and the periodic job or deliverNow() sends the mail.
   */
  kick(): void;
  /** The job runner registers how to run the deliver-mail job at once. */
  setKicker(kicker: (() => Promise<unknown>) | null): void;
  /** Delivers every due mail now (the job calls this; tests call it instead of waiting). */
  deliverNow(): Promise<DeliveryResult>;
  /**
   * Delivers these outbox rows now, when due (an admin waits for one test mail), and answers whether the SMTP
   * server took them. A row another worker holds, or one the server refused (left to the retries), is not sent.
   */
  deliverRows(ids: number[]): Promise<DeliveryResult>;
  readonly mailer: Mailer | null;
  close(): void;
}

export function createMailService(deps: Pick<BaseDeps, 'db' | 'clock' | 'log' | 'config'>, opts: { mailer?: Mailer | null } = {}): MailService {
  const mailer = opts.mailer !== undefined ? opts.mailer : createMailer(deps.config, deps.log);
  let kicker: (() => Promise<unknown>) | null = null;
  return {
    mailer,
    enqueue: (tx, mail) => enqueueMail(tx, { createdAt: deps.clock.now(), ...mail }),
    kick() {
      kicker?.().catch((err) => deps.log.warn({ err }, 'could not schedule mail delivery; the periodic job will send it'));
    },
    setKicker(fn) {
      kicker = fn;
    },
    async deliverNow() {
      // Loop until a batch comes back short, so a burst (a digest to many subscribers) goes out in one run.
      const total: DeliveryResult = { sent: 0, retrying: 0, failed: 0, logged: 0 };
      for (let round = 0; round < 50; round++) {
        const r = await deliverDueMail({ db: deps.db, clock: deps.clock, log: deps.log, mailer });
        total.sent += r.sent;
        total.retrying += r.retrying;
        total.failed += r.failed;
        total.logged += r.logged;
        if (r.sent + r.retrying + r.failed + r.logged < DELIVERY_DEFAULTS.batchSize) break;
      }
      return total;
    },
    deliverRows(ids) {
      if (ids.length === 0) return Promise.resolve({ sent: 0, retrying: 0, failed: 0, logged: 0 });
      return deliverDueMail({ db: deps.db, clock: deps.clock, log: deps.log, mailer, onlyIds: ids });
    },
    close() {
      mailer?.close();
    },
  };
}
