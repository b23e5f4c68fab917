/**
 * Switches the replayed feed to another snapshot (support/feeds.ts) and runs the admin sync, through the global
 * setup's feed control (the replay server lives in the setup's process).
 */
export async function syncSnapshot(source: 'roadmap' | 'messages', snapshot: string): Promise<{ sync: { status: string; changedItems: number } }> {
  const base = process.env.RADAR_FEED_CONTROL_URL;
  if (!base) throw new Error('RADAR_FEED_CONTROL_URL is not set: run the suites through playwright.config.ts');
  const response = await fetch(`${base}/${source}/${snapshot}`, { method: 'POST' });
  const text = await response.text();
  if (!response.ok) throw new Error(`feed control ${source}/${snapshot}: ${response.status} ${text}`);
  return JSON.parse(text) as { sync: { status: string; changedItems: number } };
}

/** The Agency tenant's Graph lists the post no more (`id`), or every post again (`'all'`); the suite syncs the tenant. */
export async function setAgencyPosts(which: string): Promise<void> {
  const base = process.env.RADAR_FEED_CONTROL_URL;
  if (!base) throw new Error('RADAR_FEED_CONTROL_URL is not set: run the suites through playwright.config.ts');
  const response = await fetch(`${base}/agency/posts/${which}`, { method: 'POST' });
  if (!response.ok) throw new Error(`feed control agency/posts/${which}: ${response.status} ${await response.text()}`);
}
