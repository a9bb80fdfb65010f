import { Router } from 'express';

/** Free key issuance closed on 2026-06-11: keys come from a paid plan or holder-token signup. */
export function keysRoutes(): Router {
  const r = Router();
  r.post('/api/keys/new', (_req, res) => {
    res.status(402).json({
      error: 'payment_required',
      message:
        'free key issuance is closed (since 2026-06-11); create a payment intent at /api/upgrade or sign up with the holder token at /api/signup/wallet/init',
      upgrade_url: '/api/upgrade',
    });
  });
  return r;
}
