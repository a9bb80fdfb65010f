import { utcHourEnd, utcHourStart } from './ledger-hour';

/**
 * When hours are sealed and committed. An hour is sealed once it closed `graceS` ago (late rows may still enter
 * until then); the scheduler looks every `everyS`, so the commit of an hour lands by its end + grace + one period
 * (plus the commit's own run time).
 *
 * The seal horizon: every hour that ends at or before it is sealed now, i.e. the start of the hour holding
 * `now - grace`.
 */
export function sealHorizon(now: Date, graceS: number): Date {
  return utcHourStart(new Date(now.getTime() - graceS * 1000));
}

/** When the commit of the hour holding `at` is expected, at the latest (no backlog, services up). */
export function commitExpectedBy(at: Date, graceS: number, everyS: number): Date {
  return new Date(utcHourEnd(utcHourStart(at)).getTime() + (graceS + everyS) * 1000);
}

/** The hour as workflow ids and memos write it: `YYYY-MM-DDTHHZ` (no colons). */
export function compactHour(hourStart: Date): string {
  return `${hourStart.toISOString().slice(0, 13)}Z`;
}
