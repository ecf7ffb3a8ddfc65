import { createContentExtractor } from '../src/content/page-content';
import { parseDocument } from '../src/content/dom';
import { prepareGeneratedPage } from '../src/content/doc-generators';

const text = (html: string) => createContentExtractor().extract(html, 'https://docs.example/api/page.html', { text: true }).text ?? '';
/** The content's first line: its h1, the page's title as extraction found it. */
const heading = (out: string) => out.split('\n')[0]?.replace(/^#\s*/, '');

const PROSE =
  'The limiter keeps the timestamps of recent events and drops the ones that have aged out, so a client can never send twice the limit across a window boundary. ' +
  'Memory use is proportional to the limit, and every call takes constant time once the oldest entries have been dropped from the front of the queue. ';

describe('rustdoc pages', () => {
  const page =
    '<html><head><meta name="generator" content="rustdoc"><title>RateWindow in tallyho - Rust</title></head>' +
    '<body class="rustdoc struct"><nav class="sidebar"><a href="#">RateWindow</a></nav><main><section id="main-content" class="content">' +
    '<div class="main-heading"><h1>Struct tallyho::RateWindow</h1><span class="out-of-band"><a class="src" href="../src/w.rs.html#18">source</a> · [−]</span></div>' +
    '<pre class="rust item-decl"><code>pub struct RateWindow { /* private fields */ }</code></pre>' +
    `<details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock"><p>${PROSE}</p></div></details>` +
    '<h2 id="implementations" class="section-header">Implementations</h2>' +
    '<details class="toggle method-toggle" open><summary><section id="method.new" class="method"><a class="src rightside" href="../src/w.rs.html#31">source</a>' +
    '<h4 class="code-header">pub fn new(period: Duration) -&gt; Self</h4></section></summary><div class="docblock"><p>Creates a window admitting a number of events per period of time.</p></div></details>' +
    '<h2 id="trait-implementations" class="section-header">Trait Implementations</h2><div id="trait-implementations-list"><section class="impl"><h3 class="code-header">impl Clone for RateWindow</h3></section><div class="docblock">Returns a copy of the value. Read more</div></div>' +
    '<h2 id="synthetic-implementations" class="section-header">Auto Trait Implementations</h2><div id="synthetic-implementations-list"><section class="impl"><h3 class="code-header">impl Send for RateWindow</h3></section></div>' +
    '<h2 id="blanket-implementations" class="section-header">Blanket Implementations</h2><div id="blanket-implementations-list"><section class="impl"><h3 class="code-header">impl&lt;T&gt; From&lt;T&gt; for T</h3></section></div>' +
    '</section></main></body></html>';

  it('lose their source links, toggle labels and the implementations every type gets', () => {
    const out = text(page);
    expect(out).toContain('pub struct RateWindow');
    expect(out).toContain('The limiter keeps the timestamps');
    expect(out).toContain('pub fn new(period: Duration) -> Self');
    expect(out).toContain('Creates a window admitting');
    for (const gone of [
      'source',
      'Expand description',
      'Trait Implementations',
      'impl Clone for',
      'Returns a copy',
      'impl Send for',
      'Blanket Implementations',
      'impl<T> From<T>',
    ])
      expect(out).not.toContain(gone);
  });

  it('are known by their generator meta when the body is not marked', () => {
    expect(text(page.replace('class="rustdoc struct"', ''))).not.toContain('Auto Trait Implementations');
  });
});

describe('Doxygen pages', () => {
  const page =
    '<html><head><meta name="generator" content="Doxygen 1.9.8"><title>SensorKit: sensorkit::RingBuffer&lt; T &gt; Class Template Reference</title></head><body>' +
    '<div id="top"><div id="projectname">SensorKit</div></div><div id="doc-content">' +
    '<div class="header"><div class="summary"><a href="#pub-methods">Public Member Functions</a> | <a href="members.html">List of all members</a></div>' +
    '<div class="headertitle"><div class="title">sensorkit::RingBuffer&lt; T &gt; Class Template Reference</div></div></div>' +
    '<div class="contents"><table class="memberdecls"><tr class="heading"><td colspan="2"><h2 class="groupheader">Public Member Functions</h2></td></tr>' +
    '<tr><td class="memItemLeft">bool&#160;</td><td class="memItemRight"><a class="el" href="#a1">try_push</a> (const T &amp;value) noexcept</td></tr></table>' +
    `<h2 class="groupheader">Detailed Description</h2><div class="textblock"><p>${PROSE}</p></div>` +
    '<h2 class="groupheader">Member Function Documentation</h2><h2 class="memtitle"><span class="permalink"><a href="#a1">&#9670;&#160;</a></span>try_push()</h2>' +
    '<div class="memitem"><div class="memproto"><table class="mlabels"><tr><td class="mlabels-left"><table class="memname"><tr><td class="memname">bool sensorkit::RingBuffer::try_push</td><td>(</td><td class="paramname">value</td><td>)</td></tr></table></td>' +
    '<td class="mlabels-right"><span class="mlabels"><span class="mlabel">noexcept</span></span></td></tr></table></div>' +
    '<div class="memdoc"><p>Append a value if there is room in the buffer for it.</p></div></div>' +
    '<hr/>The documentation for this class was generated from the following file:<ul><li>include/sensorkit/ring_buffer.hpp</li></ul>' +
    '</div></div></body></html>';

  it('take their title from the header, and lose the member summary, permalinks, qualifiers and footer', () => {
    const out = text(page);
    expect(heading(out)).toBe('sensorkit::RingBuffer< T > Class Template Reference');
    expect(out).toContain('Detailed Description');
    expect(out).toContain('bool sensorkit::RingBuffer::try_push');
    expect(out).toContain('Append a value if there is room');
    for (const gone of [
      'Public Member Functions',
      'List of all members',
      '◆',
      'noexcept',
      'The documentation for this class',
      'ring_buffer.hpp',
    ])
      expect(out).not.toContain(gone);
  });
});

describe('javadoc pages', () => {
  it('take their title from the header, and lose the inheritance tree and summary tab captions', () => {
    const page =
      '<html><head><title>TokenBucketLimiter (quarry-core 2.4.1 API)</title></head><body><div class="topNav"><ul><li>Overview</li></ul></div>' +
      '<div class="header"><div class="subTitle">io.quarry.core.limit</div><h2 title="Class TokenBucketLimiter" class="title">Class TokenBucketLimiter</h2></div>' +
      '<div class="contentContainer"><ul class="inheritance"><li>java.lang.Object</li><li><ul class="inheritance"><li>io.quarry.core.limit.TokenBucketLimiter</li></ul></li></ul>' +
      `<div class="description"><pre>public final class TokenBucketLimiter</pre><div class="block"><p>${PROSE}</p></div></div>` +
      '<div class="summary"><h3>Method Summary</h3><table class="memberSummary"><caption><span>All Methods</span><span>Instance Methods</span></caption>' +
      '<tr><th>Modifier and Type</th><th>Method and Description</th></tr><tr><td><code>boolean</code></td><td><code>tryAcquire()</code> Takes one permit if it is available.</td></tr></table></div>' +
      '</div></body></html>';
    const out = text(page);
    expect(heading(out)).toBe('Class TokenBucketLimiter');
    expect(out).toContain('public final class TokenBucketLimiter');
    expect(out).toContain('Takes one permit if it is available.');
    for (const gone of ['java.lang.Object', 'io.quarry.core.limit.TokenBucketLimiter', 'All Methods', 'Instance Methods'])
      expect(out).not.toContain(gone);
  });
});

describe('ExDoc (hexdocs) pages', () => {
  const detail = (id: string, signature: string, spec: string, doc: string) =>
    `<section class="detail" id="${id}"><div class="detail-header"><a href="#${id}" class="detail-link" aria-label="Link to this function"></a>` +
    `<h1 class="signature" translate="no">${signature}</h1><a href="https://github.com/x/y/blob/v1/lib/b.ex#L4" class="icon-action" rel="help" aria-label="View Source"></a></div>` +
    `<section class="docstring"><div class="specs"><pre translate="no">${spec}</pre></div><p>${doc}</p></section></section>`;
  const page =
    '<html><head><meta name="generator" content="ExDoc v0.34.1"><title>Tollgate.Bucket — tollgate v0.9.2</title></head><body>' +
    '<nav id="sidebar" class="sidebar"><a href="Tollgate.html">tollgate</a></nav><main class="content" id="main"><div id="content" class="content-inner">' +
    '<div id="top-content"><h1><a href="https://github.com/x/y/blob/v1/lib/b.ex#L1" title="View Source" class="icon-action" rel="help"><span class="sr-only">View Source</span></a>' +
    '<span translate="no">Tollgate.Bucket</span> <small class="app-vsn">(tollgate v0.9.2)</small></h1>' +
    `<section id="moduledoc"><p>${PROSE}</p></section></div>` +
    '<section id="summary" class="details-list"><h1 class="section-heading"><span class="text">Summary</span></h1><div class="summary-row"><div class="summary-signature"><a href="#new/1">new(opts)</a></div>' +
    '<div class="summary-synopsis"><p>Creates a bucket definition.</p></div></div></section>' +
    '<section id="functions" class="details-list"><h1 class="section-heading"><span class="text">Functions</span></h1><div class="functions-list">' +
    detail(
      'new/1',
      'new(opts)',
      '@spec new(<a href="https://hexdocs.pm/elixir/typespecs.html">keyword</a>()) :: <a href="#t:t/0">t</a>()',
      'Creates a bucket definition from options given as a keyword list.',
    ) +
    detail(
      'take/3',
      'take(bucket, key)',
      '@spec take(<a href="#t:t/0">t</a>(), <a href="https://hexdocs.pm/elixir/typespecs.html">term</a>()) :: :ok',
      'Attempts to remove one token from the bucket for the key.',
    ) +
    '</div></section></div></main></body></html>';

  it('keep one h1, the module, and each function’s signature and linked spec; lose the summary and source links', () => {
    const out = text(page);
    expect(heading(out)).toBe('Tollgate.Bucket');
    for (const kept of [
      'new(opts)',
      '@spec new(keyword()) :: t()',
      'take(bucket, key)',
      '@spec take(t(), term()) :: :ok',
      'Attempts to remove one token',
    ])
      expect(out).toContain(kept);
    for (const gone of ['View Source', 'Summary', 'Creates a bucket definition.\n', '(tollgate v0.9.2)']) expect(out).not.toContain(gone);
  });
});

describe('ExDoc’s class names on other sites', () => {
  const prepared = (html: string) => {
    const document = parseDocument(`<html><head><title>Jobs</title></head><body><main>${html}</main></body></html>`);
    prepareGeneratedPage(document);
    return document;
  };

  it.each([
    '<div class="job"><h3><a class="detail-link" href="/jobs/41">Senior Backend Engineer</a></h3><p>Remote, full time.</p></div>',
    '<div class="detail-header"><a class="detail-link" href="/jobs/41">Senior Backend Engineer</a></div><p>Remote, full time.</p>',
  ])('keep a job listing’s title linked as "detail-link": %s', (html) => {
    expect(prepared(html).body.textContent).toContain('Senior Backend Engineer');
  });

  it.each([
    '<h1 class="section-heading">Our story</h1>',
    '<section class="details-list"><h1 class="section-heading">Our story</h1></section>',
  ])('keep a page’s h1 named "section-heading": %s', (html) => {
    expect(prepared(html).querySelector('h1')?.textContent).toBe('Our story');
  });
});

describe('Redoc pages', () => {
  const page =
    '<html><head><title>Parcelroute API Reference</title></head><body><div id="redoc"><div class="sc-a redoc-wrap"><div class="menu-content"><ul role="menu"><li>Create a shipment</li></ul></div>' +
    '<div class="api-content"><div id="op" class="sc-b"><h2>Create a shipment</h2><div class="sc-c"><p>Creates a shipment, validates both addresses and returns the available rates for it.</p></div>' +
    '<h5>Request Body schema: application/json</h5><table><tbody><tr><td kind="field" title="to_address"><span class="property-name">to_address</span><div class="sc-d">required</div></td>' +
    '<td><div><span>object</span></div><div><p>Recipient address. Country is a two-letter ISO 3166 code.</p></div></td></tr></tbody></table>' +
    '<div><h3>Responses</h3><div><button class="sc-e"><strong>201 </strong><div class="sc-f"><p>Shipment created, with a list of rates.</p></div></button></div>' +
    '<div><button class="sc-e"><strong>422 </strong><div><p>One of the addresses could not be validated.</p></div></button></div></div>' +
    '<div><h3>Request samples</h3><ul class="react-tabs__tab-list" role="tablist"><li class="react-tabs__tab" role="tab">Payload</li></ul>' +
    '<div role="tabpanel"><button>Copy</button><pre>{ "to_address": { "country": "PT" } }</pre></div></div></div></div></div></div></body></html>';

  it('keep the responses written in their buttons, and lose tab labels and field labels', () => {
    const out = text(page);
    expect(out).toContain('Shipment created, with a list of rates.');
    expect(out).toContain('One of the addresses could not be validated.');
    expect(out).toContain('"country": "PT"');
    for (const gone of ['required', 'Payload', 'Copy']) expect(out).not.toContain(gone);
  });

  it('but a button’s one-word label in a paragraph is still a control', () => {
    const prose = `<html><body><article><h1>Parallel tests</h1><p>${PROSE}</p><button aria-label="Listen"><p>Listen</p></button><p>${PROSE}</p></article></body></html>`;
    expect(text(prose)).not.toContain('Listen');
  });
});

describe('a table of contents in a disclosure box (Jekyll: Just the Docs)', () => {
  it('go with their disclosure label; the line introducing a code block stays, whatever it says', () => {
    const page =
      '<html><head><title>Configuration file</title></head><body><main><div id="main-content"><h1>Configuration file</h1>' +
      '<details open><summary class="text-delta">Table of contents</summary><ol id="markdown-toc"><li><a href="#where">Where it looks</a></li><li><a href="#example">A minimal example</a></li></ol></details>' +
      `<h2 id="where">Where it looks</h2><p>${PROSE}</p>` +
      '<h2 id="example">A minimal example</h2><p>This configuration writes a calendar file that your calendar app can subscribe to:</p>' +
      '<div class="language-toml highlighter-rouge"><div class="highlight"><pre class="highlight"><code>[output]\npath = "tides.ics"</code></pre></div></div>' +
      `<p>${PROSE}</p></div></main></body></html>`;
    const out = text(page);
    expect(out).not.toContain('Table of contents');
    expect(out).not.toContain('Where it looks\nA minimal example');
    expect(out).toContain('your calendar app can subscribe to:');
    expect(out).toContain('path = "tides.ics"');
  });
});

describe('a heading in a box of its own with its permalink', () => {
  it('keeps its title (GitHub’s rendered markdown, GitBook)', () => {
    const section = (id: string, title: string) =>
      `<div class="markdown-heading" id="${id}"><h2 class="heading-element">${title}</h2><a class="anchor" aria-label="Permalink: ${title}" href="#${id}"><svg></svg></a></div><p>${PROSE}</p>`;
    const page = `<html><head><title>Building on Windows</title></head><body><main><article class="markdown-body"><h1>Building on Windows</h1>${section('requirements', 'Requirements')}${section('getting-the-source', 'Getting the source')}</article></main></body></html>`;
    const out = text(page);
    expect(out).toContain('Requirements');
    expect(out).toContain('Getting the source');
  });

  it('keeps its title when its section holds nothing else (MDN’s “Examples” over the examples’ sections)', () => {
    const page =
      `<html><head><title>AbortSignal.timeout()</title></head><body><main><article><h1>AbortSignal.timeout()</h1><p>${PROSE}</p>` +
      '<section aria-labelledby="examples"><h2 id="examples"><a href="#examples">Examples</a></h2></section>' +
      `<section aria-labelledby="slow"><h3 id="slow"><a href="#slow">Cancelling a slow fetch</a></h3><div class="section-content"><p>${PROSE}</p></div></section></article></main></body></html>`;
    expect(text(page)).toContain('Examples\n');
  });

  it('is a heading’s box by its permalink: a forum’s user box around a name stays as it is', () => {
    const document = parseDocument(
      '<body><div class="PostUser"><h3 class="PostUser-name"><span>?</span></h3></div><div class="markdown-heading"><h2>Usage</h2><a class="anchor" href="#usage"></a></div></body>',
    );
    prepareGeneratedPage(document);
    expect(document.querySelector('div.PostUser > h3')).not.toBeNull();
    expect(document.querySelector('div.markdown-heading')).toBeNull();
    expect(document.querySelector('body > h2')?.textContent).toBe('Usage');
  });
});

describe('docs callouts', () => {
  const page = (callout: string) =>
    `<html><head><title>Retries</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>Retries</h1><p>${PROSE}</p>${callout}<p>${PROSE}</p></article></main></body></html>`;

  it('keep a note written as an aside in the article (Starlight)', () => {
    const note =
      '<aside aria-label="Note" class="starlight-aside starlight-aside--note"><p class="starlight-aside__title">Note</p>' +
      '<section class="starlight-aside__content"><p>A job that raises PermanentError is never retried, regardless of the policy set.</p></section></aside>';
    expect(text(page(note))).toContain('is never retried, regardless of the policy');
  });

  it('keep a warning box whose utility classes read as chrome (Mintlify)', () => {
    const warning =
      '<div class="callout my-4 overflow-hidden rounded-2xl" data-callout-type="warning"><div class="mt-0.5 w-4"><svg aria-label="Warning"></svg></div>' +
      '<div class="text-sm prose"><p>Never reuse a key for a different operation, or the API answers with a mismatch error.</p></div></div>';
    expect(text(page(warning))).toContain('Never reuse a key for a different operation');
  });

  it.each(['author-info', 'post-info', 'entry-meta tooltip-note'])(
    'leave an aside named "%s" an aside: a word inside a class names no callout',
    (name) => {
      const document = parseDocument(
        `<html><body><main><article><p>${PROSE}</p><aside class="${name}"><p>Jane Smith writes about rail.</p></aside></article></main></body></html>`,
      );
      prepareGeneratedPage(document);
      expect(document.querySelector('aside')?.textContent).toBe('Jane Smith writes about rail.');
    },
  );

  it('but an aside that is no callout is still the page’s chrome', () => {
    expect(
      text(page('<aside class="promo-box"><p>Try the hosted version free for thirty days, no card needed.</p></aside>')),
    ).not.toContain('hosted version');
  });
});

describe('a heading’s permalink id', () => {
  it('is no class name when it spells the heading’s text (VitePress, every slugging generator)', () => {
    const page =
      `<html><head><title>Plugins</title></head><body><main><h1>Plugins</h1><p>${PROSE}</p>` +
      `<h2 id="sharing-state-between-hooks">Sharing state between hooks <a class="header-anchor" href="#sharing-state-between-hooks">&#8203;</a></h2><p>${PROSE}</p>` +
      '<h2 id="related-posts">You might also like</h2></main></body></html>';
    const out = text(page);
    expect(out).toContain('Sharing state between hooks');
    expect(out).not.toContain('You might also like');
  });
});

describe('a docs site’s banner over another version’s page', () => {
  it('goes (Laravel, Read the Docs, Docusaurus); a page about versions stays', () => {
    const banners = [
      '<p><strong>WARNING</strong> You&#39;re browsing the documentation for an old version of Laravel. Consider upgrading your project to <a href="/docs/12.x">Laravel 12.x</a>.</p>',
      '<p>You are not reading the most recent version of this documentation. 2.4 is the latest version available.</p>',
      '<div>This is documentation for Tidekit 1.x, which is no longer actively maintained.</div>',
    ];
    const page = `<html><head><title>Atomic locks</title></head><body><main><h1>Atomic locks</h1>${banners.join('')}<p>${PROSE}</p><p>The version of the lock store bundled with the framework is being deprecated; a future version will remove it.</p></main></body></html>`;
    const out = text(page);
    for (const gone of ['old version of Laravel', 'most recent version', 'no longer actively maintained']) expect(out).not.toContain(gone);
    expect(out).toContain('The version of the lock store bundled');
  });
});

describe('pkg.go.dev pages', () => {
  it('lose the sections their index lists empty, with their headings', () => {
    const page =
      `<html><head><title>tidyrate package</title></head><body><main><article><h1>tidyrate</h1><section><h3 id="pkg-overview">Overview</h3><p>${PROSE}</p></section>` +
      '<h3 id="pkg-constants" class="Documentation-constantsHeader">Constants</h3><p class="Documentation-empty">This section is empty.</p>' +
      `<h3 id="pkg-functions">Functions</h3><pre>func Allow(key string) bool</pre><p>${PROSE}</p></article></main></body></html>`;
    const out = text(page);
    expect(out).not.toContain('Constants');
    expect(out).not.toContain('This section is empty.');
    expect(out).toContain('func Allow(key string) bool');
  });
});

describe('a docs page’s own references', () => {
  it('stay as a link list under “Next steps” or “See also”; a “Related articles” list goes', () => {
    const links = (a: string, b: string) =>
      `<ul><li><a href="/${a}">${a} in detail</a></li><li><a href="/${b}">${b} in detail</a></li></ul>`;
    const page =
      `<html><head><title>Back up file shares</title></head><body><main><h1>Back up file shares</h1><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p>` +
      `<h2>Next steps</h2>${links('Restore', 'Manage')}<h2>See also</h2>${links('Snapshots', 'Policies')}` +
      `<h2>Related articles</h2>${links('Pricing', 'Careers')}</main></body></html>`;
    const out = text(page);
    for (const kept of ['Restore in detail', 'Manage in detail', 'Snapshots in detail', 'Policies in detail']) expect(out).toContain(kept);
    expect(out).not.toContain('Pricing in detail');
  });
});

describe('a table of contents’ label', () => {
  it('goes once its list of links has gone; a “Contents” heading over its own text stays', () => {
    const toc =
      '<p>On this page</p><ul><li><a href="#example">Example</a></li><li><a href="#settings">Settings</a></li><li><a href="#env">Environment</a></li></ul>';
    const page =
      `<html><head><title>Configuration</title></head><body><main><h1>Configuration</h1><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p>${toc}` +
      `<h2>Contents</h2><p>The box holds a cable, a charger and the manual, with a card for the warranty inside.</p><p>${PROSE}</p></main></body></html>`;
    const out = text(page);
    expect(out).not.toContain('On this page');
    expect(out).toContain('Contents\n');
  });
});

describe('VitePress pages', () => {
  it('lose the zero-width permalink in each heading and the language label over each code block', () => {
    const page =
      `<html><head><title>Plugins</title></head><body><main><h1>Plugins</h1><p>${PROSE}</p>` +
      '<h2 id="using-a-plugin" tabindex="-1">Using a plugin <a class="header-anchor" href="#using-a-plugin" aria-label="Permalink to &quot;Using a plugin&quot;">&#8203;</a></h2>' +
      '<p>Add it to the plugins array in the configuration file:</p>' +
      '<div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre class="shiki vp-code"><code>export default defineConfig({ plugins: [sitemap()] })</code></pre></div>' +
      `<p>${PROSE}</p></main></body></html>`;
    const out = text(page);
    expect(out).toContain('Using a plugin\n');
    expect(out).not.toContain('\u200b');
    expect(out).not.toMatch(/^ts$/m);
    expect(out).toContain('export default defineConfig');
  });
});

describe('TypeDoc pages', () => {
  it('lose the “Optional” flag glued to a parameter’s name (the signature says “?”)', () => {
    const page =
      `<html><head><title>parseDuration</title></head><body><main><h1>Function parseDuration</h1><ul class="tsd-signatures"><li class="tsd-signature">parseDuration(input, options?: ParseOptions): number</li></ul><p>${PROSE}</p>` +
      '<div class="tsd-parameters"><h4>Parameters</h4><ul class="tsd-parameter-list"><li><span><span class="tsd-kind-parameter">input</span>: <span>string</span></span><div><p>The text to parse, trimmed of spaces at both ends first.</p></div></li>' +
      '<li><span><code class="tsd-tag">Optional</code><span class="tsd-kind-parameter">options</span>: <a href="ParseOptions.html">ParseOptions</a></span><div><p>Controls which units are accepted and how bare numbers are read.</p></div></li></ul></div>' +
      `<p>${PROSE}</p></main></body></html>`;
    const out = text(page);
    expect(out).toContain('options: ParseOptions');
    expect(out).not.toContain('Optional');
  });
});

describe('Asciidoctor (Antora) pages', () => {
  it('keep a short paragraph that is mostly a cross-reference', () => {
    const para = (body: string) => `<div class="paragraph"><p>${body}</p></div>`;
    const page =
      `<html><head><title>Job retention</title></head><body><main><article class="doc"><h1>Job retention</h1>${para(PROSE)}` +
      `<div class="sect1"><h2 id="metrics">Metrics</h2><div class="sectionbody">${para(PROSE)}${para(PROSE)}${para(PROSE)}${para('See <a href="metrics.html" class="xref page">Metrics and health checks</a> for how to scrape them.')}</div></div>` +
      '</article></main></body></html>';
    expect(text(page)).toContain('See Metrics and health checks for how to scrape them.');
  });
});
