import type { PlannerOptionsResponse } from '@radar/contracts';
import { TrackerError } from '../tracker-http.js';
import type { GraphSession } from './graph-session.js';

/**
 * The lists an admin chooses a Planner target from: the tenant's Microsoft 365 groups (Group.Read.All), a group's
 * plans, a plan's buckets. A list Graph refuses is empty and `problem` says why, so the admin can still paste an id.
 */
export async function plannerOptions(session: GraphSession, query: { groupId?: string; planId?: string }): Promise<PlannerOptionsResponse> {
  const answer: PlannerOptionsResponse = { groups: [], plans: [], buckets: [], problem: null };
  const attempt = async (what: string, read: () => Promise<void>) => {
    try {
      await read();
    } catch (err) {
      if (!(err instanceof TrackerError)) throw err;
      answer.problem ??= err.status === 403 ? `${what}: the tenant's app lacks a permission (${err.message})` : `${what}: ${err.message}`;
    }
  };
  await attempt('Listing groups (needs Group.Read.All)', async () => {
    const groups = await session.list<{ id: string; displayName?: string }>(
      `/groups?$filter=${encodeURIComponent("groupTypes/any(c:c eq 'Unified')")}&$select=id,displayName&$top=999`,
      'Listing groups',
    );
    answer.groups = groups.map((g) => ({ id: g.id, name: g.displayName ?? g.id })).sort((a, b) => a.name.localeCompare(b.name));
  });
  const { groupId, planId } = query;
  if (groupId) {
    await attempt('Listing plans', async () => {
      const plans = await session.list<{ id: string; title?: string }>(`/groups/${encodeURIComponent(groupId)}/planner/plans`, 'Listing plans');
      answer.plans = plans.map((p) => ({ id: p.id, name: p.title ?? p.id })).sort((a, b) => a.name.localeCompare(b.name));
    });
  }
  if (planId) {
    await attempt('Listing buckets', async () => {
      const buckets = await session.list<{ id: string; name?: string; orderHint?: string }>(
        `/planner/plans/${encodeURIComponent(planId)}/buckets`,
        'Listing buckets',
      );
      answer.buckets = buckets.map((b) => ({ id: b.id, name: b.name ?? b.id }));
    });
  }
  return answer;
}
