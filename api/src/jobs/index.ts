import type { Agenda } from 'agenda';
import type { AppContext } from '../app-context.js';
import { alertsJob } from './alerts.job.js';
import { authCleanupJob } from './auth-cleanup.job.js';
import { mailDeliveryJob } from './mail-delivery.job.js';
import { notifySubscribersJob } from './notify-subscribers.job.js';
import { syncJobs } from './sync.jobs.js';
import { tenantSyncJobs } from './tenant-sync.jobs.js';
import { trackersJob } from './trackers.job.js';
import { triageMailJob } from './triage-mail.job.js';
import { weeklyDigestJob } from './weekly-digest.job.js';

/**
 * A job: `define` registers the processor (called on every process that runs jobs); the optional `schedule` sets up
 * its repetition once Agenda has started. Jobs call the same services as the routes. A feature adds one line here.
 */
export interface JobDefinition {
  (agenda: Agenda, ctx: AppContext): void;
  schedule?: (agenda: Agenda, ctx: AppContext) => Promise<void>;
}

export const jobDefinitions: JobDefinition[] = [
  mailDeliveryJob,
  authCleanupJob,
  syncJobs,
  tenantSyncJobs,
  notifySubscribersJob,
  weeklyDigestJob,
  alertsJob,
  triageMailJob,
  trackersJob,
];
