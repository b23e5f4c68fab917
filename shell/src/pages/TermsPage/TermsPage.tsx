import { useRuntimeConfig } from '@radar/shared-ui';
import { LegalDocument, type LegalSection } from '../../components/LegalDocument/index.js';

const sections = (supportEmail: string): LegalSection[] => [
  {
    heading: 'Agreement',
    paragraphs: [
      'These Terms & Conditions govern your use of M365 Radar. By creating an account or using the service you agree to them. If you use the service for an organisation, you accept them on its behalf and confirm that you may do so.',
    ],
  },
  {
    heading: 'Eligibility',
    paragraphs: ['You must be at least 18 years old to create an account or buy a subscription.'],
  },
  {
    heading: 'The service',
    paragraphs: [
      'M365 Radar collects information that Microsoft publishes on the AI at Work Roadmap (formerly the Microsoft 365 Roadmap) and in the Message Center and presents it with search, filters, change history, notifications and a weekly digest. We are not affiliated with Microsoft. Source information can change or be withdrawn at any time, and we do not guarantee that it is complete, accurate or current; check important decisions against Microsoft’s own announcements.',
    ],
  },
  {
    heading: 'Free trial',
    paragraphs: [
      'New paid subscriptions start with a 30-day free trial. You can cancel at any time during the trial and you will not be charged. If you do not cancel, the subscription you chose starts when the trial ends.',
    ],
  },
  {
    heading: 'Fees and payment',
    paragraphs: [
      'Prices are shown before you subscribe and are charged in US dollars. We accept payment by credit card or by ACH bank transfer. Subscriptions renew for the same period unless you cancel before the renewal date. Taxes are added where the law requires. Fees already paid are not refunded except where the law requires it.',
    ],
  },
  {
    heading: 'Your account',
    paragraphs: [
      'Sign-in uses one-time codes sent to your e-mail address; keep access to that mailbox secure. You are responsible for what happens under your account. Tell us at once if you believe it has been misused.',
    ],
  },
  {
    heading: 'Acceptable use',
    paragraphs: [
      'Do not disrupt or overload the service, try to get around access controls, scrape it in bulk, or use it to send unsolicited messages. Moderators who add links or notes must only add material that is lawful and relevant to the item.',
    ],
  },
  {
    heading: 'Intellectual property',
    paragraphs: [
      'The service, its design and its software belong to us. Microsoft content remains Microsoft’s. You may export data for your own and your organisation’s internal use.',
    ],
  },
  {
    heading: 'Termination',
    paragraphs: [
      'You can stop using the service and delete your account at any time. We may suspend or close accounts that break these terms, with notice where reasonable.',
    ],
  },
  {
    heading: 'Disclaimers and liability',
    paragraphs: [
      'The service is provided "as is". To the extent the law allows, we are not liable for indirect or consequential losses, and our total liability is limited to the fees you paid us in the 12 months before the claim.',
    ],
  },
  {
    heading: 'Changes and contact',
    paragraphs: [
      'We may update these terms; we will tell account holders about material changes at least 30 days in advance.',
      `Questions about these terms: ${supportEmail}.`,
    ],
  },
];

/** /terms (30-day free trial, minimum age 18, payment by credit card or ACH in US dollars). */
export function TermsPage() {
  const { supportEmail } = useRuntimeConfig();
  return <LegalDocument title="Terms & Conditions" updated="Last updated: March 1, 2026" sections={sections(supportEmail)} />;
}
