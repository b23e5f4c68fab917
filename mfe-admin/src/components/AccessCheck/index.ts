export { AccessCheck } from './AccessCheck.js';
