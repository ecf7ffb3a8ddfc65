/**
 * Worker-thread entry for `createSchemaChecker`: compiles user schemas off the gateway's event
 * loop. Loaded only by the checker, never imported.
 */
import { isMainThread, parentPort } from 'node:worker_threads';
import { compileUserSchema } from './user-schema';

export interface SchemaCheckTask {
  id: number;
  schema: unknown;
}

export type SchemaCheckReply = { id: number; ok: true } | { id: number; ok: false; message: string; client: boolean };

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on('message', (task: SchemaCheckTask) => {
    let reply: SchemaCheckReply;
    try {
      compileUserSchema(task.schema);
      reply = { id: task.id, ok: true };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      reply = { id: task.id, ok: false, message: error instanceof Error ? error.message : String(error), client: code === 'INVALID_REQUEST' };
    }
    port.postMessage(reply);
  });
}
