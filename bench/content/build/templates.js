'use strict';
/**
 * Whole pages per template: the article's blocks in a site's markup with the chrome real sites of
 * that kind carry (navigation, cookie layers, in-article promos, comment threads, reviews, forum
 * user cards, docs sidebars). `style` is the site's naming style; `rng` varies what appears where.
 */
const { chrome, naming, esc, links } = require('./chrome');
const { renderBody, plainText } = require('./blocks');
const LANG = require('./lang');

const SITES = ['The Daily Courier', 'Northern Post', 'Harbour Gazette', 'Metro Ledger', 'Valley Times', 'Coastline'];
const STATE = (text) => `<script>window.__STATE__=${JSON.stringify({ page: { body: text.slice(0, 400) }, ab: [1, 2, 3] })};</script>`;

function shell({ lang, title, site, body, jsonLd, extraHead = '' }) {
  return `<!DOCTYPE html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${esc(title)} | ${esc(site)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><meta property="og:title" content="${esc(title)}">
<meta property="og:site_name" content="${esc(site)}"><link rel="stylesheet" href="/assets/main.css">
<script>(function(){window.dataLayer=window.dataLayer||[];dataLayer.push({event:'pageview'});})();</script>
${jsonLd ? `<script type="application/ld+json">${JSON.stringify(jsonLd)}</script>` : ''}${extraHead}
</head><body>
${body}
<script src="/assets/app.js" defer></script></body></html>
`;
}

function articleJsonLd(article, rng, type = 'NewsArticle') {
  const body = rng() < 0.5 ? plainText(article.blocks) : plainText(article.blocks.slice(0, 3)); // often only a summary
  return { '@context': 'https://schema.org', '@type': type, headline: article.title, datePublished: '2024-03-12', articleBody: body };
}

/** The in-article boilerplate a news or blog site of this kind drops between paragraphs. */
function inArticleExtras(c, L, rng, kind) {
  const pool = [
    () => chrome.readMore(c, L, rng),
    () => chrome.related(c, L, rng),
    () => chrome.newsletter(c, L),
    () => chrome.ad(c, L),
    () => chrome.readMore(c, L, rng),
  ];
  if (kind === 'news') pool.push(() => chrome.paywall(c, L));
  return rng.some(pool, 1 + Math.floor(rng() * 3)).map((make) => make());
}

function newsPage(article, style, rng) {
  const L = LANG[article.lang];
  const c = naming(style, rng);
  const site = rng.pick(SITES);
  const wrap = style === 'hashed';
  const options = { c, wrap, rng };
  const extras = inArticleExtras(c, L, rng, 'news');
  const figure = (g) => chrome.figure(c, g.caption, g.credit, rng);
  const itemprop = rng() < 0.3 ? ' itemprop="articleBody"' : '';
  const lead = chrome.figure(c, `${article.title.split(' ').slice(0, 4).join(' ')}.`, `Photograph: ${rng.pick(L.people)}/Agency`, rng);
  const bodyHtml = renderBody(article.blocks, options, extras, figure);
  const sidebar = rng() < 0.7 ? chrome.sidebar(c, L, rng) : '';
  const tag = style !== 'none' && rng() < 0.7 ? 'article' : 'div';
  const mainTag = rng() < 0.6 ? 'main' : 'div';
  const main =
    `<${tag}${c('article')}>` +
    `${rng() < 0.5 ? chrome.breadcrumb(c, L) : ''}<h1${c('title')}>${esc(article.title)}</h1>` +
    `${article.dek ? chrome.dek(c, article.dek) : ''}${chrome.byline(c, L, rng)}${chrome.share(c, L, rng)}${rng() < 0.7 ? lead : ''}` +
    `<div${c('body')}${itemprop}>${bodyHtml}</div>` +
    `${rng() < 0.6 ? chrome.tags(c, L, rng) : ''}${rng() < 0.6 ? chrome.bio(c, L, rng) : ''}${rng() < 0.5 ? chrome.share(c, L, rng) : ''}</${tag}>`;
  const body =
    `${rng() < 0.5 ? chrome.cookie(c, L, rng) : ''}${chrome.header(c, L, rng, site)}` +
    `<div${c('wrapper')}><${mainTag}${c('main')}>${main}` +
    `${rng() < 0.5 ? chrome.related(c, L, rng) : ''}</${mainTag}>${sidebar}</div>` +
    `${article.comments?.length ? chrome.comments(c, L, article.comments, rng) : ''}${chrome.footer(c, L, rng)}` +
    `${rng() < 0.5 ? chrome.cookie(c, L, rng) : ''}`;
  const jsonLd = rng() < 0.5 ? articleJsonLd(article, rng) : undefined;
  return shell({ lang: article.lang, title: article.title, site, body, jsonLd, extraHead: STATE(article.title) });
}

const BLOG_COMMENTS = [
  { author: 'Karen', lines: ['Thanks for writing this up, really useful. I am going to try the same thing next month.'] },
  { author: 'mike_b', lines: ['Great post! Bookmarked for later.'] },
  { author: 'Jo', lines: ['I had exactly the same problem last year and gave up. Might give it another go after reading this.'] },
];

function blogPage(article, style, rng) {
  const L = LANG[article.lang];
  const c = naming(style, rng);
  const site = `${rng.pick(L.people).split(' ')[0]}’s notebook`;
  const extras = rng.some(
    [chrome.newsletter(c, L), chrome.share(c, L, rng), chrome.readMore(c, L, rng), chrome.related(c, L, rng)],
    1 + Math.floor(rng() * 2),
  );
  const bodyHtml = renderBody(article.blocks, { c, wrap: style === 'hashed', rng }, extras);
  const archives =
    `<div${c('sidebar')}><h3>Archives</h3><ul>${links(['March 2024', 'February 2024', 'January 2024', 'December 2023'], '/archive/')}</ul>` +
    `<h3>Categories</h3><ul>${links(['Food', 'Garden', 'Making', 'Work'], '/category/')}</ul><h3>About me</h3><p>I write about the things I make and mend, mostly at weekends.</p></div>`;
  const comments = article.comments?.length ? article.comments : rng() < 0.6 ? BLOG_COMMENTS : [];
  const postNav = `<nav${c('pager')}><a href="/prev">← Previous post</a> <a href="/next">Next post →</a></nav>`;
  const body =
    `${chrome.header(c, L, rng, site)}<div${c('wrapper')}><div${c('main')}><div${c('article')} id="post-${Math.floor(rng() * 999)}">` +
    `<h1${c('title')}>${esc(article.title)}</h1><div${c('meta')}>Posted on <time>${L.date}</time> by <a href="/about">${esc(site)}</a> · <a href="#comments">${comments.length} comments</a></div>` +
    `<div${c('body')}>${bodyHtml}</div>${rng() < 0.7 ? chrome.share(c, L, rng) : ''}${rng() < 0.5 ? chrome.bio(c, L, rng) : ''}` +
    `${chrome.tags(c, L, rng)}</div>${postNav}${comments.length ? chrome.comments(c, L, comments, rng) : ''}</div>${archives}</div>` +
    `${chrome.footer(c, L, rng)}`;
  const jsonLd = rng() < 0.4 ? articleJsonLd(article, rng, 'BlogPosting') : undefined;
  return shell({ lang: article.lang, title: article.title, site, body, jsonLd });
}

/** Gallery: each photo its own slide with a counter, credit and share link; thumbnails below. */
function galleryPage(article, style, rng) {
  const L = LANG[article.lang];
  const c = naming(style, rng);
  const photos = article.blocks.filter((b) => b.kind === 'photo');
  let n = 0;
  const figure = (g) =>
    `<div${c('slide')}><span${c('counter')}>${++n} / ${photos.length}</span>${chrome.figure(c, g.caption, g.credit, rng)}` +
    `${rng() < 0.5 ? `<a href="#slide-${n}">Share this image</a>` : ''}</div>`;
  const bodyHtml = renderBody(article.blocks, { c, wrap: style === 'hashed', rng }, rng() < 0.5 ? [chrome.ad(c, L)] : [], figure);
  const thumbs = `<div${c('thumbs')}><ul>${photos.map((p, i) => `<li><a href="#slide-${i + 1}"><img src="/t/${i}.jpg" alt=""></a></li>`).join('')}</ul></div>`;
  const more = `<div${c('related')}><h2>More galleries</h2><ul>${rng
    .some(L.headlines, 4)
    .map((h) => `<li><a href="/galleries/x"><img src="/g.jpg" alt=""><span>${esc(h)}</span><span>12 photos</span></a></li>`)
    .join('')}</ul></div>`;
  const body =
    `${chrome.header(c, L, rng, 'Pictures')}<main><article${c('article')}><h1${c('title')}>${esc(article.title)}</h1>${chrome.byline(c, L, rng)}` +
    `${chrome.share(c, L, rng)}<div${c('body')}>${bodyHtml}</div>${thumbs}</article>${more}</main>${chrome.footer(c, L, rng)}`;
  return shell({
    lang: article.lang,
    title: article.title,
    site: 'Pictures',
    body,
    jsonLd: rng() < 0.5 ? articleJsonLd(article, rng) : undefined,
  });
}

module.exports = { newsPage, blogPage, galleryPage, shell, SITES };
