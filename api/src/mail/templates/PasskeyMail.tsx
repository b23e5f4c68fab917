import { Button } from './components.js';
import { Layout, mailColors, Note, Paragraph, PRODUCT_NAME } from './Layout.js';

export interface PasskeyMailProps {
  publicUrl: string;
  /** `added`: a passkey now signs the account in; `removed`: one no longer does (and other sessions were ended). */
  event: 'added' | 'removed';
  passkeyName: string;
  /** Formatted, e.g. "Nov 26, 2026, 12:00 UTC". */
  at: string;
}

export function passkeySubject(p: Pick<PasskeyMailProps, 'event' | 'passkeyName'>): string {
  return p.event === 'added'
    ? `A passkey “${p.passkeyName}” was added to your ${PRODUCT_NAME} account`
    : `A passkey “${p.passkeyName}” was removed from your ${PRODUCT_NAME} account`;
}

const bodyOf = (p: PasskeyMailProps) =>
  p.event === 'added'
    ? `A passkey “${p.passkeyName}” was added to your account on ${p.at}. It can now sign you in.`
    : `A passkey “${p.passkeyName}” was removed from your account on ${p.at}. It no longer signs you in, and your other sessions were signed out.`;

const NOT_YOU = 'If this was not you, sign in, remove any passkey you do not recognise, choose “Sign out everywhere”, and tell an admin.';

/** To the account's owner whenever a passkey is added or removed, so a change made with a stolen session is noticed. */
export function PasskeyMail(p: PasskeyMailProps) {
  const added = p.event === 'added';
  return (
    <Layout preview={added ? 'A passkey was added' : 'A passkey was removed'} heading={added ? 'Passkey added' : 'Passkey removed'} publicUrl={p.publicUrl}>
      <Paragraph>{bodyOf(p)}</Paragraph>
      <Button
        href={`${p.publicUrl}/profile`}
        style={{ backgroundColor: mailColors.accent, color: '#ffffff', borderRadius: '6px', padding: '10px 18px', fontSize: '15px' }}
      >
        Review your passkeys
      </Button>
      <Note>{NOT_YOU}</Note>
    </Layout>
  );
}

export function passkeyText(p: PasskeyMailProps): string {
  return [
    p.event === 'added' ? 'Passkey added' : 'Passkey removed',
    '',
    bodyOf(p),
    '',
    `Review your passkeys: ${p.publicUrl}/profile`,
    '',
    NOT_YOU.replace(/[“”]/g, '"'),
  ].join('\n');
}
