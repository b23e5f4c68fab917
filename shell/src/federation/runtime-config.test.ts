import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { runtimeConfig } from '@radar/contracts';
import { fallbackRuntimeConfig } from '@radar/shared-ui/runtime-config';
import { isRuntimeConfig, loadRuntimeConfig } from './runtime-config';

const valid = { ...fallbackRuntimeConfig, supportEmail: 'help@example.com' };

/** Every way to break the config the schema knows of: each key (and each remote) missing or of the wrong type. */
function brokenVariants(): { name: string; value: unknown }[] {
  const variants: { name: string; value: unknown }[] = [
    { name: 'undefined', value: undefined },
    { name: 'null', value: null },
    { name: 'a string', value: 'config' },
    { name: 'remotes null', value: { ...valid, remotes: null } },
  ];
  for (const key of Object.keys(runtimeConfig.shape)) {
    const { [key as keyof typeof valid]: _omitted, ...rest } = valid;
    variants.push({ name: `without ${key}`, value: rest }, { name: `${key} a number`, value: { ...valid, [key]: 42 } });
  }
  for (const key of Object.keys(runtimeConfig.shape.remotes.shape)) {
    const { [key as keyof typeof valid.remotes]: _omitted, ...remotes } = valid.remotes;
    variants.push({ name: `without remotes.${key}`, value: { ...valid, remotes } });
  }
  return variants;
}

describe('isRuntimeConfig', () => {
  it('accepts what the contract accepts', () => {
    expect(runtimeConfig.safeParse(valid).success).toBe(true);
    expect(isRuntimeConfig(valid)).toBe(true);
    expect(isRuntimeConfig({ ...valid, extra: 'ignored' })).toBe(true);
  });

  it.each(brokenVariants())('rejects a config $name, as the contract does', ({ value }) => {
    expect(runtimeConfig.safeParse(value).success).toBe(false);
    expect(isRuntimeConfig(value)).toBe(false);
  });
});

/** jsdom has no Response: the two members loadRuntimeConfig reads. */
const answer = (body: unknown, status = 200) => ({ ok: status < 400, status, json: async () => body }) as unknown as Response;

describe('loadRuntimeConfig', () => {
  const win = window as unknown as Record<string, unknown>;
  afterEach(() => {
    delete win.__RADAR_CONFIG__;
  });

  it('uses the config the api injected, without a request', async () => {
    win.__RADAR_CONFIG__ = valid;
    const fetchImpl = jest.fn<typeof fetch>();
    await expect(loadRuntimeConfig(fetchImpl)).resolves.toEqual(valid);
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('fetches /config.json when the injected config is unusable, and falls back to the conventional paths after that', async () => {
    win.__RADAR_CONFIG__ = { remotes: {} };
    const served = { ...valid, supportEmail: 'served@example.com' };
    const ok = jest.fn<typeof fetch>(async () => answer(served));
    await expect(loadRuntimeConfig(ok)).resolves.toEqual(served);
    expect(ok).toHaveBeenCalledWith('/config.json', expect.anything());

    delete win.__RADAR_CONFIG__;
    const broken = jest.fn<typeof fetch>(async () => answer({ remotes: 'nope' }));
    const config = await loadRuntimeConfig(broken);
    expect(config.remotes.dashboard).toBe('/remotes/dashboard/mf-manifest.json');
    expect(win.__RADAR_CONFIG__).toBe(config);
  });
});
