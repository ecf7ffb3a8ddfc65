import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { siteOf } from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';
import { fetchListText, readSystemList } from './system-lists';

/**
 * Host lists bundled with the package (they load offline): chat widgets (`block_chats`) and
 * trackers (`block_trackers`), optionally extended by lists fetched from configured URLs
 * (CHAT_LIST_URLS, TRACKER_LIST_URLS) and refreshed while the worker runs, as the ad-block lists
 * are. The tracker list also takes EasyPrivacy's host rules when the machine has the maintained
 * list (see system-lists.ts): some 45,000 hosts. A line is a host or registrable domain,
 * optionally with a path prefix (`facebook.com/tr`); hosts-file lines (`0.0.0.0 host`) and
 * Adblock-style host rules (`||host^`, `||host/path^`, `$third-party` honoured) are read too, so
 * the maintained lists published in those shapes can be used as they are. `#` and `!` start
 * comments; exception, cosmetic and wildcard rules, and rules limited to some sites
 * (`$domain=`) or to first parties, are not host entries and are skipped.
 */
export const HOST_LISTS = {
  chats: path.join(__dirname, '..', 'assets', 'chat-widgets.txt'),
  trackers: path.join(__dirname, '..', 'assets', 'trackers.txt'),
} as const;

export type HostListName = keyof typeof HOST_LISTS;

const HOSTS_FILE_LINE = /^(?:0\.0\.0\.0|127\.0\.0\.1|::1?|::)\s+(\S+)$/;
const ADBLOCK_HOST_RULE = /^\|\|([a-z0-9.-]+)(\/[^^$*|]*)?(\^)?(?:\$(.*))?$/;
const PLAIN_ENTRY = /^([a-z0-9.-]+)(\/\S*)?$/;
/** Rule options that keep a host rule a plain block (resource types, third party). */
const PLAIN_OPTIONS = new Set([
  'third-party',
  '3p',
  'script',
  'image',
  'xmlhttprequest',
  'xhr',
  'ping',
  'beacon',
  'subdocument',
  'frame',
  'stylesheet',
  'css',
  'font',
  'media',
  'object',
  'websocket',
  'other',
  'all',
]);

interface Entry {
  /** Path prefix ('' for the whole host). */
  prefix: string;
  /** The rule ended in `^`: what follows the prefix must be a separator (`/beacon^` is not `/beacons`). */
  anchored: boolean;
  /** Blocked only when loaded by a page of another site. */
  thirdParty: boolean;
}

/** One line as [host, entry], or undefined when it holds no host entry. */
function entryOf(raw: string): [string, Entry] | undefined {
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
  if (hosts)
    return hosts[1] === 'localhost' || hosts[1]!.includes('*')
      ? undefined
      : [hosts[1]!, { prefix: '', anchored: false, thirdParty: false }];
  const rule = ADBLOCK_HOST_RULE.exec(text);
  if (rule) {
    const options = rule[4] === undefined ? [] : rule[4].split(',');
    if (!options.every((option) => PLAIN_OPTIONS.has(option))) return undefined;
    if (!rule[1]!.includes('.')) return undefined;
    const thirdParty = options.includes('third-party') || options.includes('3p');
    return [rule[1]!, { prefix: rule[2] ?? '', anchored: rule[2] !== undefined && rule[3] === '^', thirdParty }];
  }
  const plain = PLAIN_ENTRY.exec(text);
  if (plain && plain[1]!.includes('.')) return [plain[1]!, { prefix: plain[2] ?? '', anchored: false, thirdParty: false }];
  return undefined;
}

/** Adblock's `^`: anything but a letter, digit or one of `_ - . %`, or the end of the address. */
const SEPARATOR = /^(?:$|[^\w.%-])/;

function pathMatches(path: string, entry: Entry): boolean {
  if (!path.startsWith(entry.prefix)) return false;
  return !entry.anchored || SEPARATOR.test(path.slice(entry.prefix.length));
}

export class HostList {
  private constructor(private readonly entries: ReadonlyMap<string, readonly Entry[]>) {}

  static parse(...texts: string[]): HostList {
    const entries = new Map<string, Entry[]>();
    for (const text of texts) {
      for (const raw of text.split('\n')) {
        const entry = entryOf(raw);
        if (!entry) continue;
        const [host, value] = entry;
        const list = entries.get(host);
        if (list) list.push(value);
        else entries.set(host, [value]);
      }
    }
    return new HostList(entries);
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Whether a request to `url` is on the list. `pageUrl` is the page that makes it: entries marked
   * third-party only do not block a site's own requests.
   */
  matches(url: string, pageUrl?: string): boolean {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    const host = parsed.hostname.toLowerCase();
    const path = parsed.pathname + parsed.search;
    const labels = host.split('.');
    let firstParty: boolean | undefined;
    const isFirstParty = () => {
      if (firstParty === undefined) {
        try {
          firstParty = pageUrl !== undefined && siteOf(new URL(pageUrl).hostname) === siteOf(host);
        } catch {
          firstParty = false;
        }
      }
      return firstParty;
    };
    for (let i = 0; i < labels.length - 1; i++) {
      const entries = this.entries.get(labels.slice(i).join('.'));
      if (entries?.some((entry) => pathMatches(path, entry) && !(entry.thirdParty && isFirstParty()))) return true;
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

export interface HostListsOptions {
  /** Lists fetched on `refresh()` and added to the bundled one, per list. */
  urls: Partial<Record<HostListName, readonly string[]>>;
  /** Folder with the maintained EasyPrivacy (`easyprivacy.txt`), added to the tracker list when present. */
  filterListsDir?: string;
  logger: Logger;
  fetchTimeoutMs?: number;
  /** Largest list fetched, in bytes (a list is held in memory as a map of hosts). */
  maxBytes?: number;
}

/**
 * The lists a pool blocks with: the bundled ones (with EasyPrivacy's hosts in the tracker list
 * when the machine has it), swapped for those plus the fetched ones once `refresh()` gets every
 * configured URL of a list (a list whose fetch fails keeps what it had).
 */
export class HostLists {
  private readonly current = new Map<HostListName, Promise<HostList>>();
  private readonly base = new Map<HostListName, Promise<string[]>>();

  constructor(private readonly options: HostListsOptions) {}

  get(name: HostListName): Promise<HostList> {
    let list = this.current.get(name);
    if (!list) {
      list = this.texts(name).then((texts) => HostList.parse(...texts));
      this.current.set(name, list);
    }
    return list;
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
        const fetched = await Promise.all(
          urls.map((url) => fetchListText(url, { timeoutMs: this.options.fetchTimeoutMs, maxBytes: this.options.maxBytes })),
        );
        const list = HostList.parse(...(await this.texts(name)), ...fetched);
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

  /** What a list is built from before any fetch: the bundled file, and EasyPrivacy for trackers. */
  private texts(name: HostListName): Promise<string[]> {
    let texts = this.base.get(name);
    if (!texts) {
      texts = Promise.all([
        bundled(name),
        name === 'trackers' ? readSystemList(this.options.filterListsDir, 'easyprivacy', this.options.logger) : undefined,
      ]).then((found) => found.filter((text): text is string => text !== undefined));
      this.base.set(name, texts);
    }
    return texts;
  }
}
