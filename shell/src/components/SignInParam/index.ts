export { SignInParam } from './SignInParam.js';
