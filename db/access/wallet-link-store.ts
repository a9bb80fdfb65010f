import type { HolderAccess } from '../../domain/access/tiers';
import { createApiKeyStore } from './api-key-store';
import type { Db } from '../db-handle';
import { asDb, knexOf } from '../knex-handle';

export type WalletLinkStatus = 'pending' | 'fulfilled' | 'ineligible' | 'expired';

export type WalletLinkRecord = {
  linkId: string;
  wallet: string;
  access: HolderAccess;
  message: string;
  status: WalletLinkStatus;
  createdAt: Date;
  expiresAt: Date;
  balance: number | null;
  threshold: number;
  keyPrefix: string | null;
  fulfilledAt: Date | null;
  keyCiphertext: Buffer | null;
  keyVisibleUntil: Date | null;
};

export type NewWalletLink = Pick<WalletLinkRecord, 'linkId' | 'wallet' | 'access' | 'message' | 'threshold' | 'createdAt' | 'expiresAt'>;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The wallet-signup projection: written only by the signup workflow's activities, read by the API. */
export function createWalletLinkStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async insertPending(l: NewWalletLink): Promise<void> {
      await db('wallet_links')
        .insert({
          link_id: l.linkId,
          wallet: l.wallet,
          access: l.access,
          message: l.message,
          status: 'pending',
          created_at: l.createdAt,
          expires_at: l.expiresAt,
          threshold: l.threshold,
          updated_at: l.createdAt,
        })
        .onConflict('link_id')
        .ignore();
    },

    async get(linkId: string): Promise<WalletLinkRecord | undefined> {
      const r = await db('wallet_links as l').leftJoin('api_keys as k', 'k.id', 'l.key_id').where('l.link_id', linkId).first('l.*', 'k.key_prefix');
      if (!r) return undefined;
      return {
        linkId: r.link_id,
        wallet: r.wallet,
        access: r.access,
        message: r.message,
        status: r.status,
        createdAt: r.created_at,
        expiresAt: r.expires_at,
        balance: num(r.balance),
        threshold: Number(r.threshold),
        keyPrefix: r.key_prefix ?? null,
        fulfilledAt: r.fulfilled_at,
        keyCiphertext: r.key_ciphertext,
        keyVisibleUntil: r.key_visible_until,
      };
    },

    /** Settles a pending link as ineligible with the balance read; a settled link is left as it is. */
    async markIneligible(linkId: string, balance: number, at: Date): Promise<WalletLinkStatus> {
      await db('wallet_links').where({ link_id: linkId, status: 'pending' }).update({ status: 'ineligible', balance, updated_at: at });
      return (await db('wallet_links').where({ link_id: linkId }).first('status')).status;
    },

    /**
     * Mints the link's key and settles the link in one transaction, so a retried activity never mints twice:
     * a link that is no longer pending is returned as it is, with nothing minted.
     */
    async fulfil(
      linkId: string,
      o: { balance: number; at: Date; visibleUntil: Date; seal: (plaintext: string) => Buffer },
    ): Promise<{ status: WalletLinkStatus; keyPrefix: string | null; minted: boolean }> {
      return db.transaction(async (trx) => {
        const link = await trx('wallet_links').where({ link_id: linkId }).forUpdate().first();
        if (!link) throw new Error(`wallet link ${linkId} does not exist`);
        if (link.status !== 'pending') {
          const k = link.key_id ? await trx('api_keys').where({ id: link.key_id }).first('key_prefix') : undefined;
          return { status: link.status, keyPrefix: k?.key_prefix ?? null, minted: false };
        }
        const keys = createApiKeyStore(asDb(trx), { now: () => o.at });
        const key = await keys.issueKey({ tier: 'free', source: 'wallet_signup' });
        await keys.linkWallet(key.id, link.wallet, o.balance, o.at);
        await trx('wallet_links')
          .where({ link_id: linkId })
          .update({
            status: 'fulfilled',
            balance: o.balance,
            key_id: key.id,
            fulfilled_at: o.at,
            key_ciphertext: o.seal(key.plaintext),
            key_visible_until: o.visibleUntil,
            updated_at: o.at,
          });
        return { status: 'fulfilled', keyPrefix: key.prefix, minted: true };
      });
    },

    async expire(linkId: string, at: Date): Promise<WalletLinkStatus> {
      await db('wallet_links').where({ link_id: linkId, status: 'pending' }).update({ status: 'expired', updated_at: at });
      return (await db('wallet_links').where({ link_id: linkId }).first('status')).status;
    },

    /** Wipes the sealed key once its reveal window is over; the key itself stays valid. */
    async withholdKey(linkId: string, at: Date): Promise<void> {
      await db('wallet_links').where({ link_id: linkId }).whereNotNull('key_ciphertext').update({ key_ciphertext: null, updated_at: at });
    },
  };
}
export type WalletLinkStore = ReturnType<typeof createWalletLinkStore>;
