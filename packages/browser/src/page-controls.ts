import type { CDPSession, HTTPRequest, Page } from 'puppeteer-core';
import { languageListOf, siteHeadersFor, type BlockableResource, type CookieInput } from '@sitelens/contracts';
import { ADBLOCK_INTERCEPT_PRIORITY } from './adblock';
import type { HostList } from './host-lists';

/** How the client wants the page loaded: what it sends, what it blocks, where and when it is. */
export interface PageControls {
  /** The page's URL: headers, credentials and cookies without a domain are for its site only (none for rendered html). */
  targetUrl: string | undefined;
  /** The user agent the page was given (the locale override restates it). */
  userAgent: string;
  headers?: Readonly<Record<string, string>>;
  cookies?: readonly CookieInput[];
  httpAuth?: { username: string; password: string };
  blockResources?: readonly BlockableResource[];
  /** Hosts never requested (chat widgets, trackers). */
  blockHosts?: readonly HostList[];
  locale?: string;
  timezone?: string;
  geolocation?: { latitude: number; longitude: number; accuracy?: number };
  disableJs?: boolean;
  ignoreHttps?: boolean;
}

/** What the page's media queries see. */
export interface MediaEmulation {
  print: boolean;
  darkMode: boolean;
  reducedMotion: boolean;
  highContrast: boolean;
}

/**
 * The page's own DevTools session (the one Puppeteer drives it with). Overrides set through a
 * second session interact badly with the first (a user agent set on one has undone print media
 * emulation set on the other), so every override goes through this one.
 */
export function pageSession(page: Page): CDPSession {
  const owned = page as unknown as { _client?: () => CDPSession };
  if (typeof owned._client !== 'function') throw new Error('puppeteer-core no longer exposes the page session');
  return owned._client();
}

/**
 * Media type and features in one call: `Emulation.setEmulatedMedia` replaces both each time, so
 * Puppeteer's separate `emulateMediaType` and `emulateMediaFeatures` would undo each other.
 */
export async function emulateMedia(page: Page, media: MediaEmulation): Promise<void> {
  await pageSession(page).send('Emulation.setEmulatedMedia', {
    // '' leaves the type alone: screen for captures, print while printing a PDF.
    media: media.print ? 'print' : '',
    features: [
      { name: 'prefers-color-scheme', value: media.darkMode ? 'dark' : 'light' },
      { name: 'prefers-reduced-motion', value: media.reducedMotion ? 'reduce' : 'no-preference' },
      { name: 'prefers-contrast', value: media.highContrast ? 'more' : 'no-preference' },
    ],
  });
}

const RESOURCE_TYPES: Record<BlockableResource, readonly string[]> = {
  image: ['image'],
  stylesheet: ['stylesheet'],
  script: ['script'],
  font: ['font'],
  media: ['media'],
};

function lowerCased(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/**
 * Sets the page up before it loads: cookies, time zone, locale, geolocation, JavaScript, certificate
 * errors, and (through request interception, only when a field needs it) headers and basic auth on
 * the target's own site and blocked resource types. Interception is cooperative, at the ad
 * blocker's priority, so both can vote on a request (an abort wins).
 */
export async function applyPageControls(page: Page, controls: PageControls): Promise<void> {
  const session = pageSession(page);
  const steps: Array<Promise<unknown>> = [];
  if (controls.cookies?.length) {
    steps.push(
      page.setCookie(
        ...controls.cookies.map((cookie) => ({
          name: cookie.name,
          value: cookie.value,
          ...(cookie.domain || !controls.targetUrl ? { domain: cookie.domain } : { url: controls.targetUrl }),
          path: cookie.path ?? '/',
          secure: cookie.secure,
          httpOnly: cookie.http_only,
          sameSite: cookie.same_site,
          expires: cookie.expires,
        })),
      ),
    );
  }
  if (controls.timezone) steps.push(page.emulateTimezone(controls.timezone));
  if (controls.locale) {
    // Intl's default locale, then navigator.language(s) and the Accept-Language header (sent to
    // every site, as a browser set to that language does). The user agent goes with it: the
    // override sets both, on the page's own session.
    steps.push(session.send('Emulation.setLocaleOverride', { locale: controls.locale }));
    steps.push(
      // Chromium words the q-values itself ("de-DE,de" goes out as "de-DE,de;q=0.9").
      session.send('Network.setUserAgentOverride', { userAgent: controls.userAgent, acceptLanguage: languageListOf(controls.locale) }),
    );
  }
  if (controls.geolocation && controls.targetUrl) {
    // Only secure contexts (https, localhost) may ask for a position; on plain http the page gets
    // the refusal a browser gives, and the position is still set for any https frame.
    steps.push(
      page
        .browserContext()
        .overridePermissions(new URL(controls.targetUrl).origin, ['geolocation'])
        .catch(() => undefined),
    );
    steps.push(page.setGeolocation(controls.geolocation));
  }
  if (controls.disableJs) steps.push(page.setJavaScriptEnabled(false));
  if (controls.ignoreHttps) steps.push(session.send('Security.setIgnoreCertificateErrors', { ignore: true }));
  await Promise.all(steps);

  const blocked = new Set((controls.blockResources ?? []).flatMap((type) => RESOURCE_TYPES[type]));
  const blockedHosts = controls.blockHosts ?? [];
  const adds = Object.keys(controls.headers ?? {}).length > 0 || controls.httpAuth !== undefined;
  if (blocked.size === 0 && blockedHosts.length === 0 && !adds) return;
  await page.setRequestInterception(true);
  page.on('request', (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    if (blocked.has(request.resourceType()) || blockedHosts.some((list) => list.matches(request.url(), controls.targetUrl))) {
      void request.abort('blockedbyclient', ADBLOCK_INTERCEPT_PRIORITY).catch(() => undefined);
      return;
    }
    // Lower-cased, so a request's own header and ours never go out twice under two spellings.
    const extra = adds ? siteHeadersFor(request.url(), controls) : {};
    const overrides =
      Object.keys(extra).length > 0 ? { headers: { ...lowerCased(request.headers()), ...extra } } : request.continueRequestOverrides();
    void request.continue(overrides, ADBLOCK_INTERCEPT_PRIORITY).catch(() => undefined);
  });
}
