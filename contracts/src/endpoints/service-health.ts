import { defineEndpoints, raw } from '../endpoint.js';
import { healthIssueParams, healthIssueResponse } from '../service-health.js';
import { itemHistoryResponse } from '../sync.js';

/** Service Health issues (incidents and advisories of the tenants), kept for good: one issue, its report, its history. */
export const serviceHealthEndpoints = defineEndpoints('serviceHealth', {
  issue: {
    method: 'GET',
    path: '/api/service-health/issues/:issueId',
    summary:
      'One Service Health issue (resolved ones too): its fields, every post in order, its status timeline, the post-incident report, its tenants and related items',
    access: 'public',
    tokenAccess: true,
    params: healthIssueParams,
    response: healthIssueResponse,
  },
  report: {
    method: 'GET',
    path: '/api/service-health/issues/:issueId/report',
    summary: "Downloads the issue's post-incident report as Microsoft published it (always as a download)",
    access: 'public',
    tokenAccess: true,
    params: healthIssueParams,
    response: raw('application/octet-stream'),
  },
  history: {
    method: 'GET',
    path: '/api/service-health/issues/:issueId/history',
    summary: "A Service Health issue's change history (status changes, new posts), newest first",
    access: 'public',
    tokenAccess: true,
    params: healthIssueParams,
    response: itemHistoryResponse,
  },
});
