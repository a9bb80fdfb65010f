/**
 * How express-openapi-validator checks requests: the app's validator and the parameter checks generated from
 * openapi.yaml (scripts/gen-param-checks.ts) are built from these one set of options, so they refuse alike.
 * Query and path parameters are always coerced from strings; JSON bodies must carry the right types.
 */
export const VALIDATE_REQUESTS = { allErrors: true, coerceTypes: false } as const;
