import { defineEndpoints } from '../endpoint.js';
import { syncHistoryResponse, syncTriggerResponse } from '../admin.js';
import { applyHeldSyncResponse, discardHeldSyncResponse, heldSyncParams } from '../held-sync.js';
import { changeHistoryListResponse, changeHistoryQuery } from '../sync.js';

/** The syncs of every source, for admins: run one now, its history, a held snapshot's decision, the change records. */
export const syncEndpoints = defineEndpoints('sync', {
  syncRoadmap: {
    method: 'POST',
    path: '/api/roadmap/sync',
    summary: 'Run a roadmap sync now (502 when the feed failed, 409 when one is running)',
    access: 'admin',
    response: syncTriggerResponse,
  },
  syncMessageCenter: {
    method: 'POST',
    path: '/api/admin/sync-message-center',
    summary: 'Run a Message Center sync now (503 when Graph is not configured)',
    access: 'admin',
    response: syncTriggerResponse,
  },
  syncServiceHealth: {
    method: 'POST',
    path: '/api/admin/sync-service-health',
    summary: "Run every enabled tenant's Service Health sync now (503 when no tenant is enabled)",
    access: 'admin',
    response: syncTriggerResponse,
  },
  applyHeldSync: {
    method: 'POST',
    path: '/api/admin/sync-history/:id/apply',
    summary: 'Apply exactly the snapshot a held sync stored, as a new run (the snapshot guard\'s "Apply anyway")',
    access: 'admin',
    params: heldSyncParams,
    response: applyHeldSyncResponse,
  },
  discardHeldSync: {
    method: 'POST',
    path: '/api/admin/sync-history/:id/discard',
    summary: 'Drop the snapshot a held sync stored',
    access: 'admin',
    params: heldSyncParams,
    response: discardHeldSyncResponse,
  },
  syncHistory: {
    method: 'GET',
    path: '/api/admin/sync-history',
    summary: 'Sync runs, newest first',
    access: 'admin',
    response: syncHistoryResponse,
  },
  changeHistory: {
    method: 'GET',
    path: '/api/admin/change-history',
    summary: 'Field-level change records of both sources, newest first',
    access: 'admin',
    query: changeHistoryQuery,
    response: changeHistoryListResponse,
  },
});
