import { renderToStaticMarkup } from 'react-dom/server';
import { PRODUCT_NAME } from '@radar/contracts';

/**
 * The small server-rendered pages behind links that must not act on a GET (mail scanners and link previews fetch
 * links; another site can link anywhere): one-click unsubscribe, digest confirmation, sign-out. Each shows what will
 * happen and a button that POSTs to the same origin. Styles are inline and explicit for light and dark.
 */
export interface ActionPage {
  title: string;
  paragraphs: string[];
  /** A button that POSTs to `action` (same origin). */
  form?: { action: string; button: string };
  /**
   * Submit the form at once (a same-origin navigation asked for it). Needs the response's CSP nonce; the button stays
   * for browsers without script.
   */
  autoSubmitNonce?: string;
  link?: { href: string; label: string };
}

const STYLE = `
:root { color-scheme: light dark; }
body { margin: 0; font-family: 'Segoe UI', Helvetica, Arial, sans-serif; background: #f3f5f8; color: #1b1f24; }
main { max-width: 480px; margin: 64px auto; padding: 32px; background: #ffffff; border: 1px solid #d0d7de; border-radius: 8px; }
h1 { font-size: 22px; margin: 0 0 16px; }
p { line-height: 1.5; }
button { font: inherit; font-size: 16px; padding: 10px 20px; border: 0; border-radius: 6px; background: #0f6cbd; color: #ffffff; cursor: pointer; }
button:focus-visible { outline: 3px solid #1b1f24; outline-offset: 2px; }
a { color: #0f6cbd; }
.brand { font-weight: 700; color: #0f6cbd; margin: 0 0 24px; }
@media (prefers-color-scheme: dark) {
  body { background: #16181c; color: #e6e8eb; }
  main { background: #22262c; border-color: #3b4048; }
  a, .brand { color: #6cb8f6; }
  button:focus-visible { outline-color: #e6e8eb; }
}`;

const FORM_ID = 'action-form';

function Page({ page }: { page: ActionPage }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${page.title} – ${PRODUCT_NAME}`}</title>
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <main>
          <p className="brand">{PRODUCT_NAME}</p>
          <h1>{page.title}</h1>
          {page.paragraphs.map((text) => (
            <p key={text}>{text}</p>
          ))}
          {page.form ? (
            <form method="post" action={page.form.action} id={FORM_ID}>
              <button type="submit">{page.form.button}</button>
            </form>
          ) : null}
          {page.link ? (
            <p>
              <a href={page.link.href}>{page.link.label}</a>
            </p>
          ) : null}
          {page.form && page.autoSubmitNonce ? (
            <script nonce={page.autoSubmitNonce} dangerouslySetInnerHTML={{ __html: `document.getElementById('${FORM_ID}').submit();` }} />
          ) : null}
        </main>
      </body>
    </html>
  );
}

export function renderActionPage(page: ActionPage): string {
  return `<!doctype html>${renderToStaticMarkup(<Page page={page} />)}`;
}
