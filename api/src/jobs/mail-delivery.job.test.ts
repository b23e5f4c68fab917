import { describe, expect, it } from '@jest/globals';
import { DELIVER_MAIL_EVERY_MS, deliverMailEveryMs } from './mail-delivery.job.js';

describe('deliver-mail interval', () => {
  it('runs every 10 s with the default first retry delay of a minute', () => {
    expect(deliverMailEveryMs(60_000)).toBe(DELIVER_MAIL_EVERY_MS);
    expect(DELIVER_MAIL_EVERY_MS).toBe(10_000);
  });

  it('runs as often as a shorter first retry delay, but at most once a second', () => {
    expect(deliverMailEveryMs(5_000)).toBe(5_000);
    expect(deliverMailEveryMs(500)).toBe(1_000);
  });
});
