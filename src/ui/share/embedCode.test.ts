import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE } from '../../model/scenario/scene';
import { parseEmbedOptions } from '../../embed/options';
import type { EmbedCodeInput } from './embedCode';
import {
  appBaseUrl,
  describeScene,
  elementSnippet,
  embedUrl,
  escapeHtml,
  iframeSnippet,
  resizeScript,
} from './embedCode';

const input = (over: Partial<EmbedCodeInput> = {}): EmbedCodeInput => ({
  base: 'https://docs.example.org/lb/',
  hash: '#s=N4Ig+x-$A',
  step: 3,
  theme: 'auto',
  controls: 'full',
  autoplay: false,
  description: 'externalTrafficPolicy Local, node-2 failed',
  ...over,
});

describe('appBaseUrl', () => {
  it('is the directory of the page, wherever the app is hosted', () => {
    expect(appBaseUrl({ origin: 'https://x.org', pathname: '/' })).toBe('https://x.org/');
    expect(appBaseUrl({ origin: 'https://x.org', pathname: '/lb/index.html' })).toBe(
      'https://x.org/lb/',
    );
    expect(appBaseUrl({ origin: 'http://127.0.0.1:4173', pathname: '/lb/' })).toBe(
      'http://127.0.0.1:4173/lb/',
    );
    expect(appBaseUrl({ origin: 'https://x.org', pathname: '' })).toBe('https://x.org/');
  });
});

describe('describeScene', () => {
  it('names the policy, and what differs from the default scene', () => {
    expect(describeScene(DEFAULT_SCENE, false)).toBe('externalTrafficPolicy Cluster');
    expect(
      describeScene(
        { ...DEFAULT_SCENE, externalTrafficPolicy: 'Local', failedNodes: ['node-2'] },
        false,
      ),
    ).toBe('externalTrafficPolicy Local, node-2 failed');
    expect(
      describeScene(
        {
          ...DEFAULT_SCENE,
          ipMode: 'Proxy',
          published: false,
          proxyMode: 'ipvs',
          failedNodes: ['node-1', 'node-3'],
          client: 'pod',
          dial: { kind: 'NodePort', nodeName: 'node-1' },
        },
        true,
      ),
    ).toBe(
      "your cluster, externalTrafficPolicy Cluster, ipMode Proxy, EXTERNAL-IP <pending>, kube-proxy ipvs, node-1 and node-3 failed, client pod, dialling node-1's NodePort",
    );
    expect(
      describeScene(
        {
          ...DEFAULT_SCENE,
          delivery: 'LoadBalancerIP',
          failedNodes: ['a', 'b', 'c', 'd'],
          dial: { kind: 'ClusterIP' },
          service: 'shop/api',
        },
        false,
      ),
    ).toBe(
      'Service shop/api, externalTrafficPolicy Cluster, balancer keeps the VIP destination, 4 nodes failed, dialling the ClusterIP',
    );
  });
});

describe('escapeHtml', () => {
  it('escapes what could end an attribute or start a tag', () => {
    expect(escapeHtml(`a&b "c" <d> 'e'`)).toBe(`a&amp;b &quot;c&quot; &lt;d&gt; 'e'`);
  });
});

describe('embedUrl', () => {
  it('puts the options in the query, the scene in the fragment', () => {
    expect(embedUrl(input())).toBe(
      'https://docs.example.org/lb/embed.html?step=3&theme=auto&controls=full#s=N4Ig+x-$A',
    );
    expect(embedUrl(input({ hash: null, step: 0, theme: 'dark', autoplay: true }))).toBe(
      'https://docs.example.org/lb/embed.html?step=0&theme=dark&controls=full&autoplay=1',
    );
  });

  it('is read back by the embed as the same options', () => {
    const url = new URL(embedUrl(input({ theme: 'light', controls: 'none', autoplay: true })));
    expect(parseEmbedOptions(url.search)).toEqual({
      options: { theme: 'light', controls: 'none', step: 3, autoplay: true, origins: null },
      problems: [],
    });
  });
});

describe('iframeSnippet', () => {
  it('is the whole element, exactly', () => {
    expect(iframeSnippet(input())).toBe(
      [
        '<iframe',
        '  class="lb-datapath"',
        '  src="https://docs.example.org/lb/embed.html?step=3&amp;theme=auto&amp;controls=full#s=N4Ig+x-$A"',
        '  title="LoadBalancer data path: externalTrafficPolicy Local, node-2 failed"',
        '  width="100%"',
        '  height="700"',
        '  loading="lazy"',
        '  allow="fullscreen"',
        '  style="border:0"',
        '></iframe>',
      ].join('\n'),
    );
  });

  it('escapes the title and the address, and sizes by the controls', () => {
    const s = iframeSnippet(
      input({
        base: 'https://x.org/a"b/',
        controls: 'none',
        description: 'externalTrafficPolicy Cluster, EXTERNAL-IP <pending> & "x"',
      }),
    );
    expect(s).toContain(
      '  title="LoadBalancer data path: externalTrafficPolicy Cluster, EXTERNAL-IP &lt;pending&gt; &amp; &quot;x&quot;"',
    );
    expect(s).toContain('  src="https://x.org/a&quot;b/embed.html?step=3&amp;theme=auto&amp;');
    expect(s).toContain('  height="610"');
    expect(iframeSnippet(input({ controls: 'minimal' }))).toContain('  height="660"');
  });
});

describe('resizeScript', () => {
  it('checks the app’s origin and the frame’s own window', () => {
    expect(resizeScript('https://docs.example.org/lb/')).toBe(
      [
        '<script>',
        "  addEventListener('message', (e) => {",
        `    if (e.origin !== "https://docs.example.org" || e.data?.type !== 'lb-datapath:resize') return;`,
        "    for (const frame of document.querySelectorAll('iframe.lb-datapath'))",
        "      if (e.source === frame.contentWindow) frame.style.height = e.data.height + 'px';",
        '  });',
        '</script>',
      ].join('\n'),
    );
  });
});

describe('elementSnippet', () => {
  it('is the module script and the element, exactly', () => {
    expect(elementSnippet(input())).toBe(
      '<script type="module" src="https://docs.example.org/lb/embed/lb-datapath.js"></script>\n' +
        '<lb-datapath state="#s=N4Ig+x-$A" step="3" theme="auto" controls="full">' +
        '<a href="https://docs.example.org/lb/#s=N4Ig+x-$A">Open this scene in the LoadBalancer data path visualiser</a></lb-datapath>',
    );
  });

  it('leaves state empty for the default scene, adds autoplay, escapes values', () => {
    expect(
      elementSnippet(
        input({
          base: 'https://x.org/<b>/',
          hash: null,
          step: 0,
          controls: 'none',
          autoplay: true,
        }),
      ),
    ).toBe(
      '<script type="module" src="https://x.org/&lt;b&gt;/embed/lb-datapath.js"></script>\n' +
        '<lb-datapath state="" step="0" theme="auto" controls="none" autoplay="1">' +
        '<a href="https://x.org/&lt;b&gt;/">Open this scene in the LoadBalancer data path visualiser</a></lb-datapath>',
    );
  });
});
