import path from 'node:path';

/** openapi.yaml, the contract: the validator, /docs and the tests read it from here. */
export const API_SPEC_PATH = path.resolve(__dirname, '..', 'openapi.yaml');
