export { SignedOutParam } from './SignedOutParam.js';
