import { configSchema } from './config.js';

/** What a setting's meta says of it (see configSchema). */
interface SettingMeta {
  description?: string;
  shownDefault?: string;
}

const HOUR_MS = 60 * 60 * 1000;

/** A default as an operator writes it: text as is, milliseconds also in minutes or hours where they are whole. */
function shownDefault(key: string, value: unknown): string {
  if (value === undefined) return '—';
  const text = Array.isArray(value) ? value.join(',') : String(value);
  if (text === '') return '—';
  if (key.endsWith('_MS') && typeof value === 'number' && value >= 60_000) {
    const human = value % HOUR_MS === 0 ? `${value / HOUR_MS} h` : value % 60_000 === 0 ? `${value / 60_000} min` : '';
    return human ? `\`${text}\` (${human})` : `\`${text}\``;
  }
  return `\`${text}\``;
}

/** A table cell: pipes escaped, one line. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/**
 * docs/configuration.md: every key of configSchema with its default (the schema's, or the meta's shownDefault where
 * the default is worked out at start) and its description, in the schema's order.
 */
export function renderConfigurationDoc(): string {
  const rows = Object.entries(configSchema.shape).map(([key, schema]) => {
    const meta = (schema.meta() ?? {}) as SettingMeta;
    const parsed = schema.safeParse(undefined);
    const fallback = meta.shownDefault ?? shownDefault(key, parsed.success ? parsed.data : undefined);
    return `| \`${key}\` | ${cell(fallback)} | ${cell(meta.description ?? '')} |`;
  });
  return [
    '# Configuration',
    '',
    '<!-- Generated from api/src/config.ts by `npm run docs:config --workspace @radar/api`; edit the schema, not this file. -->',
    '',
    'Every key is read from the environment and validated at start: a bad value stops the process with a message naming',
    'the key. Defaults suit `npm start` on a laptop; the production settings are in the README and docs/security.md.',
    '',
    '| key | default | meaning |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
