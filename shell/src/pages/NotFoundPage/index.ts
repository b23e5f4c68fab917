// The 404 page lives in shared-ui: every remote shows it too for its unknown sub-paths (/admin/x, /dashboard/x).
export { NotFoundPage } from '@radar/shared-ui';
