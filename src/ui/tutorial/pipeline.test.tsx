import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import { headingsOf } from '../../tutorial';
import type { GlossaryEntry } from '../../tutorial';
import { HEADING_ID_PREFIX, markdownOptions, urlTransform } from './pipeline';

const render = (md: string, glossary: GlossaryEntry[] | null = null, skipHtml = true) =>
  renderToStaticMarkup(
    <Markdown {...markdownOptions(glossary)} skipHtml={skipHtml}>
      {md}
    </Markdown>,
  );

const HOSTILE = [
  'Before.',
  '',
  '<script>window.pwned = 1</script>',
  '',
  '<img src="x" onerror="window.pwned = 2">',
  '',
  'Inline <b onclick="window.pwned = 3">bold</b> and <iframe src="https://example.com"></iframe>.',
  '',
  '[click](javascript:window.pwned=4) [data](data:text/html;base64,PHNjcmlwdD4=)',
].join('\n');

describe('the chapter pipeline drops raw HTML and scripts', () => {
  it('renders no script, event handler, iframe or javascript: URL (raw HTML skipped)', () => {
    const html = render(HOSTILE);
    expect(html).toContain('<p>Before.</p>');
    expect(html).not.toMatch(/<script|<img|<iframe|<b[ >]/i);
    expect(html).not.toMatch(/onerror|onclick/i);
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('data:text/html');
    expect(html).not.toContain('pwned');
  });

  it('the sanitiser alone still leaves no element or attribute from raw HTML', () => {
    // With skipHtml off, react-markdown turns raw HTML into text: escaped, never elements.
    const html = render(HOSTILE, null, false);
    expect(html).not.toMatch(/<script|<img|<iframe|<b /i);
    expect(html).not.toMatch(/\sonerror=|\sonclick=/i);
    expect(html).not.toContain('href="javascript:');
  });
});

describe('what the tutorial adds to GitHub-flavoured Markdown', () => {
  it('keeps scene: links (react-markdown drops unknown protocols by default)', () => {
    expect(urlTransform('scene:policy=Local&step=last')).toBe('scene:policy=Local&step=last');
    expect(urlTransform('javascript:alert(1)')).toBe('');
    expect(render('[See it](scene:policy=Local&step=last)')).toContain(
      'href="scene:policy=Local&amp;step=last"',
    );
  });

  it('keeps time: links, with their events and duration intact', () => {
    const url = 'time:events=fail:node-1@60s,restore:node-1@150s&at=90s';
    expect(urlTransform(url)).toBe(url);
    expect(render(`[Watch it](${url})`)).toContain(
      'href="time:events=fail:node-1@60s,restore:node-1@150s&amp;at=90s"',
    );
  });

  it('gives headings the ids the tutorial computes (github-slugger), with the DOM prefix', () => {
    const md =
      '## Traffic flow and control flow\n\ntext\n\n### `ipMode: Proxy` and PROXY protocol\n\n## Traffic flow and control flow\n';
    const html = render(md);
    const ids = headingsOf(md).map((h) => h.id);
    expect(ids).toEqual([
      'traffic-flow-and-control-flow',
      'ipmode-proxy-and-proxy-protocol',
      'traffic-flow-and-control-flow-1',
    ]);
    for (const id of ids) expect(html).toContain(`id="${HEADING_ID_PREFIX}${id}"`);
    expect(html).not.toContain('user-content-');
  });

  it('renders GitHub alerts as labelled admonitions', () => {
    const html = render('> [!WARNING]\n> Mind the gap.');
    expect(html).toMatch(/<div class="markdown-alert markdown-alert-warning"/);
    expect(html).toMatch(/<p class="markdown-alert-title"[^>]*>WARNING<\/p>/);
    expect(html).toContain('Mind the gap.');
    // The alert's SVG icon is not allowed through; the title says it in words.
    expect(html).not.toContain('<svg');
  });

  it('highlights yaml and iptables blocks, leaves scene/question/mermaid blocks alone', () => {
    const html = render(
      '```yaml\nspec:\n  type: LoadBalancer\n```\n\n```iptables\n-A KUBE-SERVICES -j KUBE-NODEPORTS\n```\n\n```scene\nscene: policy=Local\n```',
    );
    expect(html).toContain('<span class="hljs-attr">spec:</span>');
    expect(html).toMatch(/<span class="hljs-title">KUBE-SERVICES<\/span>/);
    expect(html).toContain('<code class="language-scene">scene: policy=Local\n</code>');
  });

  it('renders GFM tables and task lists', () => {
    const html = render('| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done');
    expect(html).toContain('<table>');
    expect(html).toContain('<input type="checkbox" disabled="" checked=""/>');
  });
});

describe('glossary links', () => {
  const glossary: GlossaryEntry[] = [
    {
      id: 'nodeport',
      term: 'NodePort',
      aliases: [],
      definition: 'A port on `every` node.',
      line: 1,
    },
    { id: 'snat', term: 'SNAT', aliases: ['masquerade'], definition: 'Source NAT.', line: 2 },
  ];

  it('links the first occurrence of each term in prose, with the definition as the title', () => {
    const html = render(
      [
        '## NodePort and SNAT',
        '',
        'The `NodePort ranges` in code stay. A NodePort opens; another NodePort does not get a link.',
        '',
        'Linux can masquerade, and SNAT is then not linked again. [NodePort docs](https://kubernetes.io) stay as written.',
        '',
        '```bash',
        'echo NodePort',
        '```',
      ].join('\n'),
      glossary,
    );
    const links = [
      ...html.matchAll(/<a href="#\/learn\/glossary\/([^"]+)" title="([^"]*)">([^<]*)<\/a>/g),
    ];
    expect(links.map((m) => [m[1], m[2], m[3]])).toEqual([
      ['nodeport', 'A port on every node.', 'NodePort'],
      ['snat', 'Source NAT.', 'masquerade'],
    ]);
    // The heading keeps its text and id; code that is not just a term, the code block and the
    // existing link are untouched.
    expect(html).toContain('<h2 id="learn-nodeport-and-snat">NodePort and SNAT</h2>');
    expect(html).toContain('<code>NodePort ranges</code>');
    expect(html).toContain('</span> NodePort\n</code></pre>');
    expect(html).toContain('<a href="https://kubernetes.io">NodePort docs</a>');
  });

  it('links inline code whose whole text is a term (or spec.<term>), first occurrence only', () => {
    const withField: GlossaryEntry[] = [
      ...glossary,
      {
        id: 'externaltrafficpolicy',
        term: 'externalTrafficPolicy',
        aliases: [],
        definition: 'Cluster or Local.',
        line: 3,
      },
    ];
    const html = render(
      'Set `spec.externalTrafficPolicy: Local`? No: set `spec.externalTrafficPolicy`, then `externalTrafficPolicy` again, and `NodePort`; a NodePort after it is not linked.',
      withField,
    );
    const links = [...html.matchAll(/<a href="#\/learn\/glossary\/([^"]+)"[^>]*>(.*?)<\/a>/g)];
    expect(links.map((m) => [m[1], m[2]])).toEqual([
      ['externaltrafficpolicy', '<code>spec.externalTrafficPolicy</code>'],
      ['nodeport', '<code>NodePort</code>'],
    ]);
    expect(html).toContain('<code>spec.externalTrafficPolicy: Local</code>');
  });

  it('leaves product names and quoted messages alone', () => {
    const lb: GlossaryEntry[] = [
      { id: 'load-balancer', term: 'load balancer', aliases: [], definition: 'LB.', line: 1 },
    ];
    const html = render(
      'An AWS Load Balancer Controller, a Network Load Balancer, "Error syncing load balancer: x". Load balancer health checks: the load balancer asks.',
      lb,
    );
    const links = [...html.matchAll(/<a href="#\/learn\/glossary\/([^"]+)"[^>]*>(.*?)<\/a>/g)];
    // The first real use (a sentence may start with it) is linked; product names and the quoted
    // event message are not.
    expect(links.map((m) => m[2])).toEqual(['Load balancer']);
  });

  it('matches whole words only, and code-like names in their own case', () => {
    const html = render(
      'Nodeports and nodeport are not NodePortal words. The snat here is not SNAT.',
      glossary,
    );
    expect(html).toContain('<a href="#/learn/glossary/snat" title="Source NAT.">SNAT</a>');
    expect(html).not.toContain('glossary/nodeport');
  });
});

describe('glossary links skip compound names', () => {
  it('does not link "node" inside node-1 or Service inside Service.spec', () => {
    const glossary: GlossaryEntry[] = [
      { id: 'node', term: 'node', aliases: [], definition: 'A machine.', line: 1 },
      { id: 'service', term: 'Service', aliases: [], definition: 'A stable address.', line: 2 },
    ];
    const html = render(
      'On node-1 the Service.spec field; then a node and a Service. End.',
      glossary,
    );
    expect(html).toContain(
      'On node-1 the Service.spec field; then a <a href="#/learn/glossary/node"',
    );
    expect(html).toContain(
      'and a <a href="#/learn/glossary/service" title="A stable address.">Service</a>. End.',
    );
  });
});
