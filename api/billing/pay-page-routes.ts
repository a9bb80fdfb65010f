import { Router } from 'express';
import type { PaymentIntentStore } from '../../db/billing/payment-intent-store';
import { amountToPay } from '../../domain/billing/pay-with';
import { intentLinks, PAYMENT_LABEL } from './payment-intent-view';

const MEMO = /^[A-Za-z0-9_-]{8,64}$/;
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page wallet apps open through their browse links: what to pay, to whom, with which memo, and the Solana Pay
 * link a wallet completes. Served outside openapi.yaml (HTML, like /docs); it shows nothing the status reveals not.
 */
export function payPageRoutes(d: { paymentIntentStore: PaymentIntentStore; publicBaseUrl: string }): Router {
  const r = Router();
  r.get('/pay/:memo', async (req, res) => {
    const memo = req.params.memo;
    const i = MEMO.test(memo) ? await d.paymentIntentStore.get(memo) : undefined;
    if (!i) return void res.status(404).type('html').send('<!doctype html><title>Unknown payment</title><p>No payment intent with this memo.</p>');
    const links = intentLinks(i, d.publicBaseUrl);
    const { amount, splToken } = amountToPay(i);
    const what = splToken ? `${amount} tokens of ${splToken}` : `${amount} SOL`;
    res.type('html').set('Cache-Control', 'no-store').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(PAYMENT_LABEL)}: pay ${esc(what)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem}code{word-break:break-all;background:#f4f4f4;padding:.1rem .3rem}a.pay{display:inline-block;padding:.6rem 1.2rem;background:#512da8;color:#fff;border-radius:.4rem;text-decoration:none}</style>
</head><body>
<h1>${esc(i.tier)} ${esc(i.plan)} plan</h1>
<p>Send exactly <strong>${esc(what)}</strong> to <code>${esc(i.treasury)}</code> with the memo <code>${esc(i.memo)}</code>
before ${esc(i.expiresAt.toISOString())}. The plan activates about 30 s after the transfer is confirmed.</p>
<p><a class="pay" href="${esc(links.solana_pay)}">Pay with a Solana wallet</a></p>
<p>Status: <a href="/api/upgrade/${esc(i.memo)}">/api/upgrade/${esc(i.memo)}</a> (currently <strong>${esc(i.status)}</strong>).</p>
</body></html>`);
  });
  return r;
}
