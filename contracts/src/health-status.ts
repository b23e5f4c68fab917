// Words for Service Health statuses; no imports, so every module (history labels included) may use it.

/**
 * Graph's `status` values (serviceHealthStatus) with the words the Microsoft 365 admin center shows. A value Microsoft
 * adds later is shown as it is spelled, split into words.
 */
export const HEALTH_STATUS_LABELS: Record<string, string> = {
  serviceOperational: 'Service operational',
  investigating: 'Investigating',
  restoringService: 'Restoring service',
  verifyingService: 'Verifying service',
  serviceRestored: 'Service restored',
  postIncidentReviewPublished: 'Post-incident report published',
  serviceDegradation: 'Service degradation',
  serviceInterruption: 'Service interruption',
  extendedRecovery: 'Extended recovery',
  falsePositive: 'False positive',
  investigationSuspended: 'Investigation suspended',
  resolved: 'Resolved',
  mitigatedExternal: 'Mitigated (external)',
  mitigated: 'Mitigated',
  resolvedExternal: 'Resolved (external)',
  confirmed: 'Confirmed',
  reported: 'Reported',
};

/** Words for a Graph health status ("serviceRestored" → "Service restored"). */
export function healthStatusLabel(status: string | null | undefined): string {
  if (!status) return '';
  const known = HEALTH_STATUS_LABELS[status];
  if (known) return known;
  const words = status.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
