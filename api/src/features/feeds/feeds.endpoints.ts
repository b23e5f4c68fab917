import type { Request, Response } from 'express';
import { endpoints, type Endpoint, type ItemListQuery } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { readDataVersion, type DataVersion } from '../../db/data-version.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { AuthenticationError, InputError } from '../../lib/errors.js';
import type { ItemWhereFilters } from '../items/item-query.js';
import type { RequestAuth } from '../../http/auth.js';
import { tenantScopeOf } from '../tenants/tenant-scope.js';
import { TIME_BUCKET_MS, viewTime } from '../items/view-time.js';
import { buildReleaseCalendar } from './calendar-render.js';
import { FeedCache } from './feed-cache.js';
import { createFeedItemsRepo } from './feed-items.repo.js';
import { feedRelevanceReader } from './feed-relevance.js';
import { buildItemsFeed } from './feed-render.js';
import { canonicalQuery, describeView, feedFilters } from './feed-view.js';

/** The release calendar starts this many months back (older releases are history, not plans). */
const CALENDAR_MONTHS_BACK = 12;

function monthsBefore(now: Date, months: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1));
  return d.toISOString().slice(0, 7);
}

/**
 * GET /api/feeds/items.rss, /items.atom and /releases.ics: any list view as a feed or calendar (docs/api.md#feeds).
 * Each answer is cached per view and data version (db/data-version.ts), carries a strong ETag (a hash of the body)
 * and Last-Modified (when the data last changed), and a matching conditional request gets a 304.
 */
export function createFeedsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createFeedItemsRepo(ctx.pool);
  const cache = new FeedCache();
  const absolute = (endpoint: Endpoint, filters: ItemWhereFilters) => {
    // The reader's tenant scope is theirs, never part of the feed's address.
    const { tenantScope: _scope, ...view } = filters;
    const qs = canonicalQuery(view);
    return `${ctx.publicUrl}${endpoint.path}${qs ? `?${qs}` : ''}`;
  };

  async function serve(
    args: { endpoint: Endpoint; mediaType: string; query: ItemListQuery; req: Request; res: Response; auth: RequestAuth | null },
    render: (filters: ItemWhereFilters, now: Date, data: DataVersion) => Promise<string>,
  ): Promise<void> {
    const { req, res } = args;
    if (args.query.sinceLastVisit) {
      // A feed URL is shared and cached publicly; "since my last visit" belongs to one signed-in dashboard user.
      const message = 'sinceLastVisit is personal to a signed-in dashboard user and cannot be used in a feed';
      throw new InputError(`sinceLastVisit: ${message}`, [{ path: 'sinceLastVisit', message }]);
    }
    // A signed-in reader (a session, or an API token in the Authorization header) gets the feed of what they may see:
    // the private tenants given to them too, and each entry's relevance to those tenants. Such a feed is theirs alone
    // and never stored by a shared cache.
    const tenantScope = await tenantScopeOf(ctx.db, args.auth);
    if (args.query.relevance && !tenantScope) {
      // As the list refuses a guest: relevance is read from the tenants' own usage. A feed reader can send a token.
      res.setHeader('WWW-Authenticate', 'Bearer realm="M365 Radar"');
      throw new AuthenticationError('Sign in to filter by relevance: a feed reader sends a personal API token (Authorization: Bearer)');
    }
    const filters: ItemWhereFilters = tenantScope ? { ...feedFilters(args.query), tenantScope } : feedFilters(args.query);
    const now = ctx.clock.now();
    // Read before the rows (see data-version.ts): an answer is never cached under a version newer than its data.
    const data = await readDataVersion(ctx.pool);
    // Views whose rows depend on the time ("last 7 days") are re-rendered once per time bucket and data version.
    const { bucket } = viewTime(filters, now);
    // The key holds the reader's tenant scope (in `filters`): a body with one scope's tenants, posts and relevance is
    // only ever served to a reader of the same scope, and a guest's key has none. Grants, tenants and relevance rows
    // all move the data version, so no body outlives what its scope could see.
    const key = JSON.stringify([args.endpoint.id, filters, data.version, bucket]);
    const rendered = await cache.get(
      key,
      async () => {
        const changed = bucket === null ? data.changedAt : new Date(Math.max(data.changedAt.getTime(), bucket * TIME_BUCKET_MS));
        // HTTP dates have whole seconds; a Last-Modified with milliseconds would never equal If-Modified-Since.
        return { body: await render(filters, now, data), lastModified: new Date(Math.floor(changed.getTime() / 1000) * 1000) };
      },
      () => ctx.services.missBudget.charge(req),
    );
    res.setHeader('Content-Type', `${args.mediaType}; charset=utf-8`);
    res.setHeader('ETag', rendered.etag);
    res.setHeader('Last-Modified', rendered.lastModified.toUTCString());
    // A guest's feed is public (nothing personal is in it); a signed-in reader's may hold private tenants' posts.
    // Either is revalidated on every use: with the ETag that costs a 304.
    res.setHeader('Cache-Control', tenantScope ? 'private, no-cache' : 'public, no-cache');
    if (tenantScope) res.vary('Authorization').vary('Cookie');
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.status(200).send(rendered.body);
  }

  const itemsFeed = (format: 'rss' | 'atom') => async (filters: ItemWhereFilters, now: Date, data: DataVersion) => {
    const rows = await repo.newestByActivity(filters, now);
    const relevance = await feedRelevanceReader(ctx, filters)?.(rows.map((row) => row.id));
    return buildItemsFeed(
      rows,
      {
        view: describeView(filters),
        publicUrl: ctx.publicUrl,
        rssUrl: absolute(endpoints.feeds.itemsRss, filters),
        atomUrl: absolute(endpoints.feeds.itemsAtom, filters),
        dashboardUrl: `${ctx.publicUrl}/dashboard`,
        dataChangedAt: data.changedAt,
      },
      format,
      relevance,
    );
  };

  return [
    implement(endpoints.feeds.itemsRss, ({ query, req, res, auth }) =>
      serve({ endpoint: endpoints.feeds.itemsRss, mediaType: 'application/rss+xml', query, req, res, auth }, itemsFeed('rss')),
    ),
    implement(endpoints.feeds.itemsAtom, ({ query, req, res, auth }) =>
      serve({ endpoint: endpoints.feeds.itemsAtom, mediaType: 'application/atom+xml', query, req, res, auth }, itemsFeed('atom')),
    ),
    implement(endpoints.feeds.releasesIcs, ({ query, req, res, auth }) =>
      serve({ endpoint: endpoints.feeds.releasesIcs, mediaType: 'text/calendar', query, req, res, auth }, async (filters, now) => {
        const fromMonth = monthsBefore(now, CALENDAR_MONTHS_BACK);
        const [rows, rollouts] = await Promise.all([repo.releases(filters, now, `${fromMonth}-01`), repo.rollouts(filters, now, `${fromMonth}-01`)]);
        const relevance = await feedRelevanceReader(ctx, filters)?.([...rows, ...rollouts].map((row) => row.id));
        return buildReleaseCalendar(rows, { view: describeView(filters), publicUrl: ctx.publicUrl, fromMonth }, rollouts, relevance);
      }),
    ),
  ];
}
