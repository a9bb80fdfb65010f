import type { Knex } from 'knex';

// Forward-only. A live snapshot written before the worker (re)started is not current however young it looks: its
// mints' ages froze when the projector stopped. The worker sets `pre_restart` when it starts; the projector's next
// write clears it, so readers mark the list stale exactly until the first fresh refresh.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('live_snapshots', (t) => {
    t.boolean('pre_restart').notNullable().defaultTo(false);
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
