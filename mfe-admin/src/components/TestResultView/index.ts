export { integrationTestView, tenantTestView, TestResult, type TestCheckView, type TestResultView } from './TestResult.js';
