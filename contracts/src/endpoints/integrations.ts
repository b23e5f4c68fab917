import { defineEndpoints } from '../endpoint.js';
import { resultMessage } from '../common.js';
import {
  bulkTasksRequest,
  bulkTasksResponse,
  trackerTargetsResponse,
  createIntegrationRequest,
  createTaskRequest,
  integration,
  integrationIdParams,
  integrationPullResult,
  integrationsResponse,
  integrationTestResult,
  trackerAttemptsResponse,
  trackerTask,
  trackerTasksResponse,
  updateIntegrationRequest,
} from '../integrations.js';
import { triageItemParams, triageTenantQuery } from '../triage.js';

/**
 * Work trackers (Admin → Integrations): Jira Cloud and ServiceNow connections, and the tasks triage records are
 * pushed to. Admins manage connections; moderators and admins push records; every signed-in user sees the tasks of
 * the records they may see.
 */
export const integrationEndpoints = defineEndpoints('integrations', {
  list: {
    method: 'GET',
    path: '/api/admin/integrations',
    summary: 'Every tracker connection with its settings (never its secret), state and task counts',
    access: 'admin',
    response: integrationsResponse,
  },
  create: {
    method: 'POST',
    path: '/api/admin/integrations',
    summary: 'Connect a tracker (kind jira or servicenow); the URL passes the SSRF guard, the secret is sealed at rest',
    access: 'admin',
    body: createIntegrationRequest,
    bodyLimit: '16kb',
    response: integration,
    status: [201],
  },
  update: {
    method: 'PUT',
    path: '/api/admin/integrations/:id',
    summary: 'Rename, pause or resume, change settings or replace the secret',
    access: 'admin',
    params: integrationIdParams,
    body: updateIntegrationRequest,
    bodyLimit: '16kb',
    response: integration,
  },
  remove: {
    method: 'DELETE',
    path: '/api/admin/integrations/:id',
    summary: 'Disconnect a tracker: its links and queued calls go; the tasks stay in the tracker',
    access: 'admin',
    params: integrationIdParams,
    response: resultMessage,
  },
  test: {
    method: 'POST',
    path: '/api/admin/integrations/:id/test',
    summary: 'Check the credentials, the project or table, and the permissions; says what is missing',
    access: 'admin',
    params: integrationIdParams,
    response: integrationTestResult,
  },
  pull: {
    method: 'POST',
    path: '/api/admin/integrations/:id/pull',
    summary: 'Read the linked tasks now: closed ones make their records Done, reopened ones In progress',
    access: 'admin',
    params: integrationIdParams,
    response: integrationPullResult,
  },
  attempts: {
    method: 'GET',
    path: '/api/admin/integrations/:id/deliveries',
    summary: 'The delivery log: the last 100 calls to the tracker with status, latency and the start of the answer',
    access: 'admin',
    params: integrationIdParams,
    response: trackerAttemptsResponse,
  },
  targets: {
    method: 'GET',
    path: '/api/triage/trackers',
    summary: 'The trackers the caller may push records to now (integrations not paused)',
    access: 'moderator',
    response: trackerTargetsResponse,
  },
  bulkTasks: {
    method: 'POST',
    path: '/api/triage/bulk-tasks',
    summary: 'Push up to 500 records to one tracker: each gets its task made or updated; all of them are queued, or none',
    access: 'moderator',
    body: bulkTasksRequest,
    bodyLimit: '64kb',
    response: bulkTasksResponse,
  },
  tasks: {
    method: 'GET',
    path: '/api/triage/:itemType/:itemId/tasks',
    summary: "The item's tasks in the trackers (of every record the caller may see), with their state and link",
    access: 'signedIn',
    params: triageItemParams,
    response: trackerTasksResponse,
  },
  createTask: {
    method: 'POST',
    path: '/api/triage/:itemType/:itemId/tasks',
    summary: "Push the record to a tracker: creates its task, or updates the one it has (never a second); answers the task's key and URL",
    access: 'moderator',
    params: triageItemParams,
    query: triageTenantQuery,
    body: createTaskRequest,
    bodyLimit: '4kb',
    response: trackerTask,
    status: [200, 201, 202],
  },
});
