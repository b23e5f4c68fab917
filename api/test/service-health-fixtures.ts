/**
 * Service Health issues as Microsoft Graph documents them (serviceHealthIssue with its serviceHealthIssuePost list,
 * GET /admin/serviceAnnouncement/issues): an Exchange Online incident that gets five updates, from "investigating" to a
 * published post-incident report, a Teams advisory still open, and a resolved SharePoint Online incident.
 */

const EXCHANGE_STEPS = [
  {
    at: '2026-11-02T08:05:00Z',
    status: 'investigating',
    postType: 'regular',
    html: '<p>Title: Users may be unable to access email via Outlook on the web</p><p>User impact: Users may be unable to access email via Outlook on the web.</p><p>Current status: We are reviewing service monitoring telemetry to isolate the root cause.</p>',
  },
  {
    at: '2026-11-02T09:10:00Z',
    status: 'serviceDegradation',
    postType: 'regular',
    html: '<p>Current status: We identified a recent change to the mailbox routing infrastructure that is causing impact.</p>',
  },
  {
    at: '2026-11-02T11:30:00Z',
    status: 'restoringService',
    postType: 'regular',
    html: '<p>Current status: We have reverted the change and are monitoring as service recovers across the affected infrastructure.</p>',
  },
  {
    at: '2026-11-02T14:45:00Z',
    status: 'serviceRestored',
    postType: 'regular',
    html: '<p>Final status: We have confirmed that the revert remediated impact.</p><p>Scope of impact: Any user hosted in North America attempting to access their mailbox via Outlook on the web.</p><p>Root cause: A routing change contained a configuration error.</p>',
  },
  {
    at: '2026-11-06T16:00:00Z',
    status: 'postIncidentReviewPublished',
    postType: 'regular',
    html: '<p>A post-incident report has been published.</p>',
  },
] as const;

/** The Exchange Online incident after `posts` of its five updates (1–5), as Graph lists it at that time. */
export function exchangeIncident(posts: number): Record<string, unknown> {
  const steps = EXCHANGE_STEPS.slice(0, posts);
  const last = steps[steps.length - 1]!;
  const resolved = posts >= 4;
  return {
    startDateTime: '2026-11-02T07:40:00Z',
    endDateTime: resolved ? '2026-11-02T14:30:00Z' : null,
    lastModifiedDateTime: last.at,
    title: 'Users may be unable to access email via Outlook on the web',
    id: 'EX1000001',
    impactDescription: 'Users may be unable to access email via Outlook on the web.',
    classification: 'incident',
    origin: 'microsoft',
    status: last.status,
    service: 'Exchange Online',
    feature: 'E-Mail and calendar access',
    featureGroup: 'E-Mail and calendar access',
    isResolved: resolved,
    highImpact: null,
    details: [{ name: 'NotifyInApp', value: 'True' }],
    posts: steps.map((s) => ({ createdDateTime: s.at, postType: s.postType, description: { contentType: 'html', content: s.html } })),
  };
}

export const teamsAdvisory = {
  startDateTime: '2026-11-03T12:00:00Z',
  endDateTime: null,
  lastModifiedDateTime: '2026-11-03T12:20:00Z',
  title: 'Some users may see delays when joining Teams meetings from the desktop client',
  id: 'TM1000002',
  impactDescription: 'Some users may see delays of up to a minute when joining meetings.',
  classification: 'advisory',
  origin: 'microsoft',
  status: 'serviceDegradation',
  service: 'Microsoft Teams',
  feature: 'Teams Components',
  featureGroup: 'Teams Components',
  isResolved: false,
  highImpact: null,
  details: [],
  posts: [
    {
      createdDateTime: '2026-11-03T12:20:00Z',
      postType: 'regular',
      description: { contentType: 'text', content: 'Current status: We are analysing telemetry.\nNext update by: Tuesday, November 3, 2026, 6:00 PM UTC' },
    },
  ],
};

export const sharePointIncident = {
  startDateTime: '2026-10-20T09:00:00Z',
  endDateTime: '2026-10-20T13:00:00Z',
  lastModifiedDateTime: '2026-10-20T13:15:00Z',
  title: 'Users were unable to upload files to some SharePoint Online sites',
  id: 'SP1000003',
  impactDescription: 'Users were unable to upload files to some sites.',
  classification: 'incident',
  origin: 'microsoft',
  status: 'serviceRestored',
  service: 'SharePoint Online',
  feature: 'SharePoint Features',
  featureGroup: 'SharePoint Features',
  isResolved: true,
  highImpact: null,
  details: [],
  posts: [
    { createdDateTime: '2026-10-20T09:30:00Z', postType: 'regular', description: { contentType: 'html', content: '<p>We are investigating.</p>' } },
    { createdDateTime: '2026-10-20T13:15:00Z', postType: 'regular', description: { contentType: 'html', content: '<p>We fixed a storage configuration.</p>' } },
  ],
};

/** A post-incident report as Graph streams it (a PDF document). */
export const exchangeReport = { body: Buffer.from('%PDF-1.4\n% Post-incident report EX1000001\n%%EOF\n'), contentType: 'application/pdf' };
