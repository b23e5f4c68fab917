import type { AlertWebhookPayload } from '@radar/contracts';
import type { AlertMessage } from './alert-message.js';

/** The generic webhook's JSON body (contracts `alertWebhookPayload`, documented in the OpenAPI `webhooks`). */
export function buildWebhookPayload(m: AlertMessage): AlertWebhookPayload {
  return {
    type: m.trigger === 'test' ? 'radar.test' : m.trigger === 'triage' ? 'radar.triage' : 'radar.alert',
    id: m.publicId,
    createdAt: m.createdAt.toISOString(),
    trigger: m.trigger,
    window: { from: m.window.from?.toISOString() ?? null, to: m.window.to.toISOString() },
    channel: m.channel,
    sections: m.sections,
  };
}
