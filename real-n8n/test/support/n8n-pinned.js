'use strict';
// Jest setup of the project that runs the end-to-end suites in the pinned n8n of the matrix (real-n8n/lib/runtimes.js).
process.env.E2E_N8N = 'pinned';
