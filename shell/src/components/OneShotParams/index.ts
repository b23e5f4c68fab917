export { OneShotParams } from './OneShotParams.js';
