export { ShellLayout } from './ShellLayout.js';
