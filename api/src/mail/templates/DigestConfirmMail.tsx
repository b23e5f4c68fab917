import { Button } from './components.js';
import { Layout, mailColors, Note, Paragraph, PRODUCT_NAME } from './Layout.js';

export interface DigestConfirmMailProps {
  confirmUrl: string;
  validHours: number;
  publicUrl: string;
}

export const DIGEST_CONFIRM_SUBJECT = `Confirm your ${PRODUCT_NAME} weekly digest`;

/**
 * Double opt-in for the visitor digest signup. It names nobody: the name on the form was typed by whoever filled it
 * in, and the address is not confirmed yet.
 */
export function DigestConfirmMail({ confirmUrl, validHours, publicUrl }: DigestConfirmMailProps) {
  return (
    <Layout preview="Confirm your address to receive the weekly digest" heading="Confirm your weekly digest" publicUrl={publicUrl}>
      <Paragraph>{`Someone asked to receive the ${PRODUCT_NAME} weekly digest at this e-mail address. Confirm it to get new and updated Microsoft 365 items every Sunday:`}</Paragraph>
      <Button href={confirmUrl} style={{ backgroundColor: mailColors.accent, color: '#ffffff', borderRadius: '6px', padding: '10px 18px', fontSize: '15px' }}>
        Confirm subscription
      </Button>
      <Paragraph>{`The link works for ${validHours} hours.`}</Paragraph>
      <Note>If you did not ask for this, ignore this e-mail: without confirmation you will not receive anything.</Note>
    </Layout>
  );
}

export function digestConfirmText({ confirmUrl, validHours }: DigestConfirmMailProps): string {
  return [
    'Confirm your weekly digest',
    '',
    `Someone asked to receive the ${PRODUCT_NAME} weekly digest at this e-mail address. Confirm it to get new and updated Microsoft 365 items every Sunday:`,
    '',
    confirmUrl,
    '',
    `The link works for ${validHours} hours.`,
    '',
    'If you did not ask for this, ignore this e-mail: without confirmation you will not receive anything.',
  ].join('\n');
}
