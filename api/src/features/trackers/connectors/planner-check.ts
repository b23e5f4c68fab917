import type { ConnectionCheck, PlannerSettings } from '@radar/contracts';
import { TrackerError, trackerMessage } from '../tracker-http.js';
import type { GraphSession, PlannerTenant } from './graph-session.js';

/** The permission Planner tasks are written with, as an application permission of the tenant's app. */
export const PLANNER_WRITE = 'Tasks.ReadWrite.All';
/** Assignment maps an owner's e-mail to the tenant's user, which needs this to read users. */
export const PLANNER_USERS = 'User.Read.All';

/**
 * Test on Admin → Trackers for a Planner target: the sign-in, the permission tasks are written with, the plan and
 * bucket chosen, and whether owners can be assigned. Stops after the plan when it cannot be read (the bucket is the plan's).
 */
export async function checkPlanner(
  session: GraphSession,
  settings: PlannerSettings,
  tenant: PlannerTenant,
  delegated: { by: string | null } | undefined,
): Promise<ConnectionCheck[]> {
  const { call } = session;
  const checks: ConnectionCheck[] = [];
  let roles: string[];
  try {
    roles = (await session.token(true)).roles;
  } catch (err) {
    if (!(err instanceof TrackerError)) throw err;
    return [{ name: 'Sign-in', ok: false, message: `${err.message}: check the tenant in Admin → Tenants (Test there says more)` }];
  }
  if (delegated) {
    checks.push({ name: 'Sign-in', ok: true, message: `Signed in to ${tenant.name} as ${delegated.by ?? 'the admin who authorized'} (delegated)` });
    checks.push(
      roles.includes('Tasks.ReadWrite')
        ? { name: 'Permission', ok: true, message: 'Delegated permission Tasks.ReadWrite is granted: tasks are written as that user' }
        : {
            name: 'Permission',
            ok: false,
            message: "The authorization lacks the delegated permission Tasks.ReadWrite: add it to the app's delegated permissions and authorize again",
          },
    );
  } else {
    checks.push({ name: 'Sign-in', ok: true, message: `Signed in to ${tenant.name} as its app (${tenant.clientId})` });
    const write = roles.includes(PLANNER_WRITE);
    checks.push(
      write
        ? { name: 'Permission', ok: true, message: `Application permission ${PLANNER_WRITE} is granted with admin consent` }
        : {
            name: 'Permission',
            ok: false,
            message: `The app lacks the application permission ${PLANNER_WRITE}${roles.includes('Tasks.Read.All') ? ' (it has Tasks.Read.All, which only reads)' : ''}: add it in Entra (API permissions → Microsoft Graph → Application permissions) and grant admin consent, or sign in as a user (delegated) where the tenant grants no application permission to Planner.`,
          },
    );
  }
  const plan = await call('GET', `/planner/plans/${encodeURIComponent(settings.planId)}`);
  if (plan.status === 200) {
    const body = JSON.parse(plan.text) as { title?: string; container?: { containerId?: string }; owner?: string };
    const group = body.container?.containerId ?? body.owner;
    checks.push(
      group && group !== settings.groupId
        ? { name: 'Plan', ok: false, message: `The plan “${body.title ?? settings.planId}” belongs to another group than the one chosen` }
        : { name: 'Plan', ok: true, message: `Plan “${body.title ?? settings.planId}” found` },
    );
  } else {
    checks.push({
      name: 'Plan',
      ok: false,
      message:
        plan.status === 404
          ? 'No plan with this id in the tenant (deleted, or in another tenant): choose it again'
          : `Reading the plan answered HTTP ${plan.status}${trackerMessage(plan.text) ? ` (${trackerMessage(plan.text)})` : ''}`,
    });
    return checks;
  }
  const bucket = await call('GET', `/planner/buckets/${encodeURIComponent(settings.bucketId)}`);
  const bucketBody = bucket.status === 200 ? (JSON.parse(bucket.text) as { name?: string; planId?: string }) : null;
  checks.push(
    bucketBody && bucketBody.planId === settings.planId
      ? { name: 'Bucket', ok: true, message: `Bucket “${bucketBody.name ?? settings.bucketId}” found` }
      : {
          name: 'Bucket',
          ok: false,
          message: bucketBody ? 'The bucket belongs to another plan: choose it again' : 'No bucket with this id in the plan: choose it again',
        },
  );
  const canFindUsers = delegated
    ? roles.some((r) => ['User.ReadBasic.All', 'User.Read.All'].includes(r))
    : roles.includes(PLANNER_USERS) || roles.includes('Directory.Read.All');
  const usersPermission = delegated ? 'User.ReadBasic.All (delegated)' : PLANNER_USERS;
  checks.push(
    canFindUsers
      ? { name: 'Assignment', ok: true, message: `${usersPermission} is granted: owners are assigned when their e-mail is a user of ${tenant.name}` }
      : { name: 'Assignment', ok: false, message: `${usersPermission} is missing: tasks are made without an assignee until it is granted` },
  );
  return checks;
}
