import { PRODUCT_NAME } from '@radar/contracts';
import { renderActionPage } from '../../http/html-page.js';

export type UnsubscribePageState =
  { kind: 'confirm'; what: string; formAction: string } | { kind: 'done'; what: string; settingsUrl: string } | { kind: 'invalid'; homeUrl: string };

export function renderUnsubscribePage(state: UnsubscribePageState): string {
  switch (state.kind) {
    case 'confirm':
      return renderActionPage({
        title: 'Unsubscribe?',
        paragraphs: [`Stop e-mails about ${state.what}?`],
        form: { action: state.formAction, button: 'Unsubscribe' },
      });
    case 'done':
      return renderActionPage({
        title: 'You are unsubscribed',
        paragraphs: [`You will no longer receive e-mails about ${state.what}.`],
        link: { href: state.settingsUrl, label: 'Manage your notification settings' },
      });
    case 'invalid':
      return renderActionPage({
        title: 'This link is not valid',
        paragraphs: [
          'The unsubscribe link is incomplete or was changed. Open the link from the e-mail again, or manage your e-mails in your notification settings.',
        ],
        link: { href: state.homeUrl, label: `Go to ${PRODUCT_NAME}` },
      });
  }
}
