import type { NewIntent } from '../../db/billing/payment-intent-store';
import { amountToPay, tokensUiString } from '../../domain/billing/pay-with';
import { paymentLinks, type PaymentLinks } from '../../domain/billing/payment-links';

export const PAYMENT_LABEL = 'Launchpad API';

type ViewedIntent = Pick<NewIntent, 'memo' | 'tier' | 'plan' | 'amountLamports' | 'payWith' | 'token' | 'treasury'>;

/** The pay page and the wallet links of an intent; one place so creation and status answer the same links. */
export function intentLinks(i: ViewedIntent, publicBaseUrl: string): PaymentLinks {
  return paymentLinks({
    recipient: i.treasury,
    ...amountToPay(i),
    memo: i.memo,
    label: PAYMENT_LABEL,
    message: `${i.tier} ${i.plan} plan`,
    payPageUrl: `${publicBaseUrl}/pay/${i.memo}`,
    refUrl: publicBaseUrl,
  });
}

/** The fields of `pay_with` shared by the creation response and the status read. */
export function payWithFields(i: ViewedIntent): { pay_with: 'sol' | 'token'; amount_tokens: string | null; token_mint: string | null } {
  return { pay_with: i.payWith, amount_tokens: i.token ? tokensUiString(i.token.amountRaw, i.token.decimals) : null, token_mint: i.token?.mint ?? null };
}
