import fs from 'node:fs';
import YAML from 'yaml';
import { API_SPEC_PATH } from '../../../api/api-spec';
import { operationsWithoutInputs } from '../../../api/http/no-input-operations';

describe('operations without inputs (request validation skipped when the request brings nothing)', () => {
  const noInputs = operationsWithoutInputs(YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8')));

  it('lists the public reads that take nothing', () => {
    for (const op of ['GET /api/scope', 'GET /api/health', 'GET /api/status', 'GET /api/accuracy']) expect(noInputs).toContain(op);
  });

  it('leaves out every operation with a parameter or a body', () => {
    expect(noInputs).not.toContain('GET /api/v1/live');
    // /api/live declares its If-None-Match header.
    expect(noInputs).not.toContain('GET /api/live');
    expect(noInputs).not.toContain('GET /api/signup/wallet/{link_id}');
    expect(noInputs).not.toContain('POST /api/signup/wallet/init');
  });

  it('counts path-level parameters as inputs', () => {
    const doc = { paths: { '/a/{id}': { parameters: [{ name: 'id', in: 'path' }], get: {} }, '/b': { get: {}, post: { requestBody: {} } } } };
    expect([...operationsWithoutInputs(doc)]).toEqual(['GET /b']);
  });
});
