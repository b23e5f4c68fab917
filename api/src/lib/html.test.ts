import { describe, expect, it } from '@jest/globals';
import crypto from 'node:crypto';
import { SAFE_COPY_MIN_CHARS, safeCopiesOf, safeSourceOf, SANITIZE_VERSION, sanitizeForOutput, sanitizeMaybeHtml } from './html.js';

/** Provider text of every kind the policy decides about: what it keeps, rewrites and drops. */
const CORPUS = [
  '<p>Plain <b>bold</b> <i>italic</i> <u>u</u> <s>s</s> <code>c</code> <sup>1</sup><sub>2</sub><small>s</small></p>',
  '<script>alert(1)</script><style>p{}</style><noscript>n</noscript><iframe src="https://x"></iframe><textarea>t</textarea>',
  '<a href="https://learn.microsoft.com/x" title="t" onclick="x()">link</a><a href="javascript:alert(1)">js</a><a href="mailto:a@b.c">m</a>',
  '<a href="//evil.example/x">protocol relative</a><a href="ftp://x">ftp</a><a target="_self" rel="opener" href="http://x">t</a>',
  '<img src="https://x/y.png" alt="a" width="10" height="5" onerror="x()"><img src="data:image/png;base64,AAAA"><img src="http://x/z.gif" style="x">',
  '<table><thead><tr><th colspan="2" style="c">h</th></tr></thead><tbody><tr><td rowspan="1" class="k">d</td></tr></tbody><tfoot></tfoot><caption>c</caption></table>',
  '<h1>1</h1><h2>2</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6><hr><blockquote>q</blockquote><pre>p</pre><ul><li>u</li></ul><ol><li>o</li></ol>',
  '<div style="color:red" data-x="1"><span class="c">span</span><font color="red">font</font><object>o</object><embed src="x"><option>o</option></div>',
  '<p>Entities &amp; &lt;b&gt; &nbsp; &#39; &quot; unclosed <b>bold<p>next',
  '<svg onload="x()"><circle/></svg><math><mi>x</mi></math><form action="x"><input value="v"></form><button>b</button>',
];
const DESCRIPTIONS = [
  'Plain text\nwith lines & ampersands < and > signs',
  'Text with <b>bold</b> and <script>x()</script>',
  '<p>Only html</p>',
  'a < b and c > d',
];

describe('sanitised copies', () => {
  it('keep a long body as it is sent out, and a description only when sanitising changes it', () => {
    const body = CORPUS.join('\n').repeat(2);
    expect(body.length).toBeGreaterThanOrEqual(SAFE_COPY_MIN_CHARS);
    expect(safeCopiesOf({ description: DESCRIPTIONS[0], bodyHtml: body })).toEqual({
      descriptionSafe: null,
      bodySafe: sanitizeForOutput(body),
      safeVersion: SANITIZE_VERSION,
      safeSource: safeSourceOf({ description: DESCRIPTIONS[0], bodyHtml: body }),
    });
    expect(safeCopiesOf({ description: DESCRIPTIONS[1], bodyHtml: null })).toEqual({
      descriptionSafe: 'Text with <b>bold</b> and ',
      bodySafe: null,
      safeVersion: SANITIZE_VERSION,
      safeSource: safeSourceOf({ description: DESCRIPTIONS[1] }),
    });
    expect(safeCopiesOf({ description: '', bodyHtml: '' })).toMatchObject({ descriptionSafe: null, bodySafe: null, safeVersion: SANITIZE_VERSION });
    // A short body has no copy: it is sanitised as it is sent.
    expect(safeCopiesOf({ bodyHtml: CORPUS[1] })).toMatchObject({ bodySafe: null, safeVersion: SANITIZE_VERSION });
    // The fingerprint of the text: md5 of the description, then of the body (an absent one as empty).
    expect(safeSourceOf({ description: null, bodyHtml: 'é<p>' })).toBe(
      'd41d8cd98f00b204e9800998ecf8427e' + crypto.createHash('md5').update('é<p>').digest('hex'),
    );
  });

  it('are made under the policy their version names: a change of what sanitising gives needs a new version', () => {
    // A fingerprint of what the policy makes of the corpus. When it changes (the options, the plain-text rule, or a
    // sanitize-html upgrade that sanitises differently), raise SANITIZE_VERSION and record the new fingerprint: the
    // copies stored under the old version are then made again at start instead of being sent.
    const made = [...CORPUS.map(sanitizeForOutput), ...DESCRIPTIONS.map(sanitizeMaybeHtml)];
    const fingerprint = crypto.createHash('sha256').update(JSON.stringify(made)).digest('base64url').slice(0, 16);
    expect({ version: SANITIZE_VERSION, fingerprint }).toEqual({ version: 1, fingerprint: '7t-RgkV03vJkMB7S' });
  });
});
