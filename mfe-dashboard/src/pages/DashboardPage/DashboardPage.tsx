import { Suspense, useState } from 'react';
import { Alert, Box, Button, Container, Drawer, IconButton, Paper, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import { AfterFirstPaint, AppHeader, Deferred, MainLandmark, icons, lazyNamed, useAuthDialog, useSession } from '@radar/shared-ui';
import { useDashboardExport } from '../../api/export.js';
import { useFilterCounts, useFilterOptions, useItemList } from '../../api/items.js';
import { ItemCards } from '../../components/ItemCards/index.js';
import { ItemTable } from '../../components/ItemTable/index.js';
import { ListToolbar } from '../../components/ListToolbar/index.js';
import { PaginationFooter } from '../../components/PaginationFooter/index.js';
import { SinceLastVisitBanner } from '../../components/SinceLastVisitBanner/index.js';
import { SubscribeMenu } from '../../components/SubscribeMenu/index.js';
import { TriageViews } from '../../components/TriageViews/index.js';
import { bulkTargetsOf } from '../../api/triage.js';
import type { BulkTarget } from '../../components/BulkTriageBar/index.js';
import { savedSearchQueryOf, toListParams } from '../../state/view-query.js';
import { useDashboardState } from './useDashboardState.js';
import { useItemDialog } from './useItemDialog.js';
import { useUrlParams } from './useUrlParams.js';
import { useReceivedText } from './useReceivedText.js';
import { useTenantName } from './useTenantName.js';

const SIDEBAR_WIDTH = 300;

// The item dialog (with its HTML sanitiser) is not needed until a row or a deep link opens one.
const ItemDialog = lazyNamed(() => import('../../components/ItemDialog/ItemDialog.js'), 'ItemDialog');
// Moderators only, once they choose rows.
const BulkTriageBar = lazyNamed(() => import('../../components/BulkTriageBar/BulkTriageBar.js'), 'BulkTriageBar');
// The filters are closed when the page opens (a button shows them): their code comes when they are first shown.
const FilterSidebar = lazyNamed(() => import('../../components/FilterSidebar/FilterSidebar.js'), 'FilterSidebar');
const SaveSearchDialog = lazyNamed(() => import('../../components/SaveSearchDialog/SaveSearchDialog.js'), 'SaveSearchDialog');

/** /dashboard: search, filter, sort and export the unified list; item dialogs open from rows and deep links. */
export function DashboardPage() {
  const theme = useTheme();
  const isMobile = useMediaQuery(theme.breakpoints.down('md'));
  // The view and the open dialog both live in the URL: one writer, so neither write undoes the other.
  const url = useUrlParams();
  const { state, dispatch, signedIn, visit, listParams, editing, stopEditing, refreshEditing } = useDashboardState(url);
  // The session's roles (already read for the page): no extra request on the first load.
  const { isModerator } = useSession();
  // Rows chosen for a bulk triage change, kept across pages: each with the records it stands for.
  const [chosen, setChosen] = useState<ReadonlyMap<string, BulkTarget[]>>(new Map());
  const [filtersVisible, setFiltersVisible] = useState(false);
  const [saveOpen, setSaveOpen] = useState(false);
  const [subscribeAnchor, setSubscribeAnchor] = useState<HTMLElement | null>(null);
  const authDialog = useAuthDialog();
  const [drawerOpen, setDrawerOpen] = useState(false);

  const viewParams = toListParams(state, { paged: false });
  const exportAction = useDashboardExport(viewParams);
  // Badges are measured from when the last page of results arrived.
  const [now, setNow] = useState(() => new Date());
  const list = useItemList(listParams, { onSuccess: () => setNow(new Date()) });
  const { data: options } = useFilterOptions();
  const { data: counts } = useFilterCounts();
  const dialog = useItemDialog(url);

  const items = list.data?.items ?? [];
  const choose = (ids: string[], on: boolean) =>
    setChosen((before) => {
      const next = new Map(before);
      for (const id of ids) {
        const item = items.find((i) => i.id === id);
        if (!on || !item) next.delete(id);
        else next.set(id, bulkTargetsOf(item, list.data?.triage?.[id]));
      }
      return next;
    });
  const receivedText = useReceivedText(list.data?.receivedBy);
  const tenantName = useTenantName();
  // Guests never get it (the api leaves it out); signed-in users' rows show it as a chip.
  const relevance = signedIn ? list.data?.relevance : undefined;
  // SWR counts an answer given as its fallback (the page the server rendered) as loading until its own request is
  // back: rows that are here are shown.
  const isLoading = listParams === null || (list.isLoading && list.data === undefined);
  const sidebar = (
    <Suspense fallback={null}>
      <FilterSidebar filters={state.filters} dispatch={dispatch} options={options} counts={counts} signedIn={signedIn} />
    </Suspense>
  );

  return (
    <>
      <AppHeader
        exportAction={exportAction}
        pageActions={[
          { key: 'save-search', label: 'Save search', onSelect: () => (signedIn ? setSaveOpen(true) : authDialog.open('signin')) },
          { key: 'subscribe', label: 'Subscribe', hasPopup: true, onSelect: setSubscribeAnchor },
        ]}
      />
      <SubscribeMenu params={viewParams} anchor={subscribeAnchor} onClose={() => setSubscribeAnchor(null)} />
      <Container component={MainLandmark} maxWidth={false} sx={{ py: 3, maxWidth: 1600 }}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 2 }}>
          Dashboard
        </Typography>
        {editing ? (
          <Alert
            severity="info"
            sx={{ mb: 2 }}
            action={
              <Stack direction="row" spacing={1}>
                <Button color="inherit" size="small" onClick={() => setSaveOpen(true)}>
                  Save changes
                </Button>
                <Button color="inherit" size="small" onClick={stopEditing}>
                  Stop editing
                </Button>
              </Stack>
            }
          >
            {`Editing saved search “${editing.name}”: change the search or filters, then Save changes.`}
          </Alert>
        ) : null}
        <SinceLastVisitBanner
          visit={visit}
          active={state.filters.sinceLastVisit}
          onShow={(show) => dispatch({ type: 'setSinceLastVisit', sinceLastVisit: show })}
        />
        {signedIn ? <TriageViews view={state.filters.triage} onChange={(triage) => dispatch({ type: 'setTriageView', triage })} /> : null}
        <ListToolbar
          search={state.search}
          onSearch={(search) => dispatch({ type: 'setSearch', search })}
          sortField={state.sortField}
          sortDirection={state.sortDirection}
          onSort={(sortField, sortDirection) => dispatch({ type: 'setSort', sortField, sortDirection })}
          filtersVisible={filtersVisible}
          onToggleFilters={() => (isMobile ? setDrawerOpen(true) : setFiltersVisible((v) => !v))}
          isMobile={isMobile}
          signedIn={signedIn}
        />
        {isModerator && chosen.size > 0 ? (
          <Deferred open>
            <BulkTriageBar targets={[...chosen.values()].flat()} rows={chosen.size} onClear={() => setChosen(new Map())} />
          </Deferred>
        ) : null}
        <Stack direction="row" spacing={3} sx={{ alignItems: 'flex-start' }}>
          {!isMobile && filtersVisible ? (
            <Paper variant="outlined" sx={{ width: SIDEBAR_WIDTH, flexShrink: 0, p: 2, position: 'sticky', top: 16 }}>
              {/* The list first: the filters (a few dozen checkboxes) render right after the first paint, in a frame of
                  fixed width, so nothing moves. */}
              <AfterFirstPaint>{sidebar}</AfterFirstPaint>
            </Paper>
          ) : null}
          <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, p: isMobile ? 1 : 0 }}>
            {list.error ? (
              <Typography role="alert" color="error" sx={{ p: 3 }}>
                Failed to load items. Please try again.
              </Typography>
            ) : isMobile ? (
              <ItemCards
                items={items}
                isLoading={isLoading}
                onOpen={dialog.open}
                now={now}
                receivedText={receivedText}
                triage={signedIn ? (list.data?.triage ?? {}) : undefined}
                relevance={relevance}
                relevanceTenant={tenantName}
              />
            ) : (
              <ItemTable
                items={items}
                isLoading={isLoading}
                sortField={state.sortField}
                sortDirection={state.sortDirection}
                onToggleLastModifiedSort={() => dispatch({ type: 'toggleLastModifiedSort' })}
                onToggleTimingSort={() => dispatch({ type: 'toggleTimingSort' })}
                onOpen={dialog.open}
                now={now}
                receivedText={receivedText}
                triage={signedIn ? (list.data?.triage ?? {}) : undefined}
                relevance={relevance}
                relevanceTenant={tenantName}
                selected={isModerator ? new Set(chosen.keys()) : undefined}
                onSelect={isModerator ? choose : undefined}
                onToggleDueSort={() =>
                  dispatch({ type: 'setSort', sortField: 'due', sortDirection: state.sortField === 'due' && state.sortDirection === 'asc' ? 'desc' : 'asc' })
                }
              />
            )}
            {list.data ? (
              <Box sx={{ px: 2 }}>
                <PaginationFooter
                  page={state.page}
                  totalPages={list.data.totalPages}
                  total={list.data.total}
                  approximate={list.data.totalApproximate === true}
                  onPageChange={(page) => dispatch({ type: 'setPage', page })}
                />
              </Box>
            ) : null}
          </Paper>
        </Stack>
      </Container>
      {isMobile ? (
        <Drawer
          anchor="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          slotProps={{ paper: { sx: { width: SIDEBAR_WIDTH, p: 2 }, 'aria-labelledby': 'filters-drawer-title' } }}
        >
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
            <Typography id="filters-drawer-title" component="h2" variant="h6">
              Filters &amp; Data Sources
            </Typography>
            <IconButton aria-label="Close filters" onClick={() => setDrawerOpen(false)}>
              <icons.CloseIcon />
            </IconButton>
          </Stack>
          {sidebar}
        </Drawer>
      ) : null}
      {saveOpen ? (
        <Deferred open>
          <SaveSearchDialog
            query={savedSearchQueryOf(state)}
            editing={editing}
            droppedSinceLastVisit={state.filters.sinceLastVisit}
            onClose={() => setSaveOpen(false)}
            onSaved={() => {
              setSaveOpen(false);
              if (editing) void refreshEditing();
            }}
          />
        </Deferred>
      ) : null}
      {dialog.item ? (
        <Deferred open>
          <ItemDialog key={dialog.item.id} item={dialog.item} onClose={dialog.close} onOpenItem={dialog.open} onItemChange={dialog.update} />
        </Deferred>
      ) : null}
    </>
  );
}
