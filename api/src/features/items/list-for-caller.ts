import type { ItemListQuery } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { isModeratorOrAdmin, type RequestAuth } from '../../http/auth.js';
import { AuthenticationError } from '../../lib/errors.js';
import { tenantScopeOf } from '../tenants/tenant-scope.js';
import type { ItemListRequest } from './item-query.js';
import type { ListAnswer, ListAnswers } from './list-answers.js';
import { createLastVisitRepo, visitBaseline } from './last-visit/last-visit.repo.js';

export type ListForCaller = ReturnType<typeof createListForCaller>;

/**
 * The dashboard list as one caller sees it: the tenants whose posts they may see, moderator notes for staff, the
 * items' triage and relevance for signed-in users, and `sinceLastVisit` from their previous visit. GET /api/unified/items, the
 * export and the server-rendered first screen of a signed-in user's dashboard all answer through this, so a page
 * rendered on the server shows exactly what the browser's own request would. One instance, on the item list's
 * services (`itemList.forCaller`).
 */
export function createListForCaller(deps: { db: DbOrTx; answers: ListAnswers }) {
  const { answers } = deps;
  const visits = createLastVisitRepo(deps.db);

  /** The caller's view of the query: tenant scope, triage user and visit baseline; guests may not ask for the personal ones. */
  async function resolveView<Q extends Pick<ItemListQuery, 'sinceLastVisit' | 'triage' | 'sortField' | 'relevance'>>(
    q: Q,
    auth: RequestAuth | null,
    now: Date,
  ): Promise<Q & Pick<ItemListRequest, 'visitSince' | 'tenantScope' | 'triageUserId'>> {
    const tenantScope = await tenantScopeOf(deps.db, auth);
    // Triage is the team's own: its views and its order need a signed-in user.
    if ((q.triage || q.sortField === 'due') && !auth) throw new AuthenticationError('Sign in to use the triage views and the due-date order');
    // Relevance is read from the tenants' own usage: its filter and its order need a signed-in user too.
    if ((q.relevance || q.sortField === 'relevance') && !auth) throw new AuthenticationError('Sign in to filter or sort by relevance');
    const scoped = { ...q, ...(tenantScope ? { tenantScope } : {}), ...(q.triage && auth ? { triageUserId: auth.user.id } : {}) };
    if (!q.sinceLastVisit) return scoped;
    if (!auth) throw new AuthenticationError('Sign in to see what changed since your last visit');
    return { ...scoped, visitSince: visitBaseline(await visits.find(auth.user.id), now) };
  }

  return {
    resolveView,
    /** The list answer for `auth` (null: a guest); `onMiss` runs (and may refuse) before an answer is computed. */
    async answer(query: ItemListQuery, auth: RequestAuth | null, now: Date, onMiss?: () => Promise<void>): Promise<ListAnswer> {
      const q = await resolveView(query, auth, now);
      return answers.answer(q, now, { includeNotes: isModeratorOrAdmin(auth), triage: Boolean(auth), relevance: Boolean(auth) }, onMiss);
    },
  };
}
