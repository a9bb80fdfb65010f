import { isWellFormedNumber, numericParameters } from '../../../api/http/strict-numbers';

describe('numbers in query and path parameters are decimal text', () => {
  it.each(['0', '42', '-3', '007', '9007199254740993', `1${'0'.repeat(300)}`])('integer %s is well formed', (s) => {
    expect(isWellFormedNumber(s, 'integer')).toBe(true);
  });

  it.each(['Infinity', '-Infinity', 'NaN', '0x10', '0b11', '0o7', ' 5', '5 ', '+5', '1_0', '1e1', '5.0', '', '-', `1${'0'.repeat(400)}`, '٣'])(
    'integer %j is malformed',
    (s) => {
      expect(isWellFormedNumber(s, 'integer')).toBe(false);
    },
  );

  it.each(['0', '0.5', '.5', '-1.25', '2.5e-1', '1E3', '1e308'])('number %s is well formed', (s) => {
    expect(isWellFormedNumber(s, 'number')).toBe(true);
  });

  it.each(['Infinity', '1e309', '-1e309', 'NaN', '0x10', '5.', '1e', 'e5', '1.2.3', ' 0.5', '0,5'])('number %j is malformed', (s) => {
    expect(isWellFormedNumber(s, 'number')).toBe(false);
  });
});

describe('the numeric parameters of each operation, read from the document', () => {
  it('resolves parameter and schema references', () => {
    const table = numericParameters({
      paths: {
        '/a/{id}': {
          get: {
            parameters: [
              { $ref: '#/components/parameters/Id' },
              { name: 'limit', in: 'query', schema: { type: 'integer' } },
              { name: 'p', in: 'query', schema: { $ref: '#/components/schemas/Prob' } },
              { name: 'tier', in: 'query', schema: { type: 'string' } },
              { name: 'X-N', in: 'header', schema: { type: 'integer' } },
            ],
          },
        },
        '/b': { get: {} },
      },
      components: { parameters: { Id: { name: 'id', in: 'path', schema: { type: 'integer' } } }, schemas: { Prob: { type: 'number' } } },
    });
    expect(table.get('GET /a/{id}')).toEqual([
      { name: 'id', in: 'path', type: 'integer' },
      { name: 'limit', in: 'query', type: 'integer' },
      { name: 'p', in: 'query', type: 'number' },
    ]);
    expect(table.has('GET /b')).toBe(false);
  });
});
