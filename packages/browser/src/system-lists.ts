import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@sitelens/telemetry';

/**
 * Maintained filter lists the machine has: EasyList (ads) and EasyPrivacy (trackers), from the
 * folder config names (`FILTER_LISTS_DIR`; Debian's uBlock Origin package by default, which the
 * project's setup and image install). They are read from disk, so they load offline. Where they
 * are missing the bundled compact lists are used alone, and the log says so once.
 */

export type SystemListName = 'easylist' | 'easyprivacy';

const warned = new Set<string>();

/** A list's text from `dir`, or undefined (logged once per file) when it cannot be read. */
export async function readSystemList(dir: string | undefined, name: SystemListName, logger: Logger): Promise<string | undefined> {
  if (!dir) return undefined;
  const file = path.join(dir, `${name}.txt`);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (!warned.has(file)) {
      warned.add(file);
      logger.warn(
        { file, err: error instanceof Error ? error.message : String(error) },
        'maintained filter list not found; using the bundled list alone (install webext-ublock-origin-chromium or set FILTER_LISTS_DIR)',
      );
    }
    return undefined;
  }
}

/**
 * A filter or host list from a configured URL, read as a stream and refused past `maxBytes`
 * (whatever Content-Length says) or `timeoutMs`.
 */
export async function fetchListText(url: string, options: { timeoutMs?: number; maxBytes?: number } = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? 20 * 1024 * 1024;
  const response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 15_000) });
  if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}`);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new Error(`${url} is larger than ${maxBytes} bytes`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}
