import { useEffect, useEffectEvent, useState } from 'react';
import { Button, InputAdornment, ListItemText, Menu, MenuItem, Stack, TextField } from '@mui/material';
import type { SortDirection, SortField } from '../../state/dashboard-filters.js';

export const SEARCH_DEBOUNCE_MS = 300;

export const SORT_OPTIONS: { label: string; sortField: SortField; sortDirection: SortDirection }[] = [
  { label: 'Created Date (Newest)', sortField: 'createdDate', sortDirection: 'desc' },
  { label: 'Created Date (Oldest)', sortField: 'createdDate', sortDirection: 'asc' },
  { label: 'Modified Date (Newest)', sortField: 'modifiedDate', sortDirection: 'desc' },
  { label: 'Modified Date (Oldest)', sortField: 'modifiedDate', sortDirection: 'asc' },
  { label: 'Most Slipped (Release Date Moves)', sortField: 'releaseMoves', sortDirection: 'desc' },
  { label: 'Timing of Change (Soonest)', sortField: 'timing', sortDirection: 'asc' },
  { label: 'Timing of Change (Latest)', sortField: 'timing', sortDirection: 'desc' },
  { label: 'Due Date (Soonest)', sortField: 'due', sortDirection: 'asc' },
  { label: 'Due Date (Latest)', sortField: 'due', sortDirection: 'desc' },
  // High, then Medium, Low, Unknown: from the tenants' usage (docs/product/relevance.md).
  { label: 'Relevant to us first', sortField: 'relevance', sortDirection: 'desc' },
];

/** Sorts only signed-in users have: the due date is the triage's, relevance reads the tenants' usage. */
const SIGNED_IN_SORTS: readonly SortField[] = ['due', 'relevance'];

export interface ListToolbarProps {
  search: string;
  onSearch: (search: string) => void;
  sortField: SortField;
  sortDirection: SortDirection;
  onSort: (sortField: SortField, sortDirection: SortDirection) => void;
  /** Signed-in users may also sort by due date and by relevance. */
  signedIn?: boolean;
  filtersVisible: boolean;
  onToggleFilters: () => void;
  /** On mobile the button opens the drawer and always reads 'Show Filters'. */
  isMobile: boolean;
}

/** Show/Hide Filters, the debounced search box and the 'Sort by' menu. */
export function ListToolbar({
  search,
  onSearch,
  sortField,
  sortDirection,
  onSort,
  filtersVisible,
  onToggleFilters,
  isMobile,
  signedIn = false,
}: ListToolbarProps) {
  const options = signedIn ? SORT_OPTIONS : SORT_OPTIONS.filter((o) => !SIGNED_IN_SORTS.includes(o.sortField));
  const [text, setText] = useState(search);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  // Keep the box in step when the search is changed from outside (e.g. reset), adjusted during render.
  const [applied, setApplied] = useState(search);
  if (applied !== search) {
    setApplied(search);
    setText(search);
  }
  // The debounce timer calls the latest onSearch without restarting when the parent re-renders.
  const searchNow = useEffectEvent((value: string) => onSearch(value));

  useEffect(() => {
    if (text === search) return undefined;
    const timer = setTimeout(() => searchNow(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, search]);

  const current = options.find((o) => o.sortField === sortField && o.sortDirection === sortDirection);

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' }, mb: 2 }}>
      <Button variant="outlined" onClick={onToggleFilters} aria-expanded={isMobile ? undefined : filtersVisible} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
        {filtersVisible && !isMobile ? 'Hide Filters' : 'Show Filters'}
      </Button>
      <TextField
        type="search"
        size="small"
        placeholder="Search items..."
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onSearch(text);
        }}
        fullWidth
        slotProps={{
          htmlInput: { 'aria-label': 'Search items', maxLength: 200 },
          input: { startAdornment: <InputAdornment position="start">⌕</InputAdornment> },
        }}
      />
      <Button
        variant="outlined"
        id="sort-button"
        aria-haspopup="menu"
        aria-controls={menuAnchor ? 'sort-menu' : undefined}
        aria-expanded={menuAnchor ? true : undefined}
        onClick={(e) => setMenuAnchor(e.currentTarget)}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
      >
        Sort by{current ? `: ${current.label}` : ''}
      </Button>
      <Menu
        id="sort-menu"
        anchorEl={menuAnchor}
        open={Boolean(menuAnchor)}
        onClose={() => setMenuAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': 'sort-button' } }}
      >
        {options.map((option) => (
          <MenuItem
            key={option.label}
            selected={option === current}
            onClick={() => {
              onSort(option.sortField, option.sortDirection);
              setMenuAnchor(null);
            }}
          >
            <ListItemText>{option.label}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </Stack>
  );
}
