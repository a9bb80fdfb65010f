import { sealKey, unsealKey } from '../../../domain/access/sealed-key';
import { verifyWalletSignature, walletLinkMessage, walletSignupMessage } from '../../../domain/access/wallet-proof';
import { testWallet } from '../../support/test-wallet';

describe('wallet proofs', () => {
  it('the link message is exactly the documented one', () => {
    expect(walletLinkMessage('lp_live_abcDEF2345', 'So11111111111111111111111111111111111111112')).toBe(
      'service :: link wallet to api_key_prefix=lp_live_abcDEF2345 :: So11111111111111111111111111111111111111112',
    );
    expect(walletSignupMessage('L1nk-id_xy', 'api', 'W')).toBe('service :: holder signup for api access link_id=L1nk-id_xy :: W');
  });

  it('verifies the wallet’s own signature of the exact message only', () => {
    const [w, other] = [testWallet(), testWallet()];
    const m = walletLinkMessage('lp_live_abcDEF2345', w.address);
    expect(verifyWalletSignature(m, w.sign(m), w.address)).toBe(true);
    expect(verifyWalletSignature(`${m}.`, w.sign(m), w.address)).toBe(false);
    expect(verifyWalletSignature(m, other.sign(m), w.address)).toBe(false);
    expect(verifyWalletSignature(m, w.sign(m), other.address)).toBe(false);
    for (const junk of ['', '0OIl', '1'.repeat(64), 'ключ']) expect(verifyWalletSignature(m, junk, w.address)).toBe(false);
    expect(verifyWalletSignature(m, w.sign(m), 'not-an-address')).toBe(false);
  });
});

describe('sealed keys', () => {
  it('round-trips under the same secret and fails closed otherwise', () => {
    const sealed = sealKey('lp_live_x_secret', 'a-secret-of-16+chars');
    expect(sealed.toString('latin1')).not.toContain('secret');
    expect(unsealKey(sealed, 'a-secret-of-16+chars')).toBe('lp_live_x_secret');
    expect(unsealKey(sealed, 'another-secret-16+')).toBeNull();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] = tampered[tampered.length - 1]! ^ 1;
    expect(unsealKey(tampered, 'a-secret-of-16+chars')).toBeNull();
    expect(unsealKey(Buffer.alloc(5), 'a-secret-of-16+chars')).toBeNull();
  });
});
