/**
 * Global set-up of `vitest.postgres.config.ts`: one real PostgreSQL for the run (startPostgres), its URL handed to
 * the test files in WAYMARK_TEST_POSTGRES; each test server then gets a database of its own (testServer.ts).
 */
import { startPostgres } from './startPostgres';

export default async function postgresSetup(): Promise<() => void> {
  const server = await startPostgres();
  process.env.WAYMARK_TEST_POSTGRES = server.url('postgres');
  return () => server.stop();
}
