import { useRuntimeConfig } from '@radar/shared-ui';
import { LegalDocument, type LegalSection } from '../../components/LegalDocument/index.js';

const sections = (supportEmail: string): LegalSection[] => [
  {
    heading: 'Who we are',
    paragraphs: [
      'M365 Radar ("we", "us") is a web service that collects the public AI at Work Roadmap (formerly the Microsoft 365 Roadmap) and Message Center announcements and presents them as one searchable list for IT administrators. This policy explains what personal data we process when you use the service, why, and what choices you have.',
    ],
  },
  {
    heading: 'What we collect',
    paragraphs: [
      'Account data: when you create an account we store your e-mail address, first name and last name, the roles assigned to you and the time of your last sign-in. We do not use passwords; we send a one-time 6-digit code to your e-mail address and store only a hash of it until it expires.',
      'Preferences: your weekly digest subscription and the roadmap items or Message Center posts you subscribe to. Your theme choice (light, dark or system) is kept in your own browser and never sent to us.',
      'Messages you send us: the name, e-mail address and text you enter in the contact form.',
      'Technical data: a session cookie that keeps you signed in, and server logs (IP address, time, requested address, browser type) kept for security and troubleshooting.',
      'Browsing the dashboard, searching, filtering and exporting do not require an account, and we do not build a profile of what you look at.',
    ],
  },
  {
    heading: 'How we use it',
    paragraphs: [
      'To sign you in, to send the e-mails you asked for (sign-in codes, item change notifications and the weekly digest on Sundays), to answer your messages, and to keep the service secure. Moderators and administrators see the e-mail address attached to moderation actions they take. We do not sell personal data and we do not show advertising.',
      'Our legal bases are the performance of our agreement with you (your account and the e-mails you requested), our legitimate interest in running a secure service (logs), and your consent where we ask for it.',
    ],
  },
  {
    heading: 'Cookies',
    paragraphs: [
      'We use one strictly necessary session cookie, set only after you sign in, and no tracking or advertising cookies. Local storage in your browser holds your theme choice.',
    ],
  },
  {
    heading: 'Sharing',
    paragraphs: [
      'We share data only with processors that run the service for us, such as our hosting provider and our e-mail delivery provider, under contracts that limit their use of it, or when the law requires us to.',
    ],
  },
  {
    heading: 'Retention',
    paragraphs: [
      'Account and subscription data are kept while your account exists. Sign-in codes expire within minutes. Server logs are kept for at most 90 days. Contact messages are deleted once they have been handled, and at the latest after one year.',
    ],
  },
  {
    heading: 'Your rights',
    paragraphs: [
      'You can unsubscribe from every e-mail on the Notification Settings page or with the link in each e-mail. You can ask us for a copy of your data, to correct it, or to delete your account and everything attached to it; depending on where you live you may also object to processing or complain to a data protection authority.',
    ],
  },
  {
    heading: 'Security',
    paragraphs: [
      'Traffic is encrypted in transit, sessions are stored on the server, and access to administrative functions is limited to named administrators.',
    ],
  },
  {
    heading: 'Children',
    paragraphs: ['The service is meant for IT professionals and is not directed at anyone under 18.'],
  },
  {
    heading: 'Changes and contact',
    paragraphs: [
      'If we change this policy we will update the date above and, for significant changes, tell account holders by e-mail.',
      `Questions or requests about your data: ${supportEmail}.`,
    ],
  },
];

/** /privacy. */
export function PrivacyPage() {
  const { supportEmail } = useRuntimeConfig();
  return <LegalDocument title="Privacy Policy" updated="Last updated: March 1, 2026" sections={sections(supportEmail)} />;
}
