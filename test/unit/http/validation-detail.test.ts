import { locFromPath, toValidationDetail } from '../../../api/http/validation-detail';

describe('422 detail mapping', () => {
  it('turns validator paths into loc lists', () => {
    expect(locFromPath('.query.limit')).toEqual(['query', 'limit']);
    expect(locFromPath('.params.mint')).toEqual(['path', 'mint']);
    expect(locFromPath('.body.items.0.name')).toEqual(['body', 'items', 0, 'name']);
    expect(locFromPath('/body/wallet')).toEqual(['body', 'wallet']);
  });

  it('gives type, input and ctx for a bound violation', () => {
    const [item] = toValidationDetail([{ path: '.query.limit', message: 'must be <= 200', errorCode: 'maximum.openapi.validation' }], {
      query: { limit: 500 },
    });
    expect(item).toEqual({ loc: ['query', 'limit'], msg: 'must be <= 200', type: 'less_than_equal', input: 500, ctx: { le: 200 } });
  });

  it('points a missing body field at the field, without input', () => {
    const [item] = toValidationDetail([{ path: '.body', message: "must have required property 'wallet'", errorCode: 'required.openapi.validation' }], {
      body: {},
    });
    expect(item).toEqual({ loc: ['body', 'wallet'], msg: "must have required property 'wallet'", type: 'missing' });
  });

  it('names the parsing failure for a wrong type', () => {
    const [item] = toValidationDetail([{ path: '.query.min_prob', message: 'must be number', errorCode: 'type.openapi.validation' }], {
      query: { min_prob: 'abc' },
    });
    expect(item).toMatchObject({ loc: ['query', 'min_prob'], type: 'float_parsing', input: 'abc', ctx: { expected: 'number' } });
  });

  it('never answers an empty detail list', () => {
    expect(toValidationDetail([], {})).toHaveLength(1);
  });
});
