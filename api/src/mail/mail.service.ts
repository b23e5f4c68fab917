import type { BaseDeps } from '../deps.js';
import type { DbOrTx } from '../db/client.js';
import { DELIVERY_DEFAULTS, deliverDueMail, type DeliveryDeps, type DeliveryResult, type UnrecordedSends } from './delivery.js';
import { createMailer, mailDomain, type Mailer } from './mailer.js';
import { enqueueMail, type OutgoingMail } from './outbox.repo.js';
import { deriveOutboxKey } from './sealed-content.js';
import { MAIL_PRIORITY } from './priority.js';

export interface MailService {
  /** Writes a mail to the outbox inside the caller's transaction (see enqueueMail); a `sensitive` one encrypted. */
  enqueue(tx: DbOrTx, mail: OutgoingMail): Promise<number | null>;
  /**
   * Call after the transaction that enqueued mail has committed. Interactive mail (sign-in codes) is sent at once
   * by this process on its own lane, never behind a digest run; the rest is handed to the deliver-mail job (without
   * a job runner — tests, web-only replicas — the periodic job of another process or deliverNow() sends it).
   */
  kick(): void;
  /** The job runner registers how to run the deliver-mail job at once. */
  setKicker(kicker: (() => Promise<unknown>) | null): void;
  /** Delivers every due mail now, most urgent first (the job calls this; tests call it instead of waiting). */
  deliverNow(): Promise<DeliveryResult>;
  /** Sends due interactive mail now (what kick() starts); resolves when this lane is idle. */
  deliverInteractive(): Promise<DeliveryResult>;
  /**
   * Delivers these outbox rows now, when due (an admin waits for one test mail), and answers whether the SMTP
   * server took them. A row another worker holds, or one the server refused (left to the retries), is not sent.
   */
  deliverRows(ids: number[]): Promise<DeliveryResult>;
  /** Graceful shutdown: no new delivery rounds; resolves when the sends in progress are recorded. */
  drain(): Promise<void>;
  readonly mailer: Mailer | null;
  close(): void;
}

const emptyResult = (): DeliveryResult => ({ sent: 0, retrying: 0, failed: 0, logged: 0 });
const add = (total: DeliveryResult, r: DeliveryResult) => {
  total.sent += r.sent;
  total.retrying += r.retrying;
  total.failed += r.failed;
  total.logged += r.logged;
};
const handled = (r: DeliveryResult) => r.sent + r.retrying + r.failed + r.logged;

export function createMailService(deps: Pick<BaseDeps, 'db' | 'clock' | 'log' | 'config' | 'secret'>, opts: { mailer?: Mailer | null } = {}): MailService {
  const mailer = opts.mailer !== undefined ? opts.mailer : createMailer(deps.config, deps.log);
  const outboxKey = deriveOutboxKey(deps.secret);
  const unrecorded: UnrecordedSends = new Map();
  const delivery: DeliveryDeps = {
    db: deps.db as DeliveryDeps['db'],
    clock: deps.clock,
    log: deps.log,
    mailer,
    outboxKey,
    unrecorded,
    baseBackoffMs: deps.config.MAIL_RETRY_BASE_MS,
    messageIdDomain: mailDomain(deps.config.MAIL_FROM ?? ''),
  };
  let kicker: (() => Promise<unknown>) | null = null;
  let stopping = false;
  const inFlight = new Set<Promise<unknown>>();
  /** The interactive lane: one loop per process; a kick while it runs makes it go round once more. */
  let interactive: Promise<DeliveryResult> | null = null;
  let again = false;

  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  };

  async function rounds(maxPriority: number | undefined, maxRounds: number): Promise<DeliveryResult> {
    const total = emptyResult();
    for (let round = 0; round < maxRounds && !stopping; round++) {
      const r = await deliverDueMail({ ...delivery, maxPriority });
      add(total, r);
      if (handled(r) < DELIVERY_DEFAULTS.batchSize) break;
    }
    return total;
  }

  function deliverInteractive(): Promise<DeliveryResult> {
    if (interactive) {
      again = true;
      return interactive;
    }
    interactive = track(
      (async () => {
        const total = emptyResult();
        do {
          again = false;
          add(total, await rounds(MAIL_PRIORITY.interactive, 10));
        } while (again && !stopping);
        return total;
      })().finally(() => (interactive = null)),
    );
    return interactive;
  }

  return {
    mailer,
    enqueue: (tx, mail) => enqueueMail(tx, { createdAt: deps.clock.now(), ...mail }, { key: outboxKey }),
    kick() {
      if (!stopping) {
        deliverInteractive().catch((err) => deps.log.warn({ err }, 'interactive mail delivery failed; the deliver-mail job retries it'));
      }
      kicker?.().catch((err) => deps.log.warn({ err }, 'could not schedule mail delivery; the periodic job will send it'));
    },
    setKicker(fn) {
      kicker = fn;
    },
    // Up to 50 batches per run, so a burst (a digest to many subscribers) goes out in few runs; each batch is
    // claimed most urgent first, so interactive mail that another process queued is not stuck behind it either.
    deliverNow: () => track(rounds(undefined, 50)),
    deliverInteractive,
    async drain() {
      stopping = true;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    deliverRows(ids) {
      if (ids.length === 0 || stopping) return Promise.resolve(emptyResult());
      return track(deliverDueMail({ ...delivery, onlyIds: ids }));
    },
    close() {
      mailer?.close();
    },
  };
}
