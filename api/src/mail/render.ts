import { render, toPlainText } from '@react-email/render';
import type { ReactElement } from 'react';

export interface RenderedMail {
  html: string;
  text: string;
}

/**
 * Renders a template to its HTML part and a plain-text part. Pass `text` to use a hand-written plain-text part
 * (better for codes and lists); otherwise the text is derived from the HTML.
 */
export async function renderMail(element: ReactElement, text?: string): Promise<RenderedMail> {
  const html = await render(element);
  return { html, text: text ?? toPlainText(html) };
}
