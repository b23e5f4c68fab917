/** The client of an OpenAI-compatible chat-completions service (AI_BASE_URL, AI_API_KEY, AI_MODEL, AI_TIMEOUT_MS). */
import { UpstreamError, UpstreamTimeoutError } from './errors.js';

/** The AI service could not be reached or answered with an error or with no completion. */
export class AiUpstreamError extends UpstreamError {
  override readonly name = 'AiUpstreamError';
}
export class AiTimeoutError extends UpstreamTimeoutError {
  override readonly name = 'AiTimeoutError';
  constructor(what = 'summary') {
    super(`AI ${what} timed out`);
  }
}

export interface AiSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

/** The service's own error message, else the start of its answer. */
function upstreamMessage(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof json.error === 'string') return json.error;
    if (typeof json.error?.message === 'string') return json.error.message;
    if (typeof json.message === 'string') return json.message;
  } catch {
    // not JSON: use the text
  }
  return body.trim().slice(0, 300);
}

/**
 * One chat completion from an OpenAI-compatible service (`${baseUrl}/chat/completions`): a timeout is AiTimeoutError,
 * every other failure (unreachable, an error status, an answer that is not a completion, an empty one) AiUpstreamError.
 */
export async function requestChat(
  settings: AiSettings,
  ask: { system: string; user: string; maxTokens: number; what: string },
): Promise<{ content: string; model: string }> {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (settings.apiKey) headers.Authorization = `Bearer ${settings.apiKey}`;
  const signal = AbortSignal.timeout(settings.timeoutMs);
  let status: number;
  let body: string;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      signal,
      body: JSON.stringify({
        model: settings.model,
        temperature: 0.2,
        max_tokens: ask.maxTokens,
        messages: [
          { role: 'system', content: ask.system },
          { role: 'user', content: ask.user },
        ],
      }),
    });
    status = res.status;
    body = await res.text();
  } catch (err) {
    if (signal.aborted || (err as Error)?.name === 'TimeoutError') throw new AiTimeoutError(ask.what);
    const cause = (err as { cause?: { message?: string } })?.cause?.message ?? (err as Error)?.message ?? String(err);
    throw new AiUpstreamError(`AI service unreachable: ${cause}`);
  }
  if (status < 200 || status >= 300) {
    throw new AiUpstreamError(`AI service error (${status}): ${upstreamMessage(body) || 'no details'}`);
  }
  let parsed: { model?: unknown; choices?: { message?: { content?: unknown } }[] };
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new AiUpstreamError('AI service answered with something that is not JSON');
  }
  const content = parsed.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) throw new AiUpstreamError(`AI service returned an empty ${ask.what}`);
  return { content, model: typeof parsed.model === 'string' && parsed.model ? parsed.model : settings.model };
}
