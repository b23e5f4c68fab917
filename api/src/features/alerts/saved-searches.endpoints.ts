import { endpoints, SAVED_SEARCHES_PER_USER, type SavedSearchInput } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, Reply, type EndpointImplementation, implementCallerRead } from '../../http/endpoints.js';
import { freshFactorGuard } from '../../http/fresh-factor.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { fieldError, requireScope, viewerOf } from './access.js';
import { createChannelsRepo, type Viewer } from './channels.repo.js';
import { createSavedSearchesRepo, toSavedSearch, type SavedSearchRow } from './saved-searches.repo.js';

type Parsed = { [K in keyof Required<SavedSearchInput>]: Exclude<SavedSearchInput[K], undefined> } & { channelIds: number[]; alertOn: ('new' | 'changed')[] };

/**
 * /api/saved-searches: the caller's saved searches (an admin's list also holds the organisation's). A saved search
 * sends only to channels of its own scope: a personal one to its owner's channels, an organisation one to the
 * organisation's channels (docs/notifications.md, "Organisation channels").
 */
export function createSavedSearchesEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createSavedSearchesRepo(ctx.db);
  const channels = createChannelsRepo(ctx.db);
  // An organisation search sends every tenant's posts to its channels: an admin confirms it with a recent passkey.
  const fresh = freshFactorGuard(ctx);

  async function checkChannels(viewer: Viewer, scope: 'personal' | 'organisation', ids: number[]): Promise<void> {
    for (const [index, id] of ids.entries()) {
      const channel = await channels.findVisible(viewer, id);
      if (!channel) throw fieldError(`channelIds.${index}`, `Channel ${id} is not one of your channels`);
      if (channel.scope !== scope) {
        throw fieldError(
          `channelIds.${index}`,
          scope === 'organisation'
            ? `Channel “${channel.name}” is personal: an organisation search sends only to organisation channels`
            : `Channel “${channel.name}” belongs to the organisation: use an organisation search for it`,
        );
      }
    }
  }

  async function load(viewer: Viewer, id: number) {
    const found = await repo.findVisible(viewer, id);
    if (!found) throw new NotFoundError(`Saved search ${id} not found`);
    return found;
  }

  const columns = (b: Parsed) => ({
    name: b.name,
    query: b.query as Record<string, unknown>,
    alertOn: b.alertOn,
    schedule: b.schedule,
    hour: b.hour,
    weekday: b.weekday,
    timeZone: b.timeZone,
    paused: b.paused,
  });
  /** A new digest schedule (or a resume) starts counting from now: no digest for the time before it. */
  const scheduleChanged = (row: SavedSearchRow, b: Parsed) =>
    row.schedule !== b.schedule || row.hour !== b.hour || row.weekday !== b.weekday || row.timeZone !== b.timeZone || (row.paused && !b.paused);

  return [
    implementCallerRead(endpoints.alerts.listSavedSearches, async (auth) => (await repo.listVisible(viewerOf(auth))).map(toSavedSearch)),
    implement(endpoints.alerts.getSavedSearch, async ({ params: { id }, auth }) => toSavedSearch(await load(viewerOf(auth), id))),
    implement(endpoints.alerts.createSavedSearch, async ({ body, auth }) => {
      const viewer = viewerOf(auth);
      requireScope(viewer, body.scope, 'saved searches');
      if (body.scope === 'organisation') await fresh.require(auth);
      if ((await repo.count(body.scope, auth.user.id)) >= SAVED_SEARCHES_PER_USER) {
        throw new ConflictError(
          `${body.scope === 'organisation' ? 'The organisation already has' : 'You already have'} ${SAVED_SEARCHES_PER_USER} saved searches: delete one you no longer need first`,
        );
      }
      await checkChannels(viewer, body.scope, body.channelIds);
      const now = ctx.clock.now();
      const id = await ctx.db.transaction((tx) =>
        createSavedSearchesRepo(tx).insert(
          { ...columns(body as Parsed), scope: body.scope, ownerUserId: auth.user.id, digestAnchorAt: now, createdAt: now, updatedAt: now },
          body.channelIds,
        ),
      );
      return Reply.status(201, toSavedSearch(await load(viewer, id)));
    }),
    implement(endpoints.alerts.updateSavedSearch, async ({ params: { id }, body, auth }) => {
      const viewer = viewerOf(auth);
      const row = await load(viewer, id);
      if (body.scope !== row.scope) throw fieldError('scope', 'The scope of a saved search cannot be changed: save a new search instead');
      if (row.scope === 'organisation') await fresh.require(auth);
      await checkChannels(viewer, row.scope, body.channelIds);
      const now = ctx.clock.now();
      const reset = scheduleChanged(row, body as Parsed) ? { digestAnchorAt: now, lastDigestAt: null } : {};
      await ctx.db.transaction((tx) => createSavedSearchesRepo(tx).update(id, { ...columns(body as Parsed), ...reset, updatedAt: now }, body.channelIds));
      return toSavedSearch(await load(viewer, id));
    }),
    implement(endpoints.alerts.deleteSavedSearch, async ({ params: { id }, auth }) => {
      if ((await load(viewerOf(auth), id)).scope === 'organisation') await fresh.require(auth);
      await repo.remove(id);
      return { success: true, message: 'Saved search deleted' };
    }),
  ];
}
