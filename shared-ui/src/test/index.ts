// Importing the helpers also brings the jest-dom matcher types into the test's program.
import '@testing-library/jest-dom/jest-globals';
export { stubFetch, makeUser, type FetchCall, type StubAnswer } from './fetch-stub.js';
export { renderWithProviders } from './render.js';
export { withFirstCommit } from './first-commit.js';
export { emptyItem, makeMessageItem, makeRoadmapItem } from './item-fixtures.js';
export { setViewportWidth } from './viewport.js';
