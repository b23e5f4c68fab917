import { sql } from 'drizzle-orm';
import type { Pool } from 'pg';
import type { Database } from '../src/db/client.js';
import { rederiveItems, remakeSafeCopies } from '../src/features/sync/derived-fields.repo.js';
import { createTriageRepo } from '../src/features/triage/triage.repo.js';
import { TRIAGE_DEFAULTS_VERSION } from '../src/features/triage/triage-startup.js';

/**
 * The large realistic data set of the items bench (100,000 items: 70% roadmap, the rest Message Center, with
 * realistic products, statuses, tags, cloud instances and text), written in SQL batches of 10,000 (about 30 s).
 * Used by the items bench and by the fault suite (stalled exports of 100,000 rows).
 */
export const ITEMS = 100_000;
/** Removed roadmap items and expired posts on top of the ITEMS active ones (the archive; never in default lists). */
export const REMOVED = 4_000;
export const ROADMAP_SHARE = 0.7;

export const WORDS = `admin admins policy policies tenant users user teams meeting meetings chat channel channels calendar mail mailbox
inbox outlook copilot agent agents prompt prompts summary summaries sharepoint site sites onedrive file files folder folders
word excel powerpoint onenote planner tasks viva engage insights learning purview compliance retention label labels sensitivity
data loss prevention audit ediscovery defender security threat phishing protection intune device devices windows mac ios android
web desktop mobile browser edge update updates rollout rolling release preview general availability targeted feature features
new improved experience experiences support supported retire retirement deprecation change changes action required configure
settings setting option options control controls access permissions sharing external guest guests collaboration document
documents template templates search results analytics report reports dashboard usage license licenses billing subscription
service services apps app integration integrations api graph connector connectors automation workflow workflows approvals forms
bookings stream video videos recording recordings transcript transcription translation language languages accessibility
webinar webinars town hall events event rooms room phone calling voice audio notifications notification activity feed status
presence loop components whiteboard clipchamp project roadmap microsoft office cloud gcc high dod government worldwide customers
organization organizations global administrators helpdesk identity entra authentication sign password passwordless certificate
encryption keys storage limit limits quota performance reliability issue issues fix fixes incident health message center plan
timeline schedule date dates month week begin complete completed expected available availability region regions tenant-level`
  .split(/\s+/)
  .filter(Boolean);

const PRODUCTS = [
  'Microsoft Copilot (Microsoft 365)',
  'Microsoft Purview',
  'Microsoft Teams',
  'Outlook',
  'Microsoft Viva',
  'SharePoint',
  'PowerPoint',
  'Word',
  'Microsoft 365 app',
  'Microsoft Edge',
  'Microsoft 365',
  'Excel',
  'OneDrive',
  'Microsoft Intune',
  'Microsoft 365 admin center',
  'OneNote',
  'Microsoft Defender for Office 365',
  'Planner',
  'Forms',
  'Microsoft Entra',
  'Exchange',
  'Windows 365',
];
const SERVICES = [
  'Windows',
  'Microsoft Copilot (Microsoft 365)',
  'Microsoft Teams',
  'Microsoft 365 apps',
  'SharePoint Online',
  'Exchange Online',
  'Microsoft Viva',
  'Microsoft 365 suite',
  'Microsoft Defender XDR',
  'Microsoft Purview',
  'Microsoft 365 Copilot Chat',
  'Microsoft 365 for the web',
  'Power Platform',
  'Microsoft Entra',
  'Microsoft Intune',
];
const CLOUDS = [
  ['Worldwide (Standard Multi-Tenant)'],
  ['Worldwide (Standard Multi-Tenant)'],
  ['Worldwide (Standard Multi-Tenant)'],
  ['Worldwide (Standard Multi-Tenant)', 'GCC', 'GCC High', 'DoD'],
  ['GCC', 'GCC High', 'DoD'],
  ['Worldwide (Standard Multi-Tenant)', 'GCC'],
];
const MC_TAGS = [
  ['Admin impact'],
  ['User impact', 'Admin impact'],
  ['New feature', 'User impact'],
  ['Updated message', 'Admin impact'],
  ['Feature update'],
  ['Retirement', 'Admin impact'],
  ['New feature', 'User impact', 'Admin impact'],
];

/** Postgres text literal of a 2-D array can't be ragged, so variable-length choices are passed as JSON. */
const json = (v: unknown) => JSON.stringify(v);

export async function seedItems(pool: Pool, now: Date, count = ITEMS, progress: (line: string) => void = (l) => process.stdout.write(l)): Promise<void> {
  const roadmap = Math.round(count * ROADMAP_SHARE);
  const messages = count - roadmap;
  await pool.query('SELECT setseed(0.42)');
  // Words per row come from a correlated subquery (it references g), so each row gets its own text.
  const words = (n: string) =>
    `(SELECT string_agg(($1::text[])[1 + floor(random() * array_length($1::text[], 1))::int], ' ') FROM generate_series(1, ${n} + (g % 3)) AS w)`;
  const batch = 10_000;
  for (let from = 1; from <= roadmap; from += batch) {
    const to = Math.min(roadmap, from + batch - 1);
    await pool.query(
      `WITH r AS (
         SELECT g,
           ($2::jsonb -> (g % jsonb_array_length($2::jsonb)))::text AS p1,
           (ARRAY['Launched','Launched','Launched','Launched','In development','In development','In development','Rolling out','Rolling out','Cancelled'])[1 + (g * 7 % 10)] AS status,
           ARRAY(SELECT jsonb_array_elements_text($3::jsonb -> (g % jsonb_array_length($3::jsonb)))) AS clouds,
           $4::timestamptz - (random() * 1800) * interval '1 day' AS created
         FROM generate_series(${from}, ${to}) AS g)
       INSERT INTO items (source, external_id, title, description, status, products, tags, cloud_instances, release_phases, platforms,
                          release_date, created_date, modified_date, first_seen_at, last_seen_at, last_changed_at, content_hash,
                          ga_moves, ga_shift_months, preview_moves, release_moved_at)
       SELECT 'roadmap', (100000 + g)::text,
              trim(both '"' from p1) || ': ' || ${words('5')},
              ${words('30')},
              status,
              CASE WHEN g % 4 = 0 THEN ARRAY[trim(both '"' from p1), ($2::jsonb ->> ((g / 4) % jsonb_array_length($2::jsonb)))] ELSE ARRAY[trim(both '"' from p1)] END,
              clouds || ARRAY['Web'] || ARRAY[trim(both '"' from p1)] || ARRAY['General Availability'],
              clouds,
              ARRAY['General Availability'],
              ARRAY['Web', 'Desktop'],
              (ARRAY['January','February','March','April','May','June','July','August','September','October','November','December'])[1 + g % 12] || ' CY' || (2024 + g % 3),
              created,
              CASE WHEN g % 5 = 0 THEN created ELSE created + random() * ($4::timestamptz - created) END,
              $4::timestamptz - interval '60 days', $4::timestamptz,
              CASE WHEN g % 20 = 0 THEN $4::timestamptz - random() * interval '30 days' ELSE $4::timestamptz - interval '60 days' END,
              'bench-r' || g,
              -- Date slips without random() (so the rows above stay as they were): a tenth of the roadmap moved 1-3
              -- times, the last move spread over 90 days.
              CASE WHEN g % 10 = 0 THEN 1 + (g / 10) % 3 ELSE 0 END,
              CASE WHEN g % 10 = 0 THEN 1 + (g / 10) % 5 ELSE 0 END,
              CASE WHEN g % 30 = 0 THEN 1 ELSE 0 END,
              CASE WHEN g % 10 = 0 THEN $4::timestamptz - ((g / 10) % 90) * interval '1 day' END
       FROM r`,
      [WORDS, json(PRODUCTS), json(CLOUDS), now],
    );
    progress(`  roadmap ${to}/${roadmap}\r`);
  }
  for (let from = 1; from <= messages; from += batch) {
    const to = Math.min(messages, from + batch - 1);
    await pool.query(
      `WITH m AS (
         SELECT g, $4::timestamptz - (random() * 700) * interval '1 day' AS created,
                ARRAY(SELECT jsonb_array_elements_text($3::jsonb -> (g % jsonb_array_length($3::jsonb)))) AS tags
         FROM generate_series(${from}, ${to}) AS g)
       INSERT INTO items (source, external_id, title, summary, body_html, products, tags, platforms, category, severity,
                          is_major_change, user_impact, admin_impact, created_date, modified_date, first_seen_at, last_seen_at,
                          last_changed_at, content_hash)
       SELECT 'messages', 'MC' || (1000000 + g),
              CASE WHEN g % 3 = 0 THEN '(Updated) ' ELSE '' END || ($2::jsonb ->> (g % jsonb_array_length($2::jsonb))) || ': ' || ${words('6')},
              ${words('40')},
              '<p>' || ${words('60')} || '</p><p>[When this will happen:]</p><ul><li>' || ${words('25')} ||
                '</li></ul><p>[How this will affect your organization:]</p><p>' || ${words('60')} ||
                ' <a href="https://learn.microsoft.com/microsoft-365/" target="_blank">Learn more</a></p>',
              ARRAY[($2::jsonb ->> (g % jsonb_array_length($2::jsonb)))],
              tags,
              ARRAY['Web', 'Desktop'],
              (ARRAY['stayInformed','stayInformed','planForChange','preventOrFixIssue'])[1 + g % 4],
              'normal', g % 5 = 0, 'User impact' = ANY(tags), 'Admin impact' = ANY(tags),
              created,
              CASE WHEN g % 3 = 0 THEN created + random() * ($4::timestamptz - created) ELSE created END,
              $4::timestamptz - interval '60 days', $4::timestamptz,
              CASE WHEN g % 10 = 0 THEN $4::timestamptz - random() * interval '30 days' ELSE $4::timestamptz - interval '60 days' END,
              'bench-m' || g
       FROM m`,
      [WORDS, json(SERVICES), json(MC_TAGS), now],
    );
    progress(`  messages ${to}/${messages}\r`);
  }
  // Some curation, as in production.
  await pool.query(`UPDATE items SET is_featured = true, featured_at = $1::timestamptz - (id % 30) * interval '1 day' WHERE id % 997 = 0`, [now]);
  // The archive: removed roadmap items and expired posts (copies of every 25th item under new ids), left in the
  // table as a sync leaves them.
  await pool.query(
    `INSERT INTO items (source, external_id, title, description, summary, body_html, status, products, tags, cloud_instances, release_phases,
                        platforms, release_date, category, severity, created_date, modified_date, end_date, first_seen_at, last_seen_at,
                        last_changed_at, content_hash, is_removed, removed_at)
     SELECT source, 'X' || external_id, title, description, summary, body_html, status, products, tags, cloud_instances, release_phases,
            platforms, release_date, category, severity, created_date, modified_date, created_date + interval '90 days', first_seen_at,
            last_seen_at, last_changed_at, 'bench-x' || id, true, $1::timestamptz - (id % 180) * interval '1 day'
     FROM items WHERE id % 25 = 0 ORDER BY id LIMIT $2`,
    [now, REMOVED],
  );
}

/**
 * Brings seeded items to the state of an installation that has run before: derived fields and sanitised copies current
 * and a triage record per item with its defaults current, done as its start-up tasks do it, so the api's own start-up tasks have nothing
 * to rewrite while a scenario is measured (rewriting 100,000 items moved the data version under every request).
 */
export async function settleAsInstalled(db: Database['db'], now: Date): Promise<void> {
  await deriveAsInstalled(db);
  // A sync writes each row once, whole; the seed writes them and then rewrites them in place twice (derived fields,
  // sanitised copies), which leaves a table twice the size with every other row version dead. Compacted, it is the
  // table a sync leaves, the one the scenarios are about.
  await db.execute(sql`VACUUM FULL items`);
  await openTriageAsInstalled(db, now);
}

/** The first half of settleAsInstalled: derived fields and sanitised copies, as the start-up tasks write them. */
export async function deriveAsInstalled(db: Database['db']): Promise<void> {
  await rederiveItems(db);
  await remakeSafeCopies(db);
}

/** The second half of settleAsInstalled: a triage record per item, with the defaults of this version. */
export async function openTriageAsInstalled(db: Database['db'], now: Date): Promise<void> {
  const triage = createTriageRepo(db);
  await triage.openRecords('all', new Date('2026-01-01T00:00:00Z'), 'request');
  if ((await triage.defaultsVersion()) !== TRIAGE_DEFAULTS_VERSION) {
    await triage.refreshDefaults('all');
    await triage.setDefaultsVersion(TRIAGE_DEFAULTS_VERSION, now);
  }
}
