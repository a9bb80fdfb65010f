import fs from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { createHmac } from 'node:crypto';
import YAML from 'yaml';
import { API_SPEC_PATH } from '../../../api/api-spec';
import { isBlockedAddress } from '../../../domain/webhooks/blocked-address';
import { EVENT_KINDS, parseEventSelection, selectedKinds } from '../../../domain/webhooks/event-kinds';
import { attemptState, classifyStatus, DEFAULT_RETRY_SCHEDULE_S } from '../../../domain/webhooks/retry-schedule';
import { DEV_WEBHOOK_SECRET_KEY, openSecret, parseSecretKey, sealSecret } from '../../../domain/webhooks/secret-box';
import { checkTargetUrl } from '../../../domain/webhooks/target-url';
import { newSecret, signDelivery } from '../../../domain/webhooks/webhook-signature';
import { webhookEventOf } from '../../../domain/webhooks/webhook-event';

const doc = YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8'));

describe('event kinds', () => {
  it('openapi.yaml lists exactly the kinds the service delivers', () => {
    expect(doc.components.schemas.EventKind.enum).toEqual([...EVENT_KINDS]);
  });

  it('keeps * as *, shown as every kind there is now; expands groups and aliases; rejects unknown names', () => {
    expect(parseEventSelection('*')).toEqual({ ok: true, kinds: ['*'] });
    expect(parseEventSelection(' * ')).toEqual({ ok: true, kinds: ['*'] });
    expect(selectedKinds(['*'])).toEqual([...EVENT_KINDS]);
    expect(selectedKinds(['grad_prob', 'signal_act'])).toEqual(['signal_act', 'grad_prob']);
    expect(parseEventSelection('signal, runner_dev')).toEqual({ ok: true, kinds: ['signal_act', 'signal_watch', 'signal_scout', 'runner_dev'] });
    expect(parseEventSelection('smart_money_in,smart_in')).toEqual({ ok: true, kinds: ['smart_in'] });
    expect(parseEventSelection('grad_prob,moon')).toEqual({ ok: false, unknown: ['moon'] });
    expect(parseEventSelection('*,grad_prob')).toEqual({ ok: false, unknown: ['*'] });
  });

  it("the request schema's pattern accepts the same names", () => {
    const re = new RegExp(doc.components.schemas.WebhookCreateRequest.properties.events.pattern);
    for (const ok of ['*', 'signal', 'signal_act,grad_prob', 'runner_dev, smart_money_in', 'wallet']) expect(re.test(ok)).toBe(true);
    for (const bad of ['moon', 'signal_', '*,signal', 'grad_prob,']) expect(re.test(bad)).toBe(false);
  });
});

describe('signatures', () => {
  const secret = newSecret(new Uint8Array(32).map((_, i) => i * 7));
  const body = '{"id":"evt_9","kind":"signal_act","data":{"x":"é"}}';
  const ts = 1_790_000_000;
  const h = signDelivery(secret, 'evt_9', ts, body);

  it('the Standard Webhooks headers verify with the standardwebhooks package', () => {
    const wh = new Webhook(secret);
    const headers = { 'webhook-id': h['webhook-id'], 'webhook-timestamp': h['webhook-timestamp'], 'webhook-signature': h['webhook-signature'] };
    jest.useFakeTimers({ now: ts * 1000 + 10_000 });
    try {
      expect(wh.verify(body, headers)).toEqual(JSON.parse(body));
      expect(() => wh.verify(body.replace('é', 'e'), headers)).toThrow();
      expect(() => new Webhook(newSecret(new Uint8Array(32))).verify(body, headers)).toThrow();
    } finally {
      jest.useRealTimers();
    }
  });

  it('X-Service-Signature is lowercase hex HMAC-SHA256 of the raw body keyed by the secret string (hand check)', () => {
    expect(h['X-Service-Signature']).toBe(createHmac('sha256', secret).update(Buffer.from(body, 'utf8')).digest('hex'));
    expect(h['X-Service-Signature']).toMatch(/^[0-9a-f]{64}$/);
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    expect(h['webhook-signature']).toBe(`v1,${createHmac('sha256', key).update(`evt_9.${ts}.${body}`).digest('base64')}`);
    expect(secret).toMatch(new RegExp(doc.components.schemas.WebhookCreated.properties.secret.pattern));
  });
});

describe('secret at rest', () => {
  const key = parseSecretKey(DEV_WEBHOOK_SECRET_KEY)!;
  it('opens only under the same key and owner', () => {
    const sealed = sealSecret('whsec_abc', key, 5);
    expect(sealed).not.toContain('abc');
    expect(openSecret(sealed, key, 5)).toBe('whsec_abc');
    expect(openSecret(sealed, key, 6)).toBeNull();
    expect(openSecret(sealed, parseSecretKey('ab'.repeat(32))!, 5)).toBeNull();
    expect(parseSecretKey('short')).toBeNull();
  });
});

describe('addresses and URLs', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:a00:1::',
    'ff02::1',
    'nonsense',
  ])('%s is refused', (ip) => expect(isBlockedAddress(ip)).toBe(true));
  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is allowed', (ip) => expect(isBlockedAddress(ip)).toBe(false));

  const prod = { requireHttps: true, allowPrivateTargets: false };
  it('checks a URL at registration', () => {
    expect(checkTargetUrl('https://hooks.example.com/x?y=1', prod)).toMatchObject({ ok: true });
    expect(checkTargetUrl('http://hooks.example.com/', prod)).toEqual({ ok: false, why: 'the URL must use https' });
    expect(checkTargetUrl('https://user:pw@hooks.example.com/', prod)).toMatchObject({ ok: false });
    for (const u of ['https://127.0.0.1/', 'https://2130706433/', 'https://[::1]/', 'https://169.254.169.254/', 'https://localhost/', 'https://intranet/'])
      expect(checkTargetUrl(u, prod)).toMatchObject({ ok: false });
    expect(checkTargetUrl('http://127.0.0.1:9/', { requireHttps: false, allowPrivateTargets: true })).toMatchObject({ ok: true });
  });
});

describe('retry schedule and outcomes', () => {
  it('is the Standard Webhooks schedule: ten attempts over about 3 days', () => {
    expect(DEFAULT_RETRY_SCHEDULE_S).toHaveLength(10);
    expect(DEFAULT_RETRY_SCHEDULE_S.reduce((a, b) => a + b, 0) / 3600).toBeCloseTo(75.6, 1);
  });
  it('2xx succeeds, 410 ends, everything else retries until the last attempt', () => {
    expect([200, 204, 299].map(classifyStatus)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect([410, 404, 500, 302, null].map(classifyStatus)).toEqual(['gone', 'retry', 'retry', 'retry', 'retry']);
    expect([attemptState('retry', true), attemptState('retry', false), attemptState('gone', true)]).toEqual(['retrying', 'gave_up', 'failed']);
  });
});

describe('event bodies', () => {
  const at = new Date('2026-11-24T10:00:00Z');
  it('a signal is delivered as its tier kind, with its feed id and cursor; an alert only to its owner', () => {
    const s = webhookEventOf(
      { id: 7, kind: 'composite_signal', eventKey: 'signal:3', payload: { prediction_id: 3, signal: { tier: 'WATCH', mint: 'M' } }, createdAt: at },
      { id: 11, cursor: 99 },
    )!;
    expect(s).toMatchObject({ eventId: 'evt_7', kind: 'signal_watch', ownerKeyId: null });
    expect(JSON.parse(s.body)).toEqual({
      id: 'evt_7',
      kind: 'signal_watch',
      created_at: at.toISOString(),
      data: { prediction_id: 3, signal: { id: 11, cursor: 99, tier: 'WATCH', mint: 'M' } },
    });
    const a = webhookEventOf({
      id: 8,
      kind: 'alert_fire',
      eventKey: 'alert:4',
      payload: { fire_id: 4, rule_id: 2, owner_key_id: 12, kind: 'grad_prob', mint: 'M', fired_at: at.toISOString(), facts: { p: 0.5 } },
      createdAt: at,
    })!;
    expect(a).toMatchObject({ kind: 'grad_prob', ownerKeyId: 12 });
    expect(JSON.parse(a.body).data).toEqual({ fire_id: 4, rule_id: 2, mint: 'M', fired_at: at.toISOString(), facts: { p: 0.5 } });
    expect(webhookEventOf({ id: 9, kind: 'alert_fire', eventKey: 'alert:5', payload: { kind: 'moon', owner_key_id: 1 }, createdAt: at })).toBeNull();
    expect(webhookEventOf({ id: 10, kind: 'other', eventKey: 'x', payload: {}, createdAt: at })).toBeNull();
  });
});
