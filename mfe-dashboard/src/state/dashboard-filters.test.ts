import { describe, expect, it } from '@jest/globals';
import { DASHBOARD_URL_STATE_KEYS, DEFAULT_LIST_PARAMS, itemListUrl, RELEVANCE_LEVELS, toQueryString } from '@radar/contracts';
import {
  canClearAll,
  dashboardReducer,
  initialDashboardState,
  recomputeSources,
  toggleChangeType,
  type DashboardAction,
  type DashboardState,
} from './dashboard-filters.js';
import { RELEVANCE_ORDER } from './relevance-levels.js';
import { savedSearchQueryOf, stateFromQuery, stateFromUrl, toListParams, withUrlState } from './view-query.js';

const run = (...actions: DashboardAction[]): DashboardState => actions.reduce(dashboardReducer, initialDashboardState);

describe('dashboard filter rules', () => {
  it('starts with both sources, createdDate descending, page 1', () => {
    expect(initialDashboardState.filters.sources).toEqual(['roadmap', 'messages', 'health']);
    expect(initialDashboardState.sortField).toBe('createdDate');
    expect(initialDashboardState.sortDirection).toBe('desc');
    expect(initialDashboardState.page).toBe(1);
  });

  describe('change types are exclusive within a group', () => {
    it('a new_* choice replaces another new_*; one new and one changed coexist', () => {
      expect(toggleChangeType(['new_1_day'], 'new_7days')).toEqual(['new_7days']);
      expect(toggleChangeType(['new_7days'], 'changed_30days')).toEqual(['new_7days', 'changed_30days']);
      expect(toggleChangeType(['new_7days', 'changed_30days'], 'changed_1_day')).toEqual(['new_7days', 'changed_1_day']);
      expect(toggleChangeType(['new_7days', 'changed_1_day'], 'new_30days')).toEqual(['changed_1_day', 'new_30days']);
    });
    it('choosing the selected option again clears it', () => {
      expect(toggleChangeType(['new_7days', 'changed_1_day'], 'new_7days')).toEqual(['changed_1_day']);
    });
    it('goes through the reducer', () => {
      const state = run({ type: 'toggleChangeType', changeType: 'new_1_day' }, { type: 'toggleChangeType', changeType: 'new_30days' });
      expect(state.filters.changeTypes).toEqual(['new_30days']);
    });
  });

  describe('sources recomputation', () => {
    it('the sources with a selection are listed; with none, every source', () => {
      const none = { roadmapStatuses: [], messageCenterTags: [], cloudInstances: [], healthClassifications: [] };
      expect(recomputeSources(none)).toEqual(['roadmap', 'messages', 'health']);
      expect(recomputeSources({ ...none, healthStatus: 'active' })).toEqual(['health']);
      expect(recomputeSources({ ...none, healthClassifications: ['incident'], messageCenterTags: ['Retirement'] })).toEqual(['messages', 'health']);
      expect(recomputeSources({ ...none, healthClassifications: ['incident'], messageCenterTags: ['Retirement'], cloudInstances: ['GCC'] })).toEqual([
        'roadmap',
        'messages',
        'health',
      ]);
      expect(recomputeSources({ ...none, roadmapStatuses: ['Launched'] })).toEqual(['roadmap']);
      expect(recomputeSources({ ...none, messageCenterTags: ['Retirement'] })).toEqual(['messages']);
      expect(recomputeSources({ ...none, roadmapStatuses: ['Launched'], messageCenterTags: ['Retirement'] })).toEqual(['roadmap', 'messages']);
      expect(recomputeSources({ ...none, cloudInstances: ['GCC'] })).toEqual(['roadmap']);
    });

    it('ticking a roadmap status (or cloud instance) lists roadmap, a tag messages, both both, unticking recomputes', () => {
      let state = run({ type: 'toggleSource', source: 'roadmap' });
      expect(state.filters.sources).toEqual(['messages', 'health']);
      state = dashboardReducer(state, { type: 'toggleListValue', key: 'roadmapStatuses', value: 'Rolling out' });
      expect(state.filters.sources).toEqual(['roadmap']);
      state = dashboardReducer(state, { type: 'toggleListValue', key: 'messageCenterTags', value: 'Retirement' });
      expect(state.filters.sources).toEqual(['roadmap', 'messages']);
      state = dashboardReducer(state, { type: 'toggleListValue', key: 'roadmapStatuses', value: 'Rolling out' });
      expect(state.filters.sources).toEqual(['messages']);
      state = dashboardReducer(state, { type: 'toggleListValue', key: 'messageCenterTags', value: 'Retirement' });
      expect(state.filters.sources).toEqual(['roadmap', 'messages', 'health']);
      state = dashboardReducer(state, { type: 'toggleListValue', key: 'cloudInstances', value: 'GCC High' });
      expect(state.filters.sources).toEqual(['roadmap']);
    });

    it('a product choice does not touch sources', () => {
      const state = run({ type: 'toggleSource', source: 'messages' }, { type: 'toggleListValue', key: 'products', value: 'Teams' });
      expect(state.filters.sources).toEqual(['roadmap', 'health']);
      expect(state.filters.products).toEqual(['Teams']);
    });
  });

  describe('Clear All', () => {
    it('is hidden by default and shows for products, status, change types or a timeline other than all', () => {
      expect(canClearAll(initialDashboardState.filters)).toBe(false);
      expect(canClearAll(run({ type: 'setTimeline', timeline: 'all' }).filters)).toBe(false);
      expect(canClearAll(run({ type: 'setTimeline', timeline: '7days' }).filters)).toBe(true);
      expect(canClearAll(run({ type: 'toggleListValue', key: 'products', value: 'Teams' }).filters)).toBe(true);
      expect(canClearAll(run({ type: 'toggleListValue', key: 'status', value: 'Launched' }).filters)).toBe(true);
      expect(canClearAll(run({ type: 'toggleChangeType', changeType: 'changed_7days' }).filters)).toBe(true);
      expect(canClearAll(run({ type: 'setFeatured', featured: true }).filters)).toBe(false);
    });

    it('resets products, status, change types, timeline and sets both sources', () => {
      const state = run(
        { type: 'toggleListValue', key: 'products', value: 'Teams' },
        { type: 'toggleListValue', key: 'status', value: 'Launched' },
        { type: 'toggleChangeType', changeType: 'new_7days' },
        { type: 'setTimeline', timeline: '30days' },
        { type: 'toggleListValue', key: 'roadmapStatuses', value: 'Launched' },
        { type: 'setSearch', search: 'teams' },
        { type: 'clearAll' },
      );
      expect(state.filters).toMatchObject({
        products: [],
        status: [],
        changeTypes: [],
        timeline: undefined,
        roadmapStatuses: [],
        sources: ['roadmap', 'messages', 'health'],
      });
      expect(canClearAll(state.filters)).toBe(false);
      expect(state.search).toBe('teams');
    });
  });

  describe('page reset', () => {
    const onPage3 = run({ type: 'setPage', page: 3 });
    it.each<DashboardAction>([
      { type: 'toggleSource', source: 'roadmap' },
      { type: 'toggleListValue', key: 'products', value: 'Teams' },
      { type: 'toggleListValue', key: 'roadmapStatuses', value: 'Launched' },
      { type: 'toggleListValue', key: 'messageCenterTags', value: 'Retirement' },
      { type: 'toggleListValue', key: 'cloudInstances', value: 'DoD' },
      { type: 'toggleChangeType', changeType: 'new_1_day' },
      { type: 'setFeatured', featured: true },
      { type: 'clearAll' },
      { type: 'setSearch', search: 'copilot' },
      { type: 'setSort', sortField: 'modifiedDate', sortDirection: 'asc' },
      { type: 'toggleLastModifiedSort' },
    ])('%o resets the page to 1', (action) => {
      expect(onPage3.page).toBe(3);
      expect(dashboardReducer(onPage3, action).page).toBe(1);
    });
  });

  it('the Last Modified header sorts by modified date, newest first, then toggles the direction', () => {
    const first = run({ type: 'toggleLastModifiedSort' });
    expect([first.sortField, first.sortDirection]).toEqual(['modifiedDate', 'desc']);
    const second = dashboardReducer(first, { type: 'toggleLastModifiedSort' });
    expect(second.sortDirection).toBe('asc');
    expect(dashboardReducer(second, { type: 'toggleLastModifiedSort' }).sortDirection).toBe('desc');
  });

  it('builds the list query without empty values; lists become repeated keys', () => {
    const state = run(
      { type: 'toggleListValue', key: 'roadmapStatuses', value: 'In development' },
      { type: 'toggleListValue', key: 'products', value: 'Microsoft Teams' },
      { type: 'toggleListValue', key: 'products', value: 'Outlook' },
      { type: 'setSearch', search: ' copilot ' },
      { type: 'setFeatured', featured: true },
      { type: 'setPage', page: 2 },
    );
    expect(toListParams(state)).toEqual({
      page: 2,
      limit: 50,
      sortField: 'createdDate',
      sortDirection: 'desc',
      search: 'copilot',
      sources: ['roadmap'],
      products: ['Microsoft Teams', 'Outlook'],
      roadmapStatuses: ['In development'],
      featured: true,
    });
    expect(toQueryString(toListParams(state, { paged: false }))).toBe(
      'sortField=createdDate&sortDirection=desc&search=copilot&sources=roadmap&products=Microsoft+Teams&products=Outlook&roadmapStatuses=In+development&featured=true',
    );
  });
});

describe('archive, date slips and since my last visit', () => {
  it('adds includeRemoved, releaseMoved and sinceLastVisit to the query; a release window is exclusive and toggles off', () => {
    const state = run(
      { type: 'setIncludeRemoved', includeRemoved: true },
      { type: 'toggleReleaseMoved', window: '30days' },
      { type: 'toggleReleaseMoved', window: '7days' },
      { type: 'setSinceLastVisit', sinceLastVisit: true },
      { type: 'setSort', sortField: 'releaseMoves', sortDirection: 'desc' },
    );
    expect(toListParams(state, { paged: false })).toEqual({
      sortField: 'releaseMoves',
      sortDirection: 'desc',
      includeRemoved: true,
      releaseMoved: '7days',
      sinceLastVisit: true,
    });
    expect(dashboardReducer(state, { type: 'toggleReleaseMoved', window: '7days' }).filters.releaseMoved).toBeUndefined();
  });

  it('Clear All resets since my last visit and release date moved, not the archive toggle', () => {
    const state = run({ type: 'setIncludeRemoved', includeRemoved: true }, { type: 'setSinceLastVisit', sinceLastVisit: true });
    expect(canClearAll(state.filters)).toBe(true);
    expect(canClearAll(run({ type: 'toggleReleaseMoved', window: '7days' }).filters)).toBe(true);
    expect(canClearAll(run({ type: 'setIncludeRemoved', includeRemoved: true }).filters)).toBe(false);
    const cleared = dashboardReducer(state, { type: 'clearAll' });
    expect(cleared.filters).toMatchObject({ sinceLastVisit: false, releaseMoved: undefined, includeRemoved: true });
  });

  it('keeps the tenant filter in the URL and in a saved search, dropping ids that are not ids', () => {
    const state = stateFromUrl(new URLSearchParams('tenants=3&tenants=7&tenants=x'));
    expect(state.filters.tenants).toEqual(['3', '7']);
    expect(withUrlState(new URLSearchParams(), state).getAll('tenants')).toEqual(['3', '7']);
    // A saved search keeps the ids as numbers.
    expect(stateFromQuery({ tenants: [3, 7] }).filters.tenants).toEqual(['3', '7']);
  });

  it('reads and writes its URL-kept choices, leaving other parameters alone', () => {
    const state = stateFromUrl(new URLSearchParams('sinceLastVisit=true&includeRemoved=true&releaseMoved=30days&sortField=releaseMoves&roadmap=313800'));
    expect(state.filters).toMatchObject({ sinceLastVisit: true, includeRemoved: true, releaseMoved: '30days' });
    expect(state.sortField).toBe('releaseMoves');
    expect(stateFromUrl(new URLSearchParams('releaseMoved=90days&sinceLastVisit=1&sortField=modifiedDate')).filters).toMatchObject({
      releaseMoved: undefined,
      sinceLastVisit: false,
    });
    // Every sort is kept now, with its direction (newest first unless the URL says otherwise).
    expect(stateFromUrl(new URLSearchParams('sortField=modifiedDate'))).toMatchObject({ sortField: 'modifiedDate', sortDirection: 'desc' });
    const written = withUrlState(new URLSearchParams('message=MC1&includeRemoved=true'), run({ type: 'setSinceLastVisit', sinceLastVisit: true }));
    expect(written.toString()).toBe('message=MC1&sinceLastVisit=true');
  });
});

describe("the shell's early first-page request", () => {
  it('asks for exactly the list a dashboard opened without URL-kept choices asks for', () => {
    const opened = stateFromUrl(new URLSearchParams('roadmap=4711'), initialDashboardState);
    expect(itemListUrl(toListParams(opened))).toBe(itemListUrl(DEFAULT_LIST_PARAMS));
  });

  it('is not used when the URL keeps a choice that changes the list', () => {
    for (const search of ['sinceLastVisit=true', 'includeRemoved=true', 'releaseMoved=30days', 'sortField=releaseMoves']) {
      const params = new URLSearchParams(search);
      expect(DASHBOARD_URL_STATE_KEYS.some((key) => params.has(key))).toBe(true);
      expect(itemListUrl(toListParams(stateFromUrl(params, initialDashboardState)))).not.toBe(itemListUrl(DEFAULT_LIST_PARAMS));
    }
  });
});

describe('saved-search views', () => {
  it('a saved search query opens as the same view, and the view saves as the same query', () => {
    const query = {
      search: 'Teams Rooms',
      sources: ['roadmap'],
      products: ['Microsoft Teams'],
      statuses: ['Launched'],
      timeline: '30days',
      changeTypes: ['changed_7days'],
      roadmapStatuses: ['Rolling out'],
      cloudInstances: ['GCC High'],
      featured: true,
      includeRemoved: true,
      releaseMoved: '30days',
      sortField: 'modifiedDate',
      sortDirection: 'asc',
    };
    const state = stateFromQuery(query);
    expect(state.page).toBe(1);
    expect(savedSearchQueryOf(state)).toEqual(query);
    expect(dashboardReducer(initialDashboardState, { type: 'loadView', state })).toBe(state);
  });

  it('leaves "since my last visit" out of a saved search', () => {
    const state = dashboardReducer(initialDashboardState, { type: 'setSinceLastVisit', sinceLastVisit: true });
    expect(savedSearchQueryOf(state)).toEqual({ sortField: 'createdDate', sortDirection: 'desc' });
  });
});

describe('timing of change and product families', () => {
  it('rolling out is one window at a time; families are a list; both go to the query, Clear All clears them', () => {
    let state = dashboardReducer(initialDashboardState, { type: 'toggleRollingOut', window: '30days' });
    state = dashboardReducer(state, { type: 'toggleRollingOut', window: '7days' });
    state = dashboardReducer(state, { type: 'toggleListValue', key: 'productFamilies', value: 'dynamics365' });
    state = dashboardReducer(state, { type: 'toggleListValue', key: 'productFamilies', value: 'powerPlatform' });
    expect(toListParams(state)).toMatchObject({ rollingOut: '7days', productFamilies: ['dynamics365', 'powerPlatform'] });
    expect(canClearAll(state.filters)).toBe(true);
    const cleared = dashboardReducer(state, { type: 'clearAll' });
    expect(cleared.filters).toMatchObject({ rollingOut: undefined, productFamilies: [] });
    expect(dashboardReducer(state, { type: 'toggleRollingOut', window: '7days' }).filters.rollingOut).toBeUndefined();
  });

  it('the Timing of Change header sorts soonest first, then latest first; the URL keeps it and rolling out', () => {
    const soonest = dashboardReducer({ ...initialDashboardState, page: 3 }, { type: 'toggleTimingSort' });
    expect(soonest).toMatchObject({ sortField: 'timing', sortDirection: 'asc', page: 1 });
    const latest = dashboardReducer(soonest, { type: 'toggleTimingSort' });
    expect(latest).toMatchObject({ sortField: 'timing', sortDirection: 'desc' });
    const withRolling = dashboardReducer(latest, { type: 'toggleRollingOut', window: '90days' });
    const url = withUrlState(new URLSearchParams('message=MC1'), withRolling);
    expect(url.toString()).toBe('message=MC1&sortField=timing&sortDirection=desc&rollingOut=90days');
    expect(stateFromUrl(url)).toMatchObject({ sortField: 'timing', sortDirection: 'desc', filters: { rollingOut: '90days' } });
  });

  it('a saved search keeps them', () => {
    const query = { productFamilies: ['microsoft365'], rollingOut: '30days', sortField: 'timing', sortDirection: 'asc' };
    expect(savedSearchQueryOf(stateFromQuery(query))).toEqual(query);
  });
});

describe('triage view in the URL', () => {
  it('keeps the view in the URL, reads it back, and leaves it out of a saved search', () => {
    const state = dashboardReducer(initialDashboardState, { type: 'setTriageView', triage: 'overdue' });
    const url = withUrlState(new URLSearchParams(), state);
    expect(url.get('triage')).toBe('overdue');
    expect(stateFromUrl(url).filters.triage).toBe('overdue');
    expect(stateFromUrl(new URLSearchParams('triage=bogus&search=x')).filters.triage).toBeUndefined();
    expect(dashboardReducer(state, { type: 'clearAll' }).filters.triage).toBe('overdue');
    const due = dashboardReducer(state, { type: 'setSort', sortField: 'due', sortDirection: 'asc' });
    expect(savedSearchQueryOf(due)).toEqual({ sortField: 'createdDate', sortDirection: 'desc' });
  });
});

describe('only products we license', () => {
  it('keeps the choice in the URL and the list query, and through Clear All', () => {
    const state = dashboardReducer(initialDashboardState, { type: 'setLicensed', licensed: true });
    expect(toListParams(state)).toMatchObject({ licensed: true });
    const url = withUrlState(new URLSearchParams(), state);
    expect(url.get('licensed')).toBe('true');
    expect(stateFromUrl(url).filters.licensed).toBe(true);
    expect(dashboardReducer(state, { type: 'clearAll' }).filters.licensed).toBe(true);
  });
});

describe('relevance filter and sort', () => {
  it('keeps the dashboard’s levels equal to the contract’s, most relevant first', () => {
    expect([...RELEVANCE_ORDER]).toEqual([...RELEVANCE_LEVELS]);
  });

  it('sends the chosen levels with the list query and writes them to the URL', () => {
    const state = run({ type: 'toggleRelevance', level: 'high' });
    expect(toListParams(state)).toMatchObject({ relevance: ['high'] });
    expect(withUrlState(new URLSearchParams('message=MC1'), state).toString()).toBe('message=MC1&relevance=high');
  });

  it('reads the levels back from the URL, repeated or comma-separated, dropping unknown ones', () => {
    expect(stateFromUrl(new URLSearchParams('relevance=high&relevance=bogus&relevance=low')).filters.relevance).toEqual(['high', 'low']);
    expect(stateFromUrl(new URLSearchParams('relevance=medium,unknown')).filters.relevance).toEqual(['medium', 'unknown']);
  });

  it('toggles a level off again, and Clear All clears them', () => {
    const both = run({ type: 'toggleRelevance', level: 'high' }, { type: 'toggleRelevance', level: 'medium' });
    expect(both.filters.relevance).toEqual(['high', 'medium']);
    expect(dashboardReducer(both, { type: 'toggleRelevance', level: 'high' }).filters.relevance).toEqual(['medium']);
    expect(canClearAll(both.filters)).toBe(true);
    expect(dashboardReducer(both, { type: 'clearAll' }).filters.relevance).toEqual([]);
  });

  it('a saved search keeps the levels and the relevance sort', () => {
    const query = { relevance: ['high', 'medium'], sortField: 'relevance', sortDirection: 'desc' };
    expect(savedSearchQueryOf(stateFromQuery(query))).toEqual(query);
  });

  it('a guest’s view drops the levels and the relevance sort', () => {
    const state = run({ type: 'toggleRelevance', level: 'high' }, { type: 'setSort', sortField: 'relevance', sortDirection: 'desc' });
    expect(dashboardReducer(state, { type: 'dropSignedInOnly' })).toMatchObject({
      sortField: 'createdDate',
      sortDirection: 'desc',
      filters: { relevance: [], sinceLastVisit: false },
    });
  });
});
