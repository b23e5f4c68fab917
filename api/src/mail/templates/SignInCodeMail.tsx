import { Section, Text } from './components.js';
import { Layout, mailColors, Note, Paragraph, PRODUCT_NAME } from './Layout.js';

export interface SignInCodeMailProps {
  code: string;
  validMinutes: number;
  publicUrl?: string;
}

export function signInCodeSubject(code: string): string {
  return `${code} is your ${PRODUCT_NAME} sign-in code`;
}

/** The 6-digit sign-in code, large and easy to copy. */
export function SignInCodeMail({ code, validMinutes, publicUrl }: SignInCodeMailProps) {
  return (
    <Layout preview={`Your sign-in code is ${code}`} heading={`Sign in to ${PRODUCT_NAME}`} publicUrl={publicUrl}>
      <Paragraph>Enter this code in the sign-in window to continue:</Paragraph>
      <Section style={{ backgroundColor: mailColors.codeBackground, borderRadius: '6px', padding: '12px', textAlign: 'center' }}>
        <Text style={{ fontSize: '32px', fontWeight: 700, letterSpacing: '8px', color: mailColors.text, margin: 0, fontFamily: 'Consolas, Menlo, monospace' }}>
          {code}
        </Text>
      </Section>
      <Paragraph>{`The code is valid for ${validMinutes} minutes and can be used once.`}</Paragraph>
      <Note>If you did not ask for this code, you can ignore this e-mail: nobody can sign in without it.</Note>
    </Layout>
  );
}

/** Plain-text part, written by hand so the code stands on its own line. */
export function signInCodeText({ code, validMinutes, publicUrl }: SignInCodeMailProps): string {
  return [
    `Sign in to ${PRODUCT_NAME}`,
    '',
    'Enter this code in the sign-in window to continue:',
    '',
    `    ${code}`,
    '',
    `The code is valid for ${validMinutes} minutes and can be used once.`,
    '',
    'If you did not ask for this code, you can ignore this e-mail: nobody can sign in without it.',
    ...(publicUrl ? ['', `${PRODUCT_NAME} – ${publicUrl}`] : []),
  ].join('\n');
}
