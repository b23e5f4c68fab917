import { createElement } from 'react';
import { renderMail, type RenderedMail } from '../../mail/render.js';
import { NO_ACCOUNT_SUBJECT, NoAccountMail, noAccountText } from '../../mail/templates/NoAccountMail.js';
import { SignInCodeMail, signInCodeSubject, signInCodeText, type SignInCodeMailProps } from '../../mail/templates/SignInCodeMail.js';

export type MailContent = RenderedMail & { subject: string };

export async function signInMail(props: SignInCodeMailProps): Promise<MailContent> {
  const rendered = await renderMail(createElement(SignInCodeMail, props), signInCodeText(props));
  return { subject: signInCodeSubject(props.code), ...rendered };
}

const noAccountCache = new Map<string, Promise<MailContent>>();

/** The same for every address, so rendered once per public URL. */
export function noAccountMail(publicUrl: string): Promise<MailContent> {
  let cached = noAccountCache.get(publicUrl);
  if (!cached) {
    cached = renderMail(createElement(NoAccountMail, { publicUrl }), noAccountText({ publicUrl })).then((r) => ({ subject: NO_ACCOUNT_SUBJECT, ...r }));
    noAccountCache.set(publicUrl, cached);
  }
  return cached;
}
