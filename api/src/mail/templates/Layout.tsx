import { Body, Container, Head, Hr, Html, Link, Preview, Section, Text } from './components.js';
import type { ReactNode } from 'react';

/** Explicit colours everywhere: dark-mode clients invert only what is left to their defaults. */
export const mailColors = {
  page: '#f3f5f8',
  card: '#ffffff',
  text: '#1b1f24',
  muted: '#57606a',
  accent: '#0f6cbd',
  border: '#d0d7de',
  codeBackground: '#eef4fb',
} as const;

export const PRODUCT_NAME = 'M365 Radar';

export interface LayoutProps {
  /** Inbox preview line (hidden in the body). */
  preview: string;
  /** Heading at the top of the card. */
  heading: string;
  /** Base URL of the product; the header links to it when given. */
  publicUrl?: string;
  /**
   * Footer content for subscription mails (why the reader gets this mail and an unsubscribe link). Pair it with the
   * List-Unsubscribe / List-Unsubscribe-Post headers in enqueueMail's `headers`.
   */
  unsubscribe?: ReactNode;
  children: ReactNode;
}

/** The frame every M365 Radar mail uses: product header, a content card, and a footer. */
export function Layout({ preview, heading, publicUrl, unsubscribe, children }: LayoutProps) {
  return (
    <Html lang="en">
      <Head>
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
      </Head>
      <Preview>{preview}</Preview>
      <Body
        style={{ backgroundColor: mailColors.page, color: mailColors.text, fontFamily: 'Segoe UI, Helvetica, Arial, sans-serif', margin: 0, padding: '24px 0' }}
      >
        <Container style={{ maxWidth: '560px', margin: '0 auto' }}>
          <Text style={{ fontSize: '18px', fontWeight: 700, color: mailColors.accent, margin: '0 0 12px 8px' }}>
            {publicUrl ? (
              <Link href={publicUrl} style={{ color: mailColors.accent, textDecoration: 'none' }}>
                {PRODUCT_NAME}
              </Link>
            ) : (
              PRODUCT_NAME
            )}
          </Text>
          <Section
            style={{ backgroundColor: mailColors.card, color: mailColors.text, border: `1px solid ${mailColors.border}`, borderRadius: '8px', padding: '24px' }}
          >
            <Text style={{ fontSize: '20px', fontWeight: 600, color: mailColors.text, margin: '0 0 16px' }}>{heading}</Text>
            {children}
          </Section>
          <Hr style={{ borderColor: mailColors.border, margin: '24px 0 12px' }} />
          {unsubscribe ? <Section style={{ color: mailColors.muted, fontSize: '12px', padding: '0 8px' }}>{unsubscribe}</Section> : null}
          <Text style={{ color: mailColors.muted, fontSize: '12px', margin: '4px 8px' }}>
            {PRODUCT_NAME} tracks the AI at Work Roadmap (formerly the Microsoft 365 Roadmap) and Message Center for IT administrators.
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

/** A body paragraph with the layout's colours. */
export function Paragraph({ children }: { children: ReactNode }) {
  return <Text style={{ fontSize: '15px', lineHeight: '22px', color: mailColors.text, margin: '0 0 12px' }}>{children}</Text>;
}

/** A quieter paragraph (hints, small print). */
export function Note({ children }: { children: ReactNode }) {
  return <Text style={{ fontSize: '13px', lineHeight: '20px', color: mailColors.muted, margin: '12px 0 0' }}>{children}</Text>;
}
