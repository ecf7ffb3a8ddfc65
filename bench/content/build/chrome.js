'use strict';
/**
 * Page chrome and in-article boilerplate as sites write them, in a site's naming style:
 * semantic (WordPress), BEM (newsrooms), Drupal fields, hashed CSS-in-JS names, utility classes,
 * or no classes at all. The pieces know nothing of the extractor.
 */
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A seeded random source, so the corpus is the same on every build. */
function random(seed) {
  let a = [...seed].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619), 2166136261) >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.pick = (list) => list[Math.floor(next() * list.length)];
  next.some = (list, n) => [...list].sort(() => next() - 0.5).slice(0, n);
  return next;
}

const NAMED = {
  wordpress: {
    header: 'site-header',
    nav: 'main-navigation',
    footer: 'site-footer',
    sidebar: 'widget-area',
    article: 'post type-post hentry',
    body: 'entry-content',
    title: 'entry-title',
    meta: 'entry-meta',
    share: 'sharedaddy sd-sharing-enabled',
    newsletter: 'mc4wp-form',
    related: 'jp-relatedposts',
    bio: 'author-info',
    tags: 'tags-links',
    comments: 'comments-area',
    figure: 'wp-block-image',
    caption: 'wp-element-caption',
    ad: 'ad-slot',
    cookie: 'cookie-notice-container',
    breadcrumb: 'breadcrumbs',
    popular: 'widget_top-posts',
    paywall: 'paywall-notice',
    wrapper: 'site-content',
    main: 'site-main',
    readmore: 'more-link-block',
    dek: 'entry-summary',
  },
  bem: {
    header: 'c-masthead',
    nav: 'c-primary-nav',
    footer: 'c-site-foot',
    sidebar: 'c-rail',
    article: 'c-story',
    body: 'c-story__body',
    title: 'c-story__headline',
    meta: 'c-story__meta',
    share: 'c-story__tools',
    newsletter: 'c-inline-promo',
    related: 'c-story__more',
    bio: 'c-contributor',
    tags: 'c-story__topics',
    comments: 'c-conversation',
    figure: 'c-media',
    caption: 'c-media__caption',
    ad: 'c-slot',
    cookie: 'c-consent-layer',
    breadcrumb: 'c-trail',
    popular: 'c-rail__list',
    paywall: 'c-meter',
    wrapper: 'l-page',
    main: 'l-page__main',
    readmore: 'c-story__inline-link',
    dek: 'c-story__standfirst',
  },
  drupal: {
    header: 'region region-header',
    nav: 'menu menu--main',
    footer: 'region region-footer',
    sidebar: 'region region-sidebar-second',
    article: 'node node--type-article node--view-mode-full',
    body: 'clearfix text-formatted field field--name-body field__item',
    title: 'page-title',
    meta: 'node__meta',
    share: 'block block-addtoany',
    newsletter: 'block block-simplenews',
    related: 'block block-views view-related-content',
    bio: 'field field--name-field-author-bio',
    tags: 'field field--name-field-tags',
    comments: 'field--name-comment',
    figure: 'media media--type-image',
    caption: 'field field--name-field-image-caption',
    ad: 'block block-dfp',
    cookie: 'eu-cookie-compliance-banner',
    breadcrumb: 'block block-system-breadcrumb-block',
    popular: 'block block-statistics',
    paywall: 'block block-paywall',
    wrapper: 'layout-container',
    main: 'layout-content',
    readmore: 'field field--name-field-inline-link',
    dek: 'field field--name-field-summary',
  },
};
const UTILITY = [
  'flex',
  'mt-4',
  'mb-6',
  'px-4',
  'text-sm',
  'text-gray-600',
  'font-serif',
  'max-w-prose',
  'mx-auto',
  'gap-2',
  'border-t',
  'py-8',
  'grid',
  'md:grid-cols-3',
  'leading-7',
  'rounded-lg',
  'bg-gray-50',
  'space-y-4',
];

/** `c(role)` gives the class attribute (with its leading space) a site of `style` would write. */
function naming(style, rng) {
  const hashes = {};
  return (role) => {
    if (style === 'none') return '';
    if (NAMED[style]) return NAMED[style][role] ? ` class="${NAMED[style][role]}"` : '';
    if (style === 'hashed') {
      hashes[role] ??= `css-${Math.floor(rng() * 36 ** 6).toString(36)} e${Math.floor(rng() * 99)}${role.length}x`;
      return ` class="${hashes[role]}"`;
    }
    return ` class="${rng.some(UTILITY, 3).join(' ')}"`; // utility classes say nothing of the role
  };
}

const links = (items, base = '/') =>
  items.map((t) => `<li><a href="${base}${encodeURIComponent(t.toLowerCase())}">${esc(t)}</a></li>`).join('');
const ICON = '<svg viewBox="0 0 24 24" width="16" height="16"><path d="M4 4h16v16H4z"/></svg>';

const chrome = {
  header: (c, L, rng, site) =>
    `<header${c('header')}><a href="/" class="logo"><img src="/logo.svg" alt="${esc(site)}"></a>` +
    `<nav${c('nav')} aria-label="Main"><ul>${links(L.sections)}</ul></nav>` +
    (rng() < 0.6
      ? `<div${c('nav')}><ul>${links(rng.some(L.sections, 5), '/topics/')}</ul><ul>${links(L.footer.slice(0, 3))}</ul></div>`
      : '') +
    `<form action="/search"><input type="search" name="q" placeholder="Search"><button>Search</button></form>` +
    `<a href="/account">Log in</a> <a href="/subscribe">${esc(L.subscribe)}</a></header>`,
  cookie: (c, L, rng) =>
    `<div${c('cookie')} ${rng() < 0.5 ? 'role="dialog"' : 'id="consent-box"'}><p>${esc(L.cookie)}</p>` +
    `<button>${esc(L.accept)}</button><button>Settings</button><a href="/privacy">Privacy</a></div>`,
  breadcrumb: (c, L) =>
    `<div${c('breadcrumb')}><a href="/">${esc(L.breadcrumb[0])}</a> › <a href="/news">${esc(L.breadcrumb[1])}</a></div>`,
  byline: (c, L, rng) =>
    `<div${c('meta')}><span>${esc(L.by)} <a href="/authors/x">${esc(rng.pick(L.people))}</a></span> <time datetime="2024-03-12">${esc(L.date)}</time> <span>5 ${esc(L.minRead)}</span></div>`,
  dek: (c, text) => `<p${c('dek')}>${esc(text)}</p>`,
  share: (c, L, rng) =>
    rng() < 0.5
      ? `<div${c('share')}><span>${esc(L.shareLabel)}</span><ul>${L.share.map((s) => `<li><a href="https://example.com/share?u=1" title="${esc(s)}">${ICON}<span>${esc(s)}</span></a></li>`).join('')}</ul></div>`
      : `<div${c('share')}>${L.share.map((s) => `<a href="https://example.com/share?u=2" aria-label="${esc(s)}">${ICON}</a>`).join(' ')}<a href="#comments">${esc(L.comments(12))}</a></div>`,
  newsletter: (c, L) =>
    `<div${c('newsletter')}><p><strong>${esc(L.newsletterHead)}</strong></p><p>${esc(L.newsletterText)}</p>` +
    `<form action="/newsletter"><input type="email" placeholder="you@example.com"><button>${esc(L.subscribe)}</button></form><p><small>${esc(L.newsletterPrivacy)}</small></p></div>`,
  related: (c, L, rng) =>
    `<div${c('related')}><h3>${esc(L.related)}</h3><ul>${rng
      .some(L.headlines, 3)
      .map(
        (h) =>
          `<li><a href="/news/${encodeURIComponent(h.slice(0, 12))}">${esc(h)}</a>${rng() < 0.4 ? ` <span>${esc(L.date)}</span>` : ''}</li>`,
      )
      .join('')}</ul></div>`,
  readMore: (c, L, rng) =>
    `<p${c('readmore')}><strong>${esc(L.readMore)}:</strong> <a href="/news/more">${esc(rng.pick(L.headlines))}</a></p>`,
  ad: (c, L) => `<div${c('ad')}><span>${esc(L.advert)}</span><div id="ad-${Math.abs(L.advert.length)}-slot"></div></div>`,
  figure: (c, caption, credit, rng) =>
    `<figure${c('figure')}><img src="/img/${Math.floor(rng() * 1e6)}.jpg" alt="${esc(caption)}" width="800" height="533">` +
    `<figcaption${c('caption')}>${esc(caption)} <span>${esc(credit)}</span></figcaption></figure>`,
  paywall: (c, L) => `<div${c('paywall')}><p>${esc(L.paywall)}</p><a href="/subscribe">${esc(L.subscribe)}</a></div>`,
  bio: (c, L, rng) => {
    const name = rng.pick(L.people);
    return `<div${c('bio')}><img src="/authors/${name.length}.jpg" alt="${esc(name)}"><p>${esc(L.bio(name))}</p><a href="/authors/x">${esc(L.follow)}</a></div>`;
  },
  tags: (c, L, rng) => `<div${c('tags')}><span>${esc(L.tags)}:</span><ul>${links(rng.some(L.sections, 3), '/topics/')}</ul></div>`,
  sidebar: (c, L, rng) =>
    `<div${c('sidebar')}><h3>${esc(L.popular)}</h3><ol>${rng
      .some(L.headlines, 5)
      .map((h) => `<li><a href="/news/p">${esc(h)}</a></li>`)
      .join('')}</ol>${rng() < 0.5 ? chrome.newsletter(c, L) : chrome.ad(c, L)}</div>`,
  footer: (c, L, rng) =>
    `<footer${c('footer')}><div><ul>${links(L.sections)}</ul><ul>${links(L.footer)}</ul></div>` +
    `<p>${esc(L.about)}</p><p>© 2024 ${rng() < 0.5 ? 'Northern Media Ltd' : 'The Daily Courier'}</p></footer>`,
  comments: (c, L, items, rng) =>
    `<div${c('comments')} id="comments"><h2>${esc(L.comments(items.length))}</h2><ol>${items
      .map(
        (item) =>
          `<li><div${c('meta')}><b>${esc(item.author)}</b> <time>${esc(L.date)}</time></div>${item.lines.map((t) => `<p>${esc(t)}</p>`).join('')}` +
          `<a href="#reply" rel="nofollow">Reply</a> <span>${Math.floor(rng() * 40)} likes</span></li>`,
      )
      .join('')}</ol><h3>${esc(L.leaveReply)}</h3><form><textarea></textarea><button>Post</button></form></div>`,
};

module.exports = { chrome, naming, random, esc, links };
