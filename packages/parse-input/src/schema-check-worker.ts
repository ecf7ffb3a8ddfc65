/**
 * Worker-thread entry for `createSchemaChecker`: compiles user schemas, and checks data against
 * them, off the caller's event loop. Loaded only by the checker, never imported.
 */
import { isMainThread, parentPort } from 'node:worker_threads';
import { schemaMismatch } from './schema-mismatch';
import { compileUserSchema, type CompiledSchema } from './user-schema';

export interface SchemaCheckTask {
  id: number;
  schema: unknown;
  /** Present: check this data against the schema (the model's answer) and say why it does not match. */
  data?: { value: unknown };
}

export type SchemaCheckReply = { id: number; ok: true; mismatch?: string } | { id: number; ok: false; message: string; client: boolean };

/** Schemas arrive as copies, so they are remembered by their text: a job checks its schema, then its answer. */
const RECENT = 16;
const compiled = new Map<string, CompiledSchema>();

function compile(schema: unknown): CompiledSchema {
  const text = JSON.stringify(schema);
  const known = compiled.get(text);
  if (known) return known;
  const fresh = compileUserSchema(schema);
  compiled.set(text, fresh);
  if (compiled.size > RECENT) compiled.delete(compiled.keys().next().value as string);
  return fresh;
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on('message', (task: SchemaCheckTask) => {
    let reply: SchemaCheckReply;
    try {
      const schema = compile(task.schema);
      reply = task.data ? { id: task.id, ok: true, mismatch: schemaMismatch(schema, task.data.value) } : { id: task.id, ok: true };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      reply = {
        id: task.id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
        client: code === 'INVALID_REQUEST',
      };
    }
    port.postMessage(reply);
  });
}
