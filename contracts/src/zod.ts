// Every schema module takes `z` from here, so whatever bundles a schema also bundles zod's configuration
// (zod-config.ts: no `new Function` under the product's CSP), set before anything parses. A bundle with no schema
// (a first paint: apps call the api through `routes`) carries neither.
import './zod-config.js';

export { z } from 'zod';
