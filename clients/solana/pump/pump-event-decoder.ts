import type { Idl } from '@coral-xyz/anchor';
// IdlCoder builds the same borsh layouts Anchor's own BorshEventCoder uses, but is not re-exported from the package
// root; its per-field layouts are what prefix decoding needs (see decodeStruct). Pinned by the anchor version.
import { IdlCoder } from '@coral-xyz/anchor/dist/cjs/coder/borsh/idl';
import type { LaunchEvent } from '../../../domain/launch/launch-events';
import { mapPumpEvent, type DecodedPumpEvent } from './pump-event-mapper';
import { walkProgramData } from './program-log-walker';

/** A borsh layout as @coral-xyz/borsh (buffer-layout) builds it: fixed `span`, or -1 and `getSpan` for vec/string. */
type BorshLayout = {
  span: number;
  decode(b: Buffer, offset?: number): unknown;
  getSpan(b: Buffer, offset?: number): number;
};
type IdlTypeDef = NonNullable<Idl['types']>[number];
type IdlField = Parameters<typeof IdlCoder.fieldLayout>[0];

type EventLayout = {
  name: string;
  discriminator: Buffer;
  struct: BorshLayout;
  fields: { name: string; layout: BorshLayout }[];
};

/** Outcome of decoding one `Program data:` payload. */
export type DataDecode =
  | { kind: 'event'; event: DecodedPumpEvent }
  /** A discriminator the IDL does not list: an event of a newer program version. */
  | { kind: 'unknown'; discriminator: string }
  | { kind: 'error'; reason: string };

/** One transaction's logs, as `logsNotification` or `getTransaction` (meta.logMessages) deliver them. */
export type TransactionLogs = {
  signature: string;
  slot: number | null;
  /** Transaction error; anything but null/undefined means the transaction failed and its logs mean nothing. */
  err: unknown;
  logs: readonly string[];
  /** Block time when the source carries one (getTransaction does, logsNotification does not). */
  blockTime: Date | null;
};

export type TransactionDecode = {
  events: LaunchEvent[];
  /** Launchpad payloads that could not be decoded or mapped (each is also absent from `events`). */
  errors: string[];
  /** Launchpad events not turned into LaunchEvents: unmapped IDL events and unknown discriminators. */
  ignored: number;
  unknownDiscriminators: number;
  /** The validator cut the logs ("Log truncated"): events after the cut are missing from every log-based source. */
  logsTruncated: boolean;
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes the launchpad's Anchor events from transaction logs, driven by the program's IDL: the first 8 bytes of
 * a `Program data:` payload select the event (the IDL lists each event's discriminator) and the rest is the borsh
 * struct of the same name in the IDL's `types`.
 */
export class PumpEventDecoder {
  readonly programId: string;
  private readonly layouts = new Map<string, EventLayout>();

  constructor(idl: Idl) {
    this.programId = idl.address;
    const types: IdlTypeDef[] = idl.types ?? [];
    for (const ev of idl.events ?? []) {
      const typeDef = types.find((t) => t.name === ev.name);
      if (!typeDef || typeDef.type.kind !== 'struct') throw new Error(`IDL event ${ev.name} has no struct type`);
      const fields = (typeDef.type.fields ?? []) as IdlField[];
      if (fields.some((f) => typeof f !== 'object' || !('name' in f))) throw new Error(`IDL event ${ev.name} has tuple fields`);
      this.layouts.set(Buffer.from(ev.discriminator).toString('hex'), {
        name: ev.name,
        discriminator: Buffer.from(ev.discriminator),
        struct: IdlCoder.typeDefLayout({ typeDef, types }) as BorshLayout,
        fields: fields.map((f) => ({ name: (f as { name: string }).name, layout: IdlCoder.fieldLayout(f, types) as BorshLayout })),
      });
    }
  }

  /** Decodes one base64 `Program data:` payload. Never throws: garbage becomes `{ kind: 'error' }`. */
  decodeData(base64: string): DataDecode {
    if (base64.length % 4 !== 0 || !BASE64.test(base64)) return { kind: 'error', reason: 'payload is not base64' };
    const buf = Buffer.from(base64, 'base64');
    if (buf.length < 8) return { kind: 'error', reason: `payload of ${buf.length} bytes has no discriminator` };
    const disc = buf.subarray(0, 8).toString('hex');
    const layout = this.layouts.get(disc);
    if (!layout) return { kind: 'unknown', discriminator: disc };
    try {
      return { kind: 'event', event: { name: layout.name, ...decodeStruct(layout, buf.subarray(8)) } };
    } catch (e) {
      return { kind: 'error', reason: `${layout.name}: ${(e as Error).message}` };
    }
  }

  /**
   * The LaunchEvents of one transaction. Only payloads logged while the launchpad program itself is executing
   * count (another program can log bytes that happen to start with a launchpad discriminator), and a failed
   * transaction yields nothing: its state changes were rolled back.
   */
  decodeTransaction(tx: TransactionLogs, ctx: { source: string; receivedAt: Date }): TransactionDecode {
    const out: TransactionDecode = { events: [], errors: [], ignored: 0, unknownDiscriminators: 0, logsTruncated: false };
    if (tx.err !== null && tx.err !== undefined) return out;
    const walk = walkProgramData(tx.logs, this.programId);
    out.logsTruncated = walk.truncated;
    const ordinals = new Map<string, number>();
    for (const payload of walk.payloads) {
      const d = this.decodeData(payload);
      if (d.kind === 'error') {
        out.errors.push(d.reason);
        continue;
      }
      if (d.kind === 'unknown') {
        out.unknownDiscriminators++;
        out.ignored++;
        continue;
      }
      let mapped: ReturnType<typeof mapPumpEvent>;
      try {
        mapped = mapPumpEvent(d.event);
      } catch (e) {
        out.errors.push(`${d.event.name}: ${(e as Error).message}`);
        continue;
      }
      if (!mapped) {
        out.ignored++;
        continue;
      }
      const key = `${mapped.kind}:${mapped.mint}`;
      const ordinal = ordinals.get(key) ?? 0;
      ordinals.set(key, ordinal + 1);
      out.events.push({
        ...mapped,
        signature: tx.signature,
        ordinal,
        slot: tx.slot,
        at: mapped.at ?? tx.blockTime ?? ctx.receivedAt,
        source: ctx.source,
      });
    }
    return out;
  }
}

/**
 * The whole struct through Anchor's layout when the buffer holds all of it. Program upgrades append fields, so a
 * payload from an older version is shorter than today's struct: buffer-layout then either throws mid-read or,
 * worse, silently returns short strings and public keys (blob reads clamp at the buffer end). So the size is
 * checked first, and a short buffer is decoded field by field with the same per-field layouts, stopping at the
 * last field that is entirely present. Bytes beyond the struct (a newer version's fields) are ignored.
 */
function decodeStruct(layout: EventLayout, body: Buffer): Omit<DecodedPumpEvent, 'name'> {
  let full = -1;
  try {
    full = layout.struct.getSpan(body, 0);
  } catch {
    // A length prefix lies beyond the buffer: the struct is cut, decode the prefix below.
  }
  if (full >= 0 && full <= body.length) {
    return { fields: layout.struct.decode(body, 0) as Record<string, unknown>, missing: [] };
  }
  const fields: Record<string, unknown> = {};
  let offset = 0;
  let i = 0;
  for (; i < layout.fields.length; i++) {
    const f = layout.fields[i]!;
    let span: number;
    try {
      span = f.layout.getSpan(body, offset);
    } catch {
      break;
    }
    if (offset + span > body.length) break;
    fields[f.name] = f.layout.decode(body, offset);
    offset += span;
  }
  return { fields, missing: layout.fields.slice(i).map((f) => f.name) };
}
