import { metadataFetchUrl, metadataQuality } from '../../../domain/metadata/launch-metadata';

const onChain = { name: 'Pepe Coin', symbol: 'PEPE' };
const doc = (o: Record<string, unknown> = {}) => ({ kind: 'fetched' as const, doc: { name: 'Pepe Coin', symbol: 'PEPE', image: 'ipfs://bafyimage', ...o } });

describe('launch metadata quality', () => {
  it('is unknown before the fetch was tried', () => {
    expect(metadataQuality(null, onChain)).toEqual({ has_socials: null, metadata_ok: null });
  });

  it('is ok when name, symbol and image agree with the launch, and has socials when an http link is there', () => {
    expect(metadataQuality(doc(), onChain)).toEqual({ has_socials: false, metadata_ok: true });
    expect(metadataQuality(doc({ twitter: 'https://x.com/pepe' }), onChain)).toEqual({ has_socials: true, metadata_ok: true });
    expect(metadataQuality(doc({ extensions: { website: 'https://pepe.example' } }), onChain).has_socials).toBe(true);
    expect(metadataQuality(doc({ telegram: 'not a link', website: '' }), onChain).has_socials).toBe(false);
  });

  it('is not ok when the document disagrees with the chain or lacks an image', () => {
    expect(metadataQuality(doc({ symbol: 'PEPE2' }), onChain).metadata_ok).toBe(false);
    expect(metadataQuality(doc({ name: 42 }), onChain).metadata_ok).toBe(false);
    expect(metadataQuality(doc({ image: 'file:///etc/passwd' }), onChain).metadata_ok).toBe(false);
    expect(metadataQuality({ kind: 'fetched', doc: [1, 2] }, onChain)).toEqual({ has_socials: false, metadata_ok: false });
  });

  it('is not ok, with socials unknown, when the document could not be read', () => {
    expect(metadataQuality({ kind: 'failed', outcome: 'timeout', reason: 'timeout after 5000 ms' }, onChain)).toEqual({
      has_socials: null,
      metadata_ok: false,
    });
  });
});

describe('metadata fetch address', () => {
  it('fetches http(s) as is and ipfs through the gateway; nothing else', () => {
    expect(metadataFetchUrl('https://meta.example/a.json', 'https://gw.example')).toBe('https://meta.example/a.json');
    expect(metadataFetchUrl('ipfs://bafyabc/meta.json', 'https://gw.example/')).toBe('https://gw.example/ipfs/bafyabc/meta.json');
    expect(metadataFetchUrl('ipfs://ipfs/bafyabc', 'https://gw.example')).toBe('https://gw.example/ipfs/bafyabc');
    expect(metadataFetchUrl('ar://xyz', 'https://gw.example')).toBeNull();
    expect(metadataFetchUrl('file:///etc/passwd', 'https://gw.example')).toBeNull();
  });
});
