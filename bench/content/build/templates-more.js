'use strict';
/** Recipe, product, forum/Q&A and docs pages (see templates.js for news, blog and gallery). */
const { chrome, naming, esc, links } = require('./chrome');
const { renderBody } = require('./blocks');
const { shell } = require('./templates');
const LANG = require('./lang');

/** Recipe blog: a long intro, jump/print/pin buttons, rating, recipe card, reviews. */
function recipePage(article, style, rng) {
  const L = LANG[article.lang];
  const c = naming(style, rng);
  const options = { c, wrap: style === 'hashed', rng };
  const intro = article.blocks.filter((b, i) => i < article.blocks.findIndex((x) => x.kind === 'h2'));
  const card = article.blocks.slice(intro.length);
  const tools =
    `<div${c('tools')}><a href="#recipe">Jump to Recipe</a> <a href="/print/1">Print Recipe</a> <a href="https://pinterest.example/pin">Pin Recipe</a></div>` +
    `<div${c('rating')}><span>★★★★★</span> <span>4.8 from 126 votes</span></div>`;
  const reviews = [
    { author: 'Becky', lines: ['Made this last night and the whole family loved it. Will definitely make again!'] },
    { author: 'Alan G', lines: ['Easy and tasty. I added a bit more salt.'] },
  ];
  const body =
    `${chrome.header(c, L, rng, 'Simple Suppers')}<main><article${c('article')}><h1${c('title')}>${esc(article.title)}</h1>${chrome.byline(c, L, rng)}${tools}` +
    `<div${c('body')}>${renderBody(intro, options, rng() < 0.6 ? [chrome.ad(c, L)] : [])}` +
    `${chrome.figure(c, article.title, 'Photo: Simple Suppers', rng)}${rng() < 0.5 ? chrome.newsletter(c, L) : ''}` +
    `<div${c('card')} id="recipe">${renderBody(card, options)}<p>Tried this recipe? Tag us on Instagram @simplesuppers</p></div></div>` +
    `${chrome.share(c, L, rng)}</article>${chrome.comments(c, L, reviews, rng)}</main>${chrome.sidebar(c, L, rng)}${chrome.footer(c, L, rng)}`;
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Recipe',
    name: article.title,
    recipeIngredient: card.filter((b) => b.kind === 'li').map((b) => b.text),
    recipeInstructions: card.filter((b) => b.kind === 'ol').map((b) => ({ '@type': 'HowToStep', text: b.text })),
  };
  return shell({ lang: article.lang, title: article.title, site: 'Simple Suppers', body, jsonLd });
}

/** Shop product page: gallery, price, basket form, tabs, reviews, "customers also bought". */
function productPage(article, style, rng) {
  const L = LANG[article.lang];
  const c = naming(style, rng);
  const options = { c, wrap: false, rng };
  const reviews = article.reviews ?? [];
  const buy =
    `<div${c('buy')}><p${c('price')}>${esc(article.price)}</p><p>In stock. Free delivery on orders over £50.</p>` +
    `<form action="/cart/add"><select><option>1</option><option>2</option></select><button>Add to basket</button></form>` +
    `<a href="/wishlist">Add to wishlist</a><ul><li>30-day returns</li><li>Secure checkout</li></ul></div>`;
  const also = `<div${c('related')}><h2>Customers also bought</h2><ul>${['Travel Mug', 'Cleaning Tablets', 'Gift Card', 'Storage Jar']
    .map((p, i) => `<li><a href="/p/${i}"><img src="/p/${i}.jpg" alt="${p}"><span>${p}</span><span>£${12 + i * 7}.00</span></a></li>`)
    .join('')}</ul></div>`;
  const reviewsHtml = `<div${c('reviews')} id="reviews"><h2>Customer reviews (${reviews.length})</h2>${reviews
    .map(
      (r) =>
        `<div${c('review')}><p><b>${esc(r.author)}</b> ★★★★☆</p>${r.lines.map((t) => `<p>${esc(t)}</p>`).join('')}<p>Was this helpful? <a href="#">Yes</a> <a href="#">No</a></p></div>`,
    )
    .join('')}</div>`;
  const body =
    `${chrome.header(c, L, rng, 'Homestore')}${chrome.breadcrumb(c, L)}<main><div${c('product')} itemscope itemtype="https://schema.org/Product">` +
    `<div${c('media')}><img src="/p/main.jpg" alt="${esc(article.title)}"><ul>${[1, 2, 3].map((i) => `<li><img src="/p/t${i}.jpg" alt=""></li>`).join('')}</ul></div>` +
    `<h1 itemprop="name">${esc(article.title)}</h1><p>★★★★☆ <a href="#reviews">${reviews.length} reviews</a></p>${buy}` +
    `<div${c('tabs')}><ul><li><a href="#desc">Description</a></li><li><a href="#specs">Specifications</a></li><li><a href="#reviews">Reviews</a></li></ul>` +
    `<div itemprop="description" id="desc">${renderBody(article.blocks, options)}</div></div></div>${reviewsHtml}${also}</main>` +
    `${chrome.newsletter(c, L)}${chrome.footer(c, L, rng)}`;
  const jsonLd = { '@context': 'https://schema.org', '@type': 'Product', name: article.title, offers: { price: article.price } };
  return shell({ lang: article.lang, title: article.title, site: 'Homestore', body, jsonLd });
}

/** Forum thread (phpBB/Discourse shapes) or Q&A page: posts are the content, user cards are not. */
function forumPage(article, style, rng) {
  const L = LANG[article.lang];
  const c = naming(style, rng);
  const qa = article.id.includes('-qa-');
  const posts = [];
  for (const block of article.blocks) {
    if (block.kind === 'post') posts.push({ author: block.text, blocks: [] });
    else posts[posts.length - 1]?.blocks.push({ ...block, owner: 'body' });
  }
  const card = (author, i) =>
    qa
      ? `<div${c('usercard')}><span>${i === 0 ? 'asked' : 'answered'} Mar 12, 2024 at 9:${10 + i}</span><a href="/users/${i}">${esc(author)}</a><span>${1200 + i * 317}</span><span>12 gold badges</span></div>`
      : `<div${c('usercard')}><img src="/avatars/${i}.png" alt=""><a href="/u/${i}">${esc(author)}</a><span>Joined: Jan 2019</span><span>Posts: ${40 + i * 13}</span></div>`;
  const postHtml = (post, i) =>
    `<div${c(qa ? (i === 0 ? 'question' : 'answer') : 'post')} id="p${i}">` +
    (qa
      ? `<div${c('votes')}><button>▲</button><span>${Math.floor(rng() * 300)}</span><button>▼</button></div>`
      : `<div${c('postmeta')}><a href="#p${i}">#${i + 1}</a> <time>12 Mar 2024</time></div>`) +
    `${qa ? '' : card(post.author, i)}<div${c('postbody')}>${renderBody(post.blocks, { c, wrap: false, rng })}</div>` +
    (qa
      ? `<div${c('postmenu')}><a href="#">Share</a> <a href="#">Improve this ${i === 0 ? 'question' : 'answer'}</a> <a href="#">Follow</a></div>${card(post.author, i)}`
      : '') +
    (!qa && rng() < 0.3 ? `<div${c('signature')}>Sent from my phone. Check out my build thread!</div>` : '') +
    `<div${c('actions')}>${qa ? '<a href="#">Add a comment</a>' : '<a href="#">Quote</a> <a href="#">Reply</a> <a href="#">Report</a> <span>♥ 3</span>'}</div></div>`;
  const related = `<div${c('sidebar')}><h4>${qa ? 'Related questions' : 'Similar threads'}</h4><ul>${links(
    ['How to fix a leaking tap', 'Best way to bleed radiators', 'Recommended tools for beginners', 'Is this normal?'],
    '/t/',
  )}</ul>${qa ? `<h4>Hot Network Questions</h4><ul>${links(['Why does my cat sit on my keyboard', 'Is it safe to eat raw flour', 'What does this error mean'], '/q/')}</ul>` : ''}</div>`;
  const pager = `<div${c('pagination')}>Page 1 of 1 · <a href="/t/1?page=1">1</a></div>`;
  const body =
    `${chrome.header(c, L, rng, qa ? 'AskAnything' : 'Community Forums')}${chrome.breadcrumb(c, L)}<div${c('wrapper')}><div${c('topic')}>` +
    `<h1${c('title')}>${esc(article.title)}</h1><p>${qa ? `Asked 2 years ago · Viewed ${Math.floor(rng() * 90000)} times` : `Started by ${esc(posts[0].author)}, 12 Mar 2024`}</p>${pager}` +
    `${posts.map(postHtml).join('')}${qa ? '<h2>Your Answer</h2><form><textarea></textarea><button>Post Your Answer</button></form>' : pager}</div>${related}</div>` +
    `${chrome.footer(c, L, rng)}`;
  return shell({ lang: article.lang, title: article.title, site: qa ? 'AskAnything' : 'Community Forums', body });
}

/** Docs site (Docusaurus or Sphinx shapes): sidebar tree, "on this page", edit link, pager. */
function docsPage(article, style, rng) {
  const c = naming(style, rng);
  const headings = article.blocks.filter((b) => b.kind === 'h2').map((b) => b.text);
  const tree = `<nav${c('docsidebar')} aria-label="Docs sidebar"><ul>${links(['Introduction', 'Installation', 'Quick start', 'Queues', 'Workers', 'Retrying failed jobs', 'Configuration', 'Deployment', 'FAQ'], '/docs/')}</ul></nav>`;
  const toc = `<div${c('toc')}><p>On this page</p><ul>${headings.map((h) => `<li><a href="#${encodeURIComponent(h)}">${esc(h)}</a></li>`).join('')}</ul></div>`;
  const foot =
    `<div${c('docfoot')}><a href="https://git.example/edit/docs/page.md">Edit this page</a><span>Last updated on Mar 12, 2024</span></div>` +
    `<nav${c('pager')} aria-label="Docs pages"><a href="/docs/prev"><span>Previous</span><span>Workers</span></a><a href="/docs/next"><span>Next</span><span>Configuration</span></a></nav>`;
  const body =
    `<nav${c('navbar')}><a href="/">Relay</a>${links(['Docs', 'API', 'Blog', 'GitHub'])}<select><option>v3.x</option></select></nav>` +
    `<div${c('wrapper')}>${tree}<main><div${c('breadcrumb')}><a href="/docs">Docs</a> › <span>Guides</span></div><article><div${c('markdown')}>` +
    `<h1>${esc(article.title)}</h1>${renderBody(article.blocks, { c, wrap: false, rng })}</div></article>${foot}</main>${toc}</div>` +
    `<footer${c('footer')}><p>Copyright © 2024 Relay contributors. Built with a static site generator.</p></footer>`;
  return shell({ lang: article.lang, title: article.title, site: 'Relay docs', body });
}

module.exports = { recipePage, productPage, forumPage, docsPage };
