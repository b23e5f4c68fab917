import { renderToStaticMarkup } from 'react-dom/server';
import { PRODUCT_NAME } from '@radar/contracts';

export type UnsubscribePageState =
  | { kind: 'confirm'; what: string; formAction: string }
  | { kind: 'done'; what: string; settingsUrl: string }
  | { kind: 'invalid'; homeUrl: string };

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

function Page({ state }: { state: UnsubscribePageState }) {
  const title = state.kind === 'confirm' ? 'Unsubscribe?' : state.kind === 'done' ? 'You are unsubscribed' : 'This link is not valid';
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} – ${PRODUCT_NAME}`}</title>
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <main>
          <p className="brand">{PRODUCT_NAME}</p>
          <h1>{title}</h1>
          {state.kind === 'confirm' ? (
            <>
              <p>{`Stop e-mails about ${state.what}?`}</p>
              <form method="post" action={state.formAction}>
                <button type="submit">Unsubscribe</button>
              </form>
            </>
          ) : null}
          {state.kind === 'done' ? (
            <>
              <p>{`You will no longer receive e-mails about ${state.what}.`}</p>
              <p>
                <a href={state.settingsUrl}>Manage your notification settings</a>
              </p>
            </>
          ) : null}
          {state.kind === 'invalid' ? (
            <>
              <p>The unsubscribe link is incomplete or was changed. Open the link from the e-mail again, or manage your e-mails in your notification settings.</p>
              <p>
                <a href={state.homeUrl}>Go to {PRODUCT_NAME}</a>
              </p>
            </>
          ) : null}
        </main>
      </body>
    </html>
  );
}

export function renderUnsubscribePage(state: UnsubscribePageState): string {
  return `<!doctype html>${renderToStaticMarkup(<Page state={state} />)}`;
}
