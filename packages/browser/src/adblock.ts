import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Request } from '@ghostery/adblocker';
import { extractFeaturesFromDOM } from '@ghostery/adblocker-content';
import { PuppeteerBlocker } from '@ghostery/adblocker-puppeteer';
import type { Page } from 'puppeteer-core';
import type { Logger } from '@sitelens/telemetry';
import { fetchListText, readSystemList } from './system-lists';

/** The list shipped with the package: the machine may have no internet, so blocking never depends on it. */
export const BUNDLED_LIST_PATH = path.join(__dirname, '..', 'assets', 'adblock-lists.txt');

/**
 * Interception priority of the blocker's aborts. Setting any priority switches the blocker to
 * Puppeteer's cooperative interception mode, so it can share the request event with the URL guard
 * (which outranks it; see request-filter.ts).
 */
export const ADBLOCK_INTERCEPT_PRIORITY = 10;

// The wrapper is typed against `puppeteer`, we drive `puppeteer-core`: same runtime objects.
type BlockerPage = Parameters<PuppeteerBlocker['enableBlockingInPage']>[0];

export interface AdblockerOptions {
  /** Extra lists (EasyList syntax) fetched on `refresh()`, added to the bundled one. */
  listUrls?: readonly string[];
  logger: Logger;
  /** The offline list; defaults to the bundled file. */
  bundledListPath?: string;
  /** Folder with the maintained EasyList (`easylist.txt`), added to the bundled list when present. */
  filterListsDir?: string;
  fetchTimeoutMs?: number;
}

function buildEngine(lists: readonly string[]): PuppeteerBlocker {
  const engine = PuppeteerBlocker.parse(lists.join('\n'), {
    loadNetworkFilters: true,
    loadCosmeticFilters: true,
    loadGenericCosmeticsFilters: true,
    enableMutationObserver: true,
  });
  engine.setRequestInterceptionPriority(ADBLOCK_INTERCEPT_PRIORITY);
  return engine;
}

/**
 * Network and cosmetic ad blocking for pages, over one filter engine built once per pool. The
 * engine starts from the bundled list; `refresh()` rebuilds it with the configured list URLs when
 * they can be fetched and keeps the current engine when they cannot.
 */
export class Adblocker {
  private constructor(
    private engine: PuppeteerBlocker,
    private readonly bundled: string,
    private readonly options: AdblockerOptions,
  ) {}

  static async load(options: AdblockerOptions): Promise<Adblocker> {
    const [compact, easylist] = await Promise.all([
      readFile(options.bundledListPath ?? BUNDLED_LIST_PATH, 'utf8'),
      readSystemList(options.filterListsDir, 'easylist', options.logger),
    ]);
    const bundled = easylist === undefined ? compact : `${compact}\n${easylist}`;
    return new Adblocker(buildEngine([bundled]), bundled, options);
  }

  /** Fetches the configured lists and swaps the engine. Never throws; false when nothing changed. */
  async refresh(): Promise<boolean> {
    const urls = this.options.listUrls ?? [];
    if (urls.length === 0) return false;
    const timeoutMs = this.options.fetchTimeoutMs ?? 15_000;
    try {
      const lists = await Promise.all(urls.map((url) => fetchListText(url, { timeoutMs })));
      this.engine = buildEngine([this.bundled, ...lists]);
      this.options.logger.info({ lists: urls.length }, 'ad-block lists refreshed');
      return true;
    } catch (error) {
      this.options.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'ad-block list refresh failed; keeping current lists',
      );
      return false;
    }
  }

  /** Whether a request of `type` to `url` from a page at `sourceUrl` would be blocked. */
  blocks(url: string, sourceUrl: string, type: Request['type'] = 'script'): boolean {
    return this.engine.match(Request.fromRawDetails({ url, sourceUrl, type })).match;
  }

  /**
   * Turns on network blocking (request interception, cooperative) and the engine's own cosmetic
   * injection as frames load. Call before navigating.
   */
  async enable(page: Page): Promise<void> {
    await this.engine.enableBlockingInPage(page as unknown as BlockerPage);
  }

  /**
   * One complete cosmetic pass over the main frame, awaited. The engine's own injection runs in
   * the background after DOMContentLoaded; a capture must not race it, so the screenshot path runs
   * this right before capturing.
   */
  async hideAds(page: Page): Promise<void> {
    const url = page.url();
    const { hostname, domain } = Request.fromRawDetails({ url, type: 'main_frame' });
    const { classes, hrefs, ids } = await page.evaluate(extractFeaturesFromDOM);
    const { active, styles } = this.engine.getCosmeticsFilters({
      url,
      hostname,
      domain,
      classes,
      hrefs,
      ids,
      getBaseRules: true,
      getInjectionRules: false,
      getExtendedRules: false,
      getRulesFromDOM: true,
      getRulesFromHostname: true,
    });
    if (active && styles.length > 0) await page.addStyleTag({ content: styles });
  }
}
