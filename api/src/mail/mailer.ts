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
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

/** nodemailer over SMTP_URL, or null when SMTP_URL is not set (mail then stays in the outbox and is logged). */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>, log: Logger): Mailer | null {
  if (!config.SMTP_URL) return null;
  const transport = nodemailer.createTransport(config.SMTP_URL, {
    from: config.MAIL_FROM,
  });
  const target = safeSmtpTarget(config.SMTP_URL);
  log.info({ smtp: target }, 'mail goes out through SMTP');
  return {
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
