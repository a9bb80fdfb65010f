export type PaymentLinks = { solana_pay: string; phantom: string; solflare: string; backpack: string };

/**
 * A Solana Pay transfer request (https://docs.solanapay.com/spec): recipient, exact amount as a decimal string, and
 * the memo the wallet attaches as an SPL Memo instruction; label and message are what the wallet shows the payer.
 * With `splToken` the amount is in that mint's UI units and the wallet sends to the recipient's associated token
 * account for the mint; without it the amount is SOL.
 */
export function solanaPayUrl(o: { recipient: string; amount: string; splToken?: string | null; memo: string; label: string; message: string }): string {
  const q = [
    `amount=${o.amount}`,
    ...(o.splToken ? [`spl-token=${o.splToken}`] : []),
    `label=${encodeURIComponent(o.label)}`,
    `message=${encodeURIComponent(o.message)}`,
    `memo=${encodeURIComponent(o.memo)}`,
  ];
  return `solana:${o.recipient}?${q.join('&')}`;
}

/**
 * Wallet apps have no entry point that takes a Solana Pay request directly (Phantom says so in its docs); each
 * offers a universal "browse" link that opens a page in the wallet's in-app browser. Those links open our pay
 * page (`payPageUrl`), which shows the amount, treasury and memo and carries the Solana Pay link.
 */
export function paymentLinks(o: Parameters<typeof solanaPayUrl>[0] & { payPageUrl: string; refUrl: string }): PaymentLinks {
  const page = encodeURIComponent(o.payPageUrl);
  const ref = encodeURIComponent(o.refUrl);
  return {
    solana_pay: solanaPayUrl(o),
    phantom: `https://phantom.app/ul/browse/${page}?ref=${ref}`,
    solflare: `https://solflare.com/ul/v1/browse/${page}?ref=${ref}`,
    backpack: `https://backpack.app/ul/v1/browse/${page}?ref=${ref}`,
  };
}
