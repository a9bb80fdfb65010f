import type { NewIntent } from '../../db/billing/payment-intent-store';
import { paymentLinks, type PaymentLinks } from '../../domain/billing/payment-links';

export const PAYMENT_LABEL = 'Launchpad API';

/** The pay page and the wallet links of an intent; one place so creation and status answer the same links. */
export function intentLinks(i: Pick<NewIntent, 'memo' | 'tier' | 'plan' | 'amountLamports' | 'treasury'>, publicBaseUrl: string): PaymentLinks {
  return paymentLinks({
    recipient: i.treasury,
    amountLamports: i.amountLamports,
    memo: i.memo,
    label: PAYMENT_LABEL,
    message: `${i.tier} ${i.plan} plan`,
    payPageUrl: `${publicBaseUrl}/pay/${i.memo}`,
    refUrl: publicBaseUrl,
  });
}
