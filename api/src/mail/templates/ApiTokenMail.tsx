import { Button } from './components.js';
import { Layout, mailColors, Note, Paragraph, PRODUCT_NAME } from './Layout.js';

export interface ApiTokenMailProps {
  publicUrl: string;
  /** `created`: a token was just made; `expiring`: it stops working soon. */
  event: 'created' | 'expiring';
  tokenName: string;
  /** The token's first characters (`rdr_AbC1…`), to recognise it. */
  prefix: string;
  scopeLabel: string;
  /** Formatted, e.g. "Feb 24, 2027". */
  expiresOn: string;
}

export function apiTokenSubject(p: Pick<ApiTokenMailProps, 'event' | 'tokenName'>): string {
  return p.event === 'created'
    ? `A new API token “${p.tokenName}” was created for your ${PRODUCT_NAME} account`
    : `Your API token “${p.tokenName}” expires soon`;
}

/**
 * To a token's owner: when a token is created (so a token made by someone else with the session sends word), and a
 * week before it expires (so an integration is renewed before it stops).
 */
export function ApiTokenMail(p: ApiTokenMailProps) {
  const profileUrl = `${p.publicUrl}/profile#api-tokens-title`;
  const created = p.event === 'created';
  return (
    <Layout
      preview={created ? 'A new API token was created' : 'An API token expires soon'}
      heading={created ? 'New API token' : 'API token expires soon'}
      publicUrl={p.publicUrl}
    >
      <Paragraph>
        {created
          ? `An API token “${p.tokenName}” (${p.prefix}) was created for your account. It may: ${p.scopeLabel.toLowerCase()}. It expires on ${p.expiresOn}.`
          : `Your API token “${p.tokenName}” (${p.prefix}) expires on ${p.expiresOn}. Apps and agents using it stop working then: create a new one and replace it.`}
      </Paragraph>
      <Button href={profileUrl} style={{ backgroundColor: mailColors.accent, color: '#ffffff', borderRadius: '6px', padding: '10px 18px', fontSize: '15px' }}>
        Manage your API tokens
      </Button>
      {created ? <Note>If you did not create it, revoke it on your profile and choose “Sign out everywhere”.</Note> : null}
    </Layout>
  );
}

export function apiTokenText(p: ApiTokenMailProps): string {
  const created = p.event === 'created';
  return [
    created ? 'New API token' : 'API token expires soon',
    '',
    created
      ? `An API token “${p.tokenName}” (${p.prefix}) was created for your account. It may: ${p.scopeLabel.toLowerCase()}. It expires on ${p.expiresOn}.`
      : `Your API token “${p.tokenName}” (${p.prefix}) expires on ${p.expiresOn}. Apps and agents using it stop working then: create a new one and replace it.`,
    '',
    `Manage your API tokens: ${p.publicUrl}/profile#api-tokens-title`,
    ...(created ? ['', 'If you did not create it, revoke it on your profile and choose "Sign out everywhere".'] : []),
  ].join('\n');
}
