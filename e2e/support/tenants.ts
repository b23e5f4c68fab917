import type { Page } from '@playwright/test';
import { startTenantGraphServer, type TenantGraphServer } from '../../api/test/tenant-graph-server.js';
import { usageOf } from '../../api/test/tenant-usage-reports.js';

/**
 * A second tenant for the tenants suite, in the GCC High cloud: its Graph and sign-in hosts are a local server the
 * product reaches through GRAPH_CLOUD_URLS (the Worldwide hosts are the replay server of the main tenant). Its two
 * posts and its Service Health incident are its own, so a reader who may not see the tenant sees none of them.
 */
export const AGENCY = {
  name: 'Agency',
  directoryId: '55555555-5555-4555-8555-555555555555',
  clientId: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  secret: 'e2e-agency-secret',
  postIds: ['MC995001', 'MC995002'],
  title: 'Agency-only change',
  /** Its Service Health incident (three updates, resolved), seen by no other tenant. */
  issueId: 'EX995001',
  incidentTitle: 'Agency mailboxes could not receive external mail',
};

/** A resolved Exchange Online incident in Graph's serviceHealthIssue shape, with three updates. */
function incident(now: Date) {
  const hour = (offset: number) => new Date(now.getTime() + offset * 3_600_000).toISOString();
  const steps = [
    { at: hour(-30), status: 'investigating', text: 'We are investigating reports of delayed inbound mail.' },
    { at: hour(-28), status: 'restoringService', text: 'We rolled back a transport configuration change.' },
    { at: hour(-26), status: 'serviceRestored', text: 'Inbound mail flows normally again; queued mail was delivered.' },
  ];
  return {
    id: AGENCY.issueId,
    title: AGENCY.incidentTitle,
    impactDescription: 'Users could not receive mail from outside the organisation.',
    classification: 'incident',
    origin: 'microsoft',
    status: 'serviceRestored',
    service: 'Exchange Online',
    feature: 'E-Mail and calendar access',
    featureGroup: 'E-Mail and calendar access',
    isResolved: true,
    startDateTime: hour(-31),
    endDateTime: hour(-26),
    lastModifiedDateTime: hour(-26),
    details: [],
    posts: steps.map((s) => ({ createdDateTime: s.at, postType: 'regular', description: { contentType: 'html', content: `<p>${s.text}</p>` } })),
  };
}

function post(id: string, n: number, now: Date) {
  const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString();
  return {
    id,
    title: `${AGENCY.title} ${n}: Exchange Online retention for government mailboxes`,
    category: 'planForChange',
    severity: 'normal',
    tags: ['Admin impact'],
    isMajorChange: false,
    actionRequiredByDateTime: null,
    services: ['Exchange Online'],
    startDateTime: day(-2),
    endDateTime: day(60),
    lastModifiedDateTime: day(-1),
    details: [],
    body: { contentType: 'html', content: `<p>[What is changing]</p><p>Agency post ${n}.</p>` },
    hasAttachments: false,
    viewPoint: null,
  };
}

/** The Agency tenant's posts as its Graph lists them first (and again after `POST /agency/posts/all`). */
export function agencyPosts(now: Date) {
  return AGENCY.postIds.map((id, i) => post(id, i + 1, now));
}

export function startAgencyGraph(now: Date): Promise<TenantGraphServer> {
  return startTenantGraphServer([
    {
      directoryId: AGENCY.directoryId,
      clientId: AGENCY.clientId,
      secret: AGENCY.secret,
      messages: agencyPosts(now),
      issues: [incident(now)],
      // Exchange licensed and used by most (its posts are Exchange Online's: High relevance), Viva Engage by few.
      skus: [
        {
          skuPartNumber: 'ENTERPRISEPACK_GOV',
          capabilityStatus: 'Enabled',
          servicePlans: [{ servicePlanName: 'EXCHANGE_S_ENTERPRISE', provisioningStatus: 'Success' }],
        },
      ],
      usage: usageOf({ date: new Date(now.getTime() - 2 * 86_400_000).toISOString().slice(0, 10), services: { exchange: [1240, 272], yammer: [3, 1509] } }),
    },
  ]);
}

const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin' };

/** Removes the Agency tenant with its posts, if an earlier run left it, so a suite starts and ends as the others expect. */
export async function removeAgency(page: Page): Promise<void> {
  const list = (await (await page.request.get('/api/admin/tenants')).json()) as { id: number; name: string }[];
  const agency = list.find((t) => t.name === AGENCY.name);
  if (agency) await page.request.delete(`/api/admin/tenants/${agency.id}?deletePosts=true`, { headers: SAME_ORIGIN });
}

/** Connects the Agency tenant (private, GCC High) through the admin api and syncs it as Sync now does; its id. */
export async function connectAgency(page: Page): Promise<number> {
  const added = await page.request.post('/api/admin/tenants', {
    data: { name: AGENCY.name, tenantId: AGENCY.directoryId, clientId: AGENCY.clientId, clientSecret: AGENCY.secret, cloud: 'gcchigh', visibility: 'private' },
    headers: SAME_ORIGIN,
  });
  if (added.status() !== 201) throw new Error(`adding ${AGENCY.name} answered ${added.status()}: ${await added.text()}`);
  const tenant = ((await added.json()) as { id: number }).id;
  const synced = await page.request.post(`/api/admin/tenants/${tenant}/sync`, { headers: SAME_ORIGIN });
  if (!synced.ok()) throw new Error(`syncing ${AGENCY.name} answered ${synced.status()}: ${await synced.text()}`);
  return tenant;
}
