import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  headers: ParsedMail['headers'];
  parsed: ParsedMail;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  port: number;
  /** Every message received so far, oldest first. */
  messages: ReceivedMail[];
  /**
   * The next message to `address` that has not been taken by an earlier waitFor (already received or still to come).
   * Rejects after `timeoutMs`.
   */
  waitFor(address: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** Forgets received messages. */
  clear(): void;
  /** Answer the next `count` messages with a temporary failure (451), to exercise retries. */
  rejectNext(count: number): void;
  /** SMTP connections opened so far, and the most open at one time. */
  readonly connections: { opened: number; open: number; maxOpen: number };
  /** Runs after a message is received and before the server answers 250 (to act in that window). */
  beforeAccept: ((mail: ReceivedMail) => Promise<void> | void) | null;
  close(): Promise<void>;
}

/**
 * A real SMTP server in this process on a free port (no TLS, no auth) that parses what it receives (`parse: false`
 * keeps the envelope only). The code under test uses its production nodemailer client against it.
 */
export async function startSmtpSink(options: { port?: number; host?: string; delayMs?: number; parse?: boolean } = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters: Array<{ address: string; resolve: (m: ReceivedMail) => void }> = [];
  let rejecting = 0;
  const hooks: { beforeAccept: SmtpSink['beforeAccept'] } = { beforeAccept: null };

  const deliver = (mail: ReceivedMail) => {
    messages.push(mail);
    const i = waiters.findIndex((w) => mail.to.includes(w.address));
    if (i >= 0) {
      taken.add(mail);
      waiters.splice(i, 1)[0]!.resolve(mail);
    }
  };

  const connections = { opened: 0, open: 0, maxOpen: 0 };
  const server = new SMTPServer({
    authOptional: true,
    onConnect(_session, callback) {
      connections.opened++;
      connections.open++;
      connections.maxOpen = Math.max(connections.maxOpen, connections.open);
      callback();
    },
    onClose() {
      connections.open--;
    },
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      if (rejecting > 0) {
        rejecting--;
        stream.resume();
        stream.on('end', () => {
          const err = Object.assign(new Error('Temporary failure, try again later'), { responseCode: 451 });
          callback(err);
        });
        return;
      }
      if (options.parse === false) {
        // Volume runs: the envelope is enough, and parsing 50,000 digests would load the process the sender shares.
        stream.resume();
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          setTimeout(() => {
            deliver({ to, from, subject: '', text: '', html: '', headers: new Map() as ParsedMail['headers'], parsed: {} as ParsedMail });
            callback();
          }, options.delayMs ?? 0);
        });
        return;
      }
      simpleParser(stream)
        .then(async (parsed) => {
          const mail: ReceivedMail = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers: parsed.headers,
            parsed,
          };
          // A real relay takes some milliseconds per message; bulk-mail tests and the bench set this.
          if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
          deliver(mail);
          await hooks.beforeAccept?.(mail);
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    connections,
    waitFor(address, timeoutMs = 10_000) {
      const wanted = address.toLowerCase();
      const ready = messages.find((m) => !taken.has(m) && m.to.includes(wanted));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          address: wanted,
          resolve: (m: ReceivedMail) => {
            clearTimeout(timer);
            resolve(m);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no mail to ${address} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    clear() {
      messages.length = 0;
      taken.clear();
      connections.opened = 0;
      connections.maxOpen = connections.open;
    },
    rejectNext(count) {
      rejecting = count;
    },
    get beforeAccept() {
      return hooks.beforeAccept;
    },
    set beforeAccept(fn) {
      hooks.beforeAccept = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A raw header value as sent (mailparser folds List-* headers into a structured `list` header). */
export const rawHeader = (mail: ReceivedMail, name: string) =>
  mail.parsed.headerLines
    .find((h) => h.key === name.toLowerCase())
    ?.line.replace(/^[^:]+:\s*/, '')
    .replace(/\r?\n\s+/g, ' ');
