import nodemailer from 'nodemailer';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
  /** Message-ID header; the outbox gives each mail a stable one (delivery.ts), so a repeated send is recognisable. */
  messageId?: string;
}

/** Sends one message; throws when the SMTP server refuses it or cannot be reached. */
export interface Mailer {
  /** How many mails may be in flight at once (the pool's connections); delivery sends that many in parallel. */
  readonly connections: number;
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

/**
 * nodemailer over SMTP_URL, or null when SMTP_URL is not set (mail then stays in the outbox and is logged).
 * Connections are pooled: up to SMTP_POOL_SIZE stay open and each carries many mails, since opening one (TCP, EHLO,
 * STARTTLS, AUTH) per mail is what limits a digest run; a connection is replaced after 100 mails, as servers limit
 * the mails of one session.
 */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'> & Partial<Pick<Config, 'SMTP_POOL_SIZE'>>, log: Logger): Mailer | null {
  if (!config.SMTP_URL) return null;
  const connections = config.SMTP_POOL_SIZE ?? 5;
  // The URL's own settings win over these (a `?pool=false` in SMTP_URL turns pooling off).
  const transport = nodemailer.createTransport(
    { url: config.SMTP_URL, pool: true, maxConnections: connections, maxMessages: 100 } as Parameters<typeof nodemailer.createTransport>[0],
    { from: config.MAIL_FROM },
  );
  const target = safeSmtpTarget(config.SMTP_URL);
  log.info({ smtp: target, connections }, 'mail goes out through SMTP');
  return {
    connections,
    async send(message) {
      const info = await transport.sendMail({
        from: config.MAIL_FROM,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        headers: message.headers,
        ...(message.messageId ? { messageId: message.messageId } : {}),
      });
      return { messageId: info.messageId };
    },
    close() {
      transport.close();
    },
  };
}

/** host:port without credentials, for logs. */
function safeSmtpTarget(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(unparsable SMTP_URL)';
  }
}

/** The domain of MAIL_FROM's address, for Message-IDs. */
export function mailDomain(from: string): string {
  return /@([^>\s]+)>?\s*$/.exec(from)?.[1]?.toLowerCase() ?? 'm365radar.local';
}
