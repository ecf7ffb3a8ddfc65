import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Host lists bundled with the package (they load offline): chat widgets (`block_chats`) and
 * trackers (`block_trackers`). A line is a host or registrable domain, optionally with a path
 * prefix (`facebook.com/tr`); `#` starts a comment. A request matches when its host is the entry's
 * host or a subdomain of it, and its path starts with the entry's path.
 */
export const HOST_LISTS = {
  chats: path.join(__dirname, '..', 'assets', 'chat-widgets.txt'),
  trackers: path.join(__dirname, '..', 'assets', 'trackers.txt'),
} as const;

export type HostListName = keyof typeof HOST_LISTS;

export class HostList {
  /** Path prefixes by host ('' for the whole host). */
  private constructor(private readonly entries: ReadonlyMap<string, readonly string[]>) {}

  static parse(text: string): HostList {
    const entries = new Map<string, string[]>();
    for (const raw of text.split('\n')) {
      const line = raw.replace(/#.*/, '').trim().toLowerCase();
      if (!line) continue;
      const slash = line.indexOf('/');
      const host = slash < 0 ? line : line.slice(0, slash);
      const prefix = slash < 0 ? '' : line.slice(slash);
      entries.set(host, [...(entries.get(host) ?? []), prefix]);
    }
    return new HostList(entries);
  }

  get size(): number {
    return this.entries.size;
  }

  matches(url: string): boolean {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    const labels = parsed.hostname.toLowerCase().split('.');
    for (let i = 0; i < labels.length - 1; i++) {
      const prefixes = this.entries.get(labels.slice(i).join('.'));
      if (prefixes?.some((prefix) => parsed.pathname.startsWith(prefix))) return true;
    }
    return false;
  }
}

const loaded = new Map<HostListName, Promise<HostList>>();

/** A bundled list, read and parsed once per process. */
export function hostList(name: HostListName): Promise<HostList> {
  let list = loaded.get(name);
  if (!list) {
    list = readFile(HOST_LISTS[name], 'utf8').then((text) => HostList.parse(text));
    loaded.set(name, list);
  }
  return list;
}
