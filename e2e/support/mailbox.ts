import fs from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

export interface StoredMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

/**
 * The test mailbox: the SMTP server of the global setup writes every message it receives as a JSON file into
 * RADAR_MAIL_DIR, so any worker process can read it.
 */
export class Mailbox {
  constructor(private readonly dir: string = process.env.RADAR_MAIL_DIR ?? '') {
    if (!dir) throw new Error('RADAR_MAIL_DIR is not set: run the suites through playwright.config.ts');
  }

  messagesTo(address: string): StoredMail[] {
    const wanted = address.toLowerCase();
    return fs
      .readdirSync(this.dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => JSON.parse(fs.readFileSync(path.join(this.dir, f), 'utf8')) as StoredMail)
      .filter((m) => m.to.some((to) => to.toLowerCase().includes(wanted)));
  }

  /** Waits for the newest sign-in code sent to `address` (after `after` messages were already there). */
  async signInCode(address: string, after = 0): Promise<string> {
    let code = '';
    await expect
      .poll(
        () => {
          const mails = this.messagesTo(address).slice(after);
          const last = mails[mails.length - 1];
          code = /\b(\d{6})\b/.exec(`${last?.subject ?? ''}\n${last?.text ?? ''}`)?.[1] ?? '';
          return code;
        },
        { message: `a 6-digit code mailed to ${address}`, timeout: 30_000 },
      )
      .toMatch(/^\d{6}$/);
    return code;
  }

  /** Waits for a link matching `pattern` in the text of a mail to `address` (after `after` messages). */
  async link(address: string, pattern: RegExp, after = 0): Promise<string> {
    let found = '';
    await expect
      .poll(
        () => {
          const mails = this.messagesTo(address).slice(after);
          found =
            mails
              .map((m) => pattern.exec(m.text)?.[0] ?? '')
              .filter(Boolean)
              .pop() ?? '';
          return found;
        },
        { message: `a link matching ${pattern} mailed to ${address}`, timeout: 30_000 },
      )
      .not.toBe('');
    return found;
  }
}
