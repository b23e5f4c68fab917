// The MUI of screens opened after the first one: dialogs (the sign-in dialog, the item dialog, confirmations), tabs
// and pagination (Admin), radios, lists (the profile's cards, the mobile menu), and the switches, labelled
// checkboxes and folding sections of forms and of the dashboard's filter panel (loaded when it is first opened).
// Provided by the shell as '@radar/vendor-mui-more' and fetched the first time such a screen loads: the dashboard's
// first screen does not wait for it. See ./mui-core.mjs.
export {
  Collapse,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  FormLabel,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  Pagination,
  Radio,
  RadioGroup,
  Switch,
  Tab,
  Tabs,
} from 'radar-vendor/mui';
