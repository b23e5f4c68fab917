// The MUI only screens opened on demand use, and heavy enough to keep out of the part every table or form page loads:
// the people picker's Autocomplete (the triage panel and the bulk triage bar, both loaded when opened, and an admin
// dialog). Provided by the shell as '@radar/vendor-mui-rare' and fetched the first time such a screen loads.
// See ./mui-core.mjs.
export { Autocomplete } from 'radar-vendor/mui';
