import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@sitelens/telemetry';

/**
 * Host lists bundled with the package (they load offline): chat widgets (`block_chats`) and
 * trackers (`block_trackers`), optionally extended by lists fetched from configured URLs
 * (CHAT_LIST_URLS, TRACKER_LIST_URLS) and refreshed while the worker runs, as the ad-block lists
 * are. A line is a host or registrable domain, optionally with a path prefix (`facebook.com/tr`);
 * hosts-file lines (`0.0.0.0 host`) and Adblock-style domain rules (`||host^`) are read too, so
 * the maintained lists published in those shapes can be used as they are. `#` and `!` start
 * comments; exception, cosmetic and wildcard rules are not host entries and are skipped.
 */
export const HOST_LISTS = {
  chats: path.join(__dirname, '..', 'assets', 'chat-widgets.txt'),
  trackers: path.join(__dirname, '..', 'assets', 'trackers.txt'),
} as const;

export type HostListName = keyof typeof HOST_LISTS;

const HOSTS_FILE_LINE = /^(?:0\.0\.0\.0|127\.0\.0\.1|::1?|::)\s+(\S+)$/;
const ADBLOCK_DOMAIN_RULE = /^\|\|([a-z0-9.-]+)(\/[^^$*|]*)?\^?(?:\$.*)?$/;
const PLAIN_ENTRY = /^([a-z0-9.-]+)(\/\S*)?$/;

/** One line as [host, path prefix], or undefined when it holds no host entry. */
function entryOf(raw: string): [string, string] | undefined {
  const line = raw.trim().toLowerCase();
  if (!line || line.startsWith('!') || line.startsWith('[') || line.startsWith('@@') || line.includes('##') || line.includes('#@#')) {
    return undefined;
  }
  const text = line
    .replace(/\s#.*$/, '')
    .replace(/^#.*/, '')
    .trim();
  if (!text) return undefined;
  const hosts = HOSTS_FILE_LINE.exec(text);
  if (hosts) return hosts[1] === 'localhost' || hosts[1]!.includes('*') ? undefined : [hosts[1]!, ''];
  const adblock = ADBLOCK_DOMAIN_RULE.exec(text);
  if (adblock) return [adblock[1]!, adblock[2] ?? ''];
  const plain = PLAIN_ENTRY.exec(text);
  if (plain && plain[1]!.includes('.')) return [plain[1]!, plain[2] ?? ''];
  return undefined;
}

export class HostList {
  /** Path prefixes by host ('' for the whole host). */
  private constructor(private readonly entries: ReadonlyMap<string, readonly string[]>) {}

  static parse(...texts: string[]): HostList {
    const entries = new Map<string, string[]>();
    for (const text of texts) {
      for (const raw of text.split('\n')) {
        const entry = entryOf(raw);
        if (!entry) continue;
        const [host, prefix] = entry;
        entries.set(host, [...(entries.get(host) ?? []), prefix]);
      }
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

const bundledText = new Map<HostListName, Promise<string>>();
function bundled(name: HostListName): Promise<string> {
  let text = bundledText.get(name);
  if (!text) {
    text = readFile(HOST_LISTS[name], 'utf8');
    bundledText.set(name, text);
  }
  return text;
}

/** A bundled list alone, read and parsed once per process. */
const bundledLists = new Map<HostListName, Promise<HostList>>();
export function hostList(name: HostListName): Promise<HostList> {
  let list = bundledLists.get(name);
  if (!list) {
    list = bundled(name).then((text) => HostList.parse(text));
    bundledLists.set(name, list);
  }
  return list;
}

export interface HostListsOptions {
  /** Lists fetched on `refresh()` and added to the bundled one, per list. */
  urls: Partial<Record<HostListName, readonly string[]>>;
  logger: Logger;
  fetchTimeoutMs?: number;
  /** Largest list fetched, in bytes (a list is held in memory as a map of hosts). */
  maxBytes?: number;
}

/**
 * The lists a pool blocks with: the bundled ones, swapped for bundled + fetched once `refresh()`
 * gets every configured URL of a list (a list whose fetch fails keeps what it had).
 */
export class HostLists {
  private readonly current = new Map<HostListName, Promise<HostList>>();

  constructor(private readonly options: HostListsOptions) {}

  get(name: HostListName): Promise<HostList> {
    return this.current.get(name) ?? hostList(name);
  }

  get configured(): boolean {
    return Object.values(this.options.urls).some((urls) => (urls?.length ?? 0) > 0);
  }

  /** Fetches the configured lists. Never throws; returns the names that were refreshed. */
  async refresh(): Promise<HostListName[]> {
    const refreshed: HostListName[] = [];
    for (const name of Object.keys(HOST_LISTS) as HostListName[]) {
      const urls = this.options.urls[name] ?? [];
      if (urls.length === 0) continue;
      try {
        const texts = await Promise.all(urls.map((url) => this.fetchList(url)));
        const list = HostList.parse(await bundled(name), ...texts);
        this.current.set(name, Promise.resolve(list));
        refreshed.push(name);
        this.options.logger.info({ list: name, urls: urls.length, hosts: list.size }, 'host list refreshed');
      } catch (error) {
        this.options.logger.warn(
          { list: name, err: error instanceof Error ? error.message : String(error) },
          'host list refresh failed; keeping current list',
        );
      }
    }
    return refreshed;
  }

  private async fetchList(url: string): Promise<string> {
    const maxBytes = this.options.maxBytes ?? 20 * 1024 * 1024;
    const response = await fetch(url, { signal: AbortSignal.timeout(this.options.fetchTimeoutMs ?? 15_000) });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    if (Number(response.headers.get('content-length') ?? 0) > maxBytes) throw new Error(`${url} is larger than ${maxBytes} bytes`);
    const text = await response.text();
    if (Buffer.byteLength(text) > maxBytes) throw new Error(`${url} is larger than ${maxBytes} bytes`);
    return text;
  }
}
