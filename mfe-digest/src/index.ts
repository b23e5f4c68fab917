// zod parses without eval under the product's CSP (the shell does the same for a remote it hosts).
import '@radar/contracts/zod-config';

// Async boundary: shared modules (React, MUI, shared-ui) are negotiated before the bootstrap runs.
import('./bootstrap.js');
