// Runs once when a server instance starts, before it serves requests: a bad setting stops the
// server here, naming the variable, and pages must never meet a missing table. The check on
// NEXT_RUNTIME is replaced at build time, so the Edge bundle never sees the Node-only migrator.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { settings } = await import('./lib/config/settings.ts');
    settings();
    const { migrateOnStart } = await import('./app/_server/migrate-on-start.ts');
    await migrateOnStart();
  }
}
