/** What a holder-token burn owes to: a plan paid in the token (its receipt) or a week's share of SOL revenue. */
export type BurnKind = 'payment_receipt' | 'revenue_commitment';
