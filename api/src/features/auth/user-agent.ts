import Bowser from 'bowser';

/**
 * A session's browser and system in words ("Firefox 132", "Windows 11"), read from its User-Agent with bowser. An
 * absent or unreadable one says so rather than guessing.
 */
export function describeUserAgent(userAgent: string | null): { browser: string; os: string } {
  if (!userAgent) return { browser: 'Unknown browser', os: 'Unknown system' };
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ''}` : 'Unknown browser';
  const osVersion = parsed.os.versionName ?? parsed.os.version;
  const os = parsed.os.name ? `${parsed.os.name}${osVersion ? ` ${osVersion}` : ''}` : 'Unknown system';
  return { browser, os };
}
