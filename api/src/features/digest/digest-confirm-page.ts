import { PRODUCT_NAME } from '@radar/contracts';
import { renderActionPage } from '../../http/html-page.js';
import type { ConfirmOutcome } from './digest-signup.js';

/** The pages of the confirmation link: GET asks (a button that POSTs), POST confirms; a bad link answers 400. */
export function renderConfirmPage(outcome: ConfirmOutcome, urls: { formAction: string; publicUrl: string }): { status: 200 | 400; html: string } {
  const digestLink = { href: `${urls.publicUrl}/weekly-digest`, label: `Go to the ${PRODUCT_NAME} weekly digest` };
  switch (outcome.kind) {
    case 'confirmable':
      return {
        status: 200,
        html: renderActionPage({
          title: 'Confirm your subscription',
          paragraphs: [`Receive the ${PRODUCT_NAME} weekly digest at ${outcome.email} every Sunday?`],
          form: { action: urls.formAction, button: 'Confirm subscription' },
        }),
      };
    case 'confirmed':
    case 'already':
      return {
        status: 200,
        html: renderActionPage({
          title: 'You are subscribed',
          paragraphs: [`The weekly digest goes to ${outcome.email} every Sunday. Every digest has an unsubscribe link.`],
          link: digestLink,
        }),
      };
    case 'expired':
      return {
        status: 400,
        html: renderActionPage({
          title: 'This link has expired',
          paragraphs: ['Confirmation links work for a limited time. Sign up again on the weekly digest page to get a new one.'],
          link: digestLink,
        }),
      };
    case 'invalid':
      return {
        status: 400,
        html: renderActionPage({
          title: 'This link is not valid',
          paragraphs: [
            'The confirmation link is incomplete, was replaced by a newer one, or was changed. Open the newest link from the e-mail, or sign up again.',
          ],
          link: digestLink,
        }),
      };
  }
}
