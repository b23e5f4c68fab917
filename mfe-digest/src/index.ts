// Async boundary: shared modules (React, MUI, shared-ui) are negotiated before the bootstrap runs.
import('./bootstrap.js');
