import type { Dispatch } from 'react';
import { Box, Button, Checkbox, FormControlLabel, FormGroup, Stack, Switch, Typography } from '@mui/material';
import {
  CHANGED_CHANGE_TYPES,
  CLOUD_INSTANCES,
  formatCount,
  NEW_CHANGE_TYPES,
  PRODUCT_FAMILIES,
  PRODUCT_FAMILY_LABELS,
  RELEASE_MOVED_WINDOWS,
  ROLLING_OUT_WINDOWS,
  routes,
  HEALTH_CLASSIFICATION_LABELS,
  HEALTH_CLASSIFICATIONS,
  HEALTH_STATES,
  type ChangeTypeOption,
  type FilterCountsResponse,
  type HealthState,
  type Source,
  type FilterOptionsResponse,
  type ReleaseMovedWindow,
  type RollingOutWindow,
} from '@radar/contracts';
import { useEndpoint } from '@radar/shared-ui';
import { canClearAll, type DashboardAction, type DashboardFilters, type ListFilterKey } from '../../state/dashboard-filters.js';
import { isRelevanceLevel, RELEVANCE_LABELS, RELEVANCE_ORDER } from '../../state/relevance-levels.js';
import { FilterSection } from './FilterSection.js';

export interface FilterSidebarProps {
  filters: DashboardFilters;
  dispatch: Dispatch<DashboardAction>;
  options: FilterOptionsResponse | undefined;
  counts: FilterCountsResponse | undefined;
  /** "Since my last visit" and Relevance are offered to signed-in users only (visits and usage are theirs). */
  signedIn?: boolean;
}

const MOVED_LABELS: Record<ReleaseMovedWindow, string> = { '7days': 'Last 7 Days', '30days': 'Last 30 Days' };
const ROLLING_OUT_LABELS: Record<RollingOutWindow, string> = { '7days': 'Next 7 Days', '30days': 'Next 30 Days', '90days': 'Next 90 Days' };
const FAMILY_OPTIONS = PRODUCT_FAMILIES.map((value) => ({ value, label: PRODUCT_FAMILY_LABELS[value] }));
const RELEVANCE_OPTIONS = RELEVANCE_ORDER.map((value) => ({ value, label: RELEVANCE_LABELS[value] }));

/** Message Center tags whose name alone does not say what they mean. */
const TAG_LABELS: Record<string, string> = { 'Deferred feature': 'Deferred feature (Standard/Deferred release)' };

const SOURCE_OPTIONS = [
  { value: 'roadmap', label: 'Roadmap (Future Features)' },
  { value: 'messages', label: 'Message Center (Current Updates)' },
  { value: 'health', label: 'Service Health (Incidents and Advisories)' },
] as const;

const HEALTH_STATE_LABELS: Record<HealthState, string> = { active: 'Active', resolved: 'Resolved' };
const CLASSIFICATION_OPTIONS = HEALTH_CLASSIFICATIONS.map((value) => ({ value, label: HEALTH_CLASSIFICATION_LABELS[value] }));

const WINDOW_LABELS: Record<ChangeTypeOption, string> = {
  new_1_day: 'Last 1 Day',
  new_7days: 'Last 7 Days',
  new_30days: 'Last 30 Days',
  changed_1_day: 'Last 1 Day',
  changed_7days: 'Last 7 Days',
  changed_30days: 'Last 30 Days',
};

const countOf = (list: { name: string; count: number }[] | undefined, name: string) =>
  list?.find((entry) => entry.name.toLowerCase() === name.toLowerCase())?.count;

function CheckList({
  values,
  selected,
  onToggle,
  counts,
  label,
}: {
  values: readonly { value: string; label: string }[];
  selected: string[];
  onToggle: (value: string) => void;
  counts?: { name: string; count: number }[];
  label: string;
}) {
  if (values.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No options available
      </Typography>
    );
  }
  return (
    <FormGroup role="group" aria-label={label} sx={{ maxHeight: 280, overflowY: 'auto', flexWrap: 'nowrap' }}>
      {values.map(({ value, label: text }) => {
        const count = counts ? countOf(counts, value) : undefined;
        return (
          <FormControlLabel
            key={value}
            control={<Checkbox size="small" checked={selected.includes(value)} onChange={() => onToggle(value)} />}
            label={
              <Box component="span" sx={{ display: 'flex', gap: 1, justifyContent: 'space-between', width: '100%' }}>
                <span>{text}</span>
                {count !== undefined ? (
                  <Box component="span" sx={{ color: 'text.secondary' }} aria-label={formatCount(count, 'item')}>
                    {count}
                  </Box>
                ) : null}
              </Box>
            }
            sx={{ mr: 0, '& .MuiFormControlLabel-label': { flex: 1, fontSize: 14 } }}
          />
        );
      })}
    </FormGroup>
  );
}

const asOptions = (list: string[] | undefined) => (list ?? []).map((value) => ({ value, label: TAG_LABELS[value] ?? value }));

/** The dashboard's filters, plus the Cloud Instance filter for roadmap items. */
export function FilterSidebar({ filters, dispatch, options, counts, signedIn = false }: FilterSidebarProps) {
  const toggleList = (key: ListFilterKey) => (value: string) => dispatch({ type: 'toggleListValue', key, value });
  // The tenants whose posts the caller may see; the filter shows once there is more than one to choose from.
  const visibleTenants = useEndpoint(routes.tenants.visible, {});
  const tenantOptions = (visibleTenants.data?.tenants ?? []).map((t) => ({ value: String(t.id), label: t.name }));
  const changeGroup = (title: string, group: readonly ChangeTypeOption[]) => (
    <FormGroup role="group" aria-label={title}>
      <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {group.map((changeType) => (
        <FormControlLabel
          key={changeType}
          control={
            <Checkbox size="small" checked={filters.changeTypes.includes(changeType)} onChange={() => dispatch({ type: 'toggleChangeType', changeType })} />
          }
          label={WINDOW_LABELS[changeType]}
          sx={{ '& .MuiFormControlLabel-label': { fontSize: 14 } }}
        />
      ))}
    </FormGroup>
  );

  return (
    <Box component="aside" aria-label="Filters">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', minHeight: 36 }}>
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 700 }}>
          Filters
        </Typography>
        {canClearAll(filters) ? (
          <Button size="small" onClick={() => dispatch({ type: 'clearAll' })}>
            Clear All
          </Button>
        ) : null}
      </Stack>
      <FormControlLabel
        control={<Switch checked={filters.featured} onChange={(e) => dispatch({ type: 'setFeatured', featured: e.target.checked })} />}
        label="Featured Items"
      />
      <FilterSection title="Data Source" defaultOpen>
        <CheckList
          label="Data Source"
          values={SOURCE_OPTIONS}
          selected={filters.sources}
          onToggle={(value) => dispatch({ type: 'toggleSource', source: value as Source })}
        />
        <FormControlLabel
          control={
            <Switch size="small" checked={filters.includeRemoved} onChange={(e) => dispatch({ type: 'setIncludeRemoved', includeRemoved: e.target.checked })} />
          }
          label="Include removed and expired"
          sx={{ mt: 0.5, '& .MuiFormControlLabel-label': { fontSize: 14 } }}
        />
        <FormControlLabel
          control={<Switch size="small" checked={filters.licensed} onChange={(e) => dispatch({ type: 'setLicensed', licensed: e.target.checked })} />}
          label="Only products we license"
          title="Items of products your tenants license, of products every tenant has, and of products no licence rule knows"
          sx={{ mt: 0.5, '& .MuiFormControlLabel-label': { fontSize: 14 } }}
        />
      </FilterSection>
      <FilterSection title="Recent Activity" defaultOpen>
        <Stack spacing={1}>
          {signedIn ? (
            <FormControlLabel
              control={
                <Checkbox
                  size="small"
                  checked={filters.sinceLastVisit}
                  onChange={(e) => dispatch({ type: 'setSinceLastVisit', sinceLastVisit: e.target.checked })}
                />
              }
              label="Since my last visit"
              sx={{ '& .MuiFormControlLabel-label': { fontSize: 14 } }}
            />
          ) : null}
          {changeGroup('New items', NEW_CHANGE_TYPES)}
          {changeGroup('Changed items', CHANGED_CHANGE_TYPES)}
          <FormGroup role="group" aria-label="Release date moved">
            <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
              Release date moved
            </Typography>
            {RELEASE_MOVED_WINDOWS.map((window) => (
              <FormControlLabel
                key={window}
                control={<Checkbox size="small" checked={filters.releaseMoved === window} onChange={() => dispatch({ type: 'toggleReleaseMoved', window })} />}
                label={MOVED_LABELS[window]}
                sx={{ '& .MuiFormControlLabel-label': { fontSize: 14 } }}
              />
            ))}
          </FormGroup>
        </Stack>
      </FilterSection>
      {signedIn ? (
        <FilterSection title="Relevance">
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 0.5 }}>
            How many people in your tenants use what the item changes
          </Typography>
          <CheckList
            label="Relevance"
            values={RELEVANCE_OPTIONS}
            selected={filters.relevance}
            onToggle={(value) => (isRelevanceLevel(value) ? dispatch({ type: 'toggleRelevance', level: value }) : undefined)}
          />
        </FilterSection>
      ) : null}
      <FilterSection title="Timing of Change">
        <FormGroup role="group" aria-label="Rolling out">
          <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
            Rolling out in the
          </Typography>
          {ROLLING_OUT_WINDOWS.map((window) => (
            <FormControlLabel
              key={window}
              control={<Checkbox size="small" checked={filters.rollingOut === window} onChange={() => dispatch({ type: 'toggleRollingOut', window })} />}
              label={ROLLING_OUT_LABELS[window]}
              sx={{ '& .MuiFormControlLabel-label': { fontSize: 14 } }}
            />
          ))}
        </FormGroup>
      </FilterSection>
      <FilterSection title="Product Family">
        <CheckList label="Product Family" values={FAMILY_OPTIONS} selected={filters.productFamilies} onToggle={toggleList('productFamilies')} />
      </FilterSection>
      <FilterSection title="Products">
        <CheckList label="Products" values={asOptions(options?.products)} selected={filters.products} onToggle={toggleList('products')} />
      </FilterSection>
      <FilterSection title="Roadmap Status">
        <CheckList
          label="Roadmap Status"
          values={asOptions(options?.roadmapStatuses)}
          selected={filters.roadmapStatuses}
          onToggle={toggleList('roadmapStatuses')}
          counts={counts?.roadmapStatuses ?? []}
        />
      </FilterSection>
      <FilterSection title="Message Center Tags">
        <CheckList
          label="Message Center Tags"
          values={asOptions(options?.messageCenterTags)}
          selected={filters.messageCenterTags}
          onToggle={toggleList('messageCenterTags')}
          counts={counts?.messageCenterTags ?? []}
        />
      </FilterSection>
      <FilterSection title="Cloud Instance">
        <CheckList label="Cloud Instance" values={CLOUD_INSTANCES} selected={filters.cloudInstances} onToggle={toggleList('cloudInstances')} />
      </FilterSection>
      <FilterSection title="Service Health">
        <Stack spacing={1}>
          <FormGroup role="group" aria-label="Service Health status">
            <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
              Status
            </Typography>
            {HEALTH_STATES.map((state) => (
              <FormControlLabel
                key={state}
                control={
                  <Checkbox
                    size="small"
                    checked={filters.healthStatus === state}
                    onChange={() => dispatch({ type: 'toggleHealthStatus', healthStatus: state })}
                  />
                }
                label={HEALTH_STATE_LABELS[state]}
                sx={{ '& .MuiFormControlLabel-label': { fontSize: 14 } }}
              />
            ))}
          </FormGroup>
          <CheckList
            label="Classification"
            values={CLASSIFICATION_OPTIONS}
            selected={filters.healthClassifications}
            onToggle={toggleList('healthClassifications')}
          />
        </Stack>
      </FilterSection>
      {tenantOptions.length > 1 ? (
        <FilterSection title="Tenant">
          <CheckList label="Tenant" values={tenantOptions} selected={filters.tenants} onToggle={toggleList('tenants')} />
        </FilterSection>
      ) : null}
    </Box>
  );
}
