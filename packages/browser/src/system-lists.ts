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
