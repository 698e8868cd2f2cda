// drizzle-kit: generates the SQL migrations in db/migrations from db/schema.ts (both engines use them).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema.ts',
  out: './db/migrations',
});
