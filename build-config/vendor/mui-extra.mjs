// The MUI no page needs for its first paint but the dashboard's first screen does: tables, menus, drawers, the search
// field, the sort and view toggles. Provided by the shell as '@radar/vendor-mui-extra' and fetched the first time a screen that uses it
// loads (a remote, a form). Dialogs, tabs, pagination, lists and the filter
// panel's parts are in ./mui-more.mjs. See ./mui-core.mjs.
export {
  CardActionArea,
  Checkbox,
  Drawer,
  FormControl,
  FormHelperText,
  InputAdornment,
  InputLabel,
  ListItemText,
  Menu,
  MenuItem,
  Popover,
  Select,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
} from 'radar-vendor/mui';
