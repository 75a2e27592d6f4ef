/** Prepared calls live in src/base/prepare.ts, below the backends; re-exported here for the layers above. */
export * from '../base/prepare.js';
