import { Button } from './components.js';
import { SIGN_IN_PARAM } from '@radar/contracts';
import { Layout, mailColors, Note, Paragraph, PRODUCT_NAME } from './Layout.js';

export interface NoAccountMailProps {
  publicUrl: string;
}

export const NO_ACCOUNT_SUBJECT = `Sign-in attempt at ${PRODUCT_NAME}`;

/** Where the owner of the address signs up: the product with its sign-in window open. */
const signUpUrlOf = (publicUrl: string) => `${publicUrl}/?${SIGN_IN_PARAM}=1`;

/**
 * Sent instead of a code when someone asks to sign in with an address that has no account, so the API answer stays
 * the same for known and unknown addresses while the real owner still learns what to do.
 */
export function NoAccountMail({ publicUrl }: NoAccountMailProps) {
  const signUpUrl = signUpUrlOf(publicUrl);
  return (
    <Layout preview="There is no account for this address yet" heading="No account for this address" publicUrl={publicUrl}>
      <Paragraph>{`Someone asked for a sign-in code for ${PRODUCT_NAME} with this e-mail address, but there is no account for it yet.`}</Paragraph>
      <Paragraph>To create one, open the sign-in window and choose Sign Up.</Paragraph>
      <Button href={signUpUrl} style={{ backgroundColor: mailColors.accent, color: '#ffffff', borderRadius: '6px', padding: '10px 18px', fontSize: '15px' }}>
        Sign up
      </Button>
      <Note>If you did not ask for this, you can ignore this e-mail.</Note>
    </Layout>
  );
}

export function noAccountText({ publicUrl }: NoAccountMailProps): string {
  return [
    'No account for this address',
    '',
    `Someone asked for a sign-in code for ${PRODUCT_NAME} with this e-mail address, but there is no account for it yet.`,
    `To create one, open ${signUpUrlOf(publicUrl)} and choose Sign Up.`,
    '',
    'If you did not ask for this, you can ignore this e-mail.',
  ].join('\n');
}
