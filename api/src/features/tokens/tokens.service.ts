import { createElement } from 'react';
import { API_TOKEN_EXPIRY_NOTICE_DAYS, API_TOKEN_SCOPE_LABELS, API_TOKENS_PER_USER, type ApiTokenScope, type CreatedApiToken } from '@radar/contracts';
import type { BaseDeps } from '../../deps.js';
import { ConflictError } from '../../lib/errors.js';
import type { MailService } from '../../mail/mail.service.js';
import { enqueueMail } from '../../mail/outbox.repo.js';
import { renderMail } from '../../mail/render.js';
import { ApiTokenMail, apiTokenSubject, apiTokenText, type ApiTokenMailProps } from '../../mail/templates/ApiTokenMail.js';
import { createTokensRepo } from './tokens.repo.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** An expired token is kept this long (listed as expired, so its owner sees why an app stopped), then deleted. */
const KEEP_EXPIRED_DAYS = 30;

const onDay = (d: Date) => d.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * Personal API tokens: creating one (its expiry and scope, and a mail to its owner in the same transaction, so a
 * token made with a stolen session does not go unnoticed), the notices a week before tokens expire, and the removal
 * of long-expired ones.
 */
export function createTokensService(deps: Pick<BaseDeps, 'db' | 'clock' | 'log' | 'publicUrl'> & { mail: MailService }) {
  async function mailOf(email: string, props: Omit<ApiTokenMailProps, 'publicUrl'>, kind: string, dedupeKey: string) {
    const full = { ...props, publicUrl: deps.publicUrl };
    const rendered = await renderMail(createElement(ApiTokenMail, full), apiTokenText(full));
    return { kind, to: email, subject: apiTokenSubject(full), ...rendered, dedupeKey };
  }

  return {
    async create(user: { id: number; email: string }, input: { name: string; expiresInDays: number; scope: ApiTokenScope }): Promise<CreatedApiToken> {
      const now = deps.clock.now();
      const expiresAt = new Date(now.getTime() + input.expiresInDays * DAY_MS);
      const created = await deps.db.transaction(async (tx) => {
        const repo = createTokensRepo(tx);
        if ((await repo.countOwn(user.id)) >= API_TOKENS_PER_USER) {
          throw new ConflictError(`You already have ${API_TOKENS_PER_USER} API tokens: revoke one you no longer use first`);
        }
        const token = await repo.create(user.id, { name: input.name, scope: input.scope, expiresAt }, now);
        const mail = await mailOf(
          user.email,
          { event: 'created', tokenName: token.name, prefix: token.prefix, scopeLabel: API_TOKEN_SCOPE_LABELS[token.scope], expiresOn: onDay(expiresAt) },
          'api-token-created',
          `api-token-created:${token.id}`,
        );
        await enqueueMail(tx, { ...mail, createdAt: now });
        return token;
      });
      // Word goes out at once, on the interactive lane.
      void deps.mail.deliverNow().catch((err: unknown) => deps.log.warn({ err }, 'token mail not sent yet; the delivery job retries'));
      const { prefix: _prefix, ...answer } = created;
      return answer;
    },

    /** Mails the owners of tokens that expire within a week (once per token) and deletes tokens expired a month ago. */
    async noticeAndPrune(): Promise<{ expiryNotices: number; expiredTokensDeleted: number }> {
      const now = deps.clock.now();
      let notices = 0;
      await deps.db.transaction(async (tx) => {
        const expiring = await createTokensRepo(tx).claimExpiring(now, new Date(now.getTime() + API_TOKEN_EXPIRY_NOTICE_DAYS * DAY_MS));
        for (const token of expiring) {
          const mail = await mailOf(
            token.email,
            { event: 'expiring', tokenName: token.name, prefix: token.prefix, scopeLabel: '', expiresOn: onDay(token.expiresAt) },
            'api-token-expiring',
            `api-token-expiring:${token.id}`,
          );
          if ((await enqueueMail(tx, { ...mail, createdAt: now })) !== null) notices++;
        }
      });
      const deleted = await createTokensRepo(deps.db).deleteExpired(new Date(now.getTime() - KEEP_EXPIRED_DAYS * DAY_MS));
      return { expiryNotices: notices, expiredTokensDeleted: deleted };
    },
  };
}
export type TokensService = ReturnType<typeof createTokensService>;
