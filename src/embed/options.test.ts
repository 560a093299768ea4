import { describe, expect, it } from 'vitest';
import { parseEmbedOptions, readOrigin, wantsEmbed } from './options';

describe('embed options (the query string)', () => {
  it('defaults: auto theme, the full player, the link’s step, paused, any parent may drive it', () => {
    expect(parseEmbedOptions('?embed=1')).toEqual({
      options: { theme: 'auto', controls: 'full', step: null, autoplay: false, origins: null },
      problems: [],
    });
  });

  it('reads every option', () => {
    const r = parseEmbedOptions(
      '?embed=1&theme=dark&controls=minimal&step=3&autoplay=1&origin=https://docs.example.com,http://localhost:3000',
    );
    expect(r).toEqual({
      options: {
        theme: 'dark',
        controls: 'minimal',
        step: 3,
        autoplay: true,
        origins: ['https://docs.example.com', 'http://localhost:3000'],
      },
      problems: [],
    });
  });

  it('theme=contrast is the high-contrast (projector) theme', () => {
    expect(parseEmbedOptions('?theme=contrast')).toMatchObject({
      options: { theme: 'contrast' },
      problems: [],
    });
  });

  it('names each value it cannot read and uses the default', () => {
    const r = parseEmbedOptions('?theme=blue&controls=some&step=-1&autoplay=yes');
    expect(r.options).toMatchObject({
      theme: 'auto',
      controls: 'full',
      step: null,
      autoplay: false,
    });
    expect(r.problems).toEqual([
      'theme=blue is not light, dark, contrast or auto: using auto.',
      'controls=some is not full, minimal or none: using full.',
      "step=-1 is not a step number (0, 1, 2, …): showing the link's step.",
      'autoplay=yes is not 1 or 0: paused.',
    ]);
  });

  it('an origin list with nothing readable lets nobody drive it (not everybody)', () => {
    const r = parseEmbedOptions('?origin=docs.example.com');
    expect(r.options.origins).toEqual([]);
    expect(r.problems).toEqual([
      'origin=docs.example.com is not an origin such as https://docs.example.com: ignored.',
      'No origin in origin= could be read: no page may drive this embed or hear its messages.',
    ]);
  });

  it('an origin is compared exactly: no path, no trailing slash, http(s) only', () => {
    expect(readOrigin('https://docs.example.com')).toBe('https://docs.example.com');
    expect(readOrigin('https://docs.example.com/')).toBeNull();
    expect(readOrigin('https://docs.example.com/guide')).toBeNull();
    expect(readOrigin('javascript:alert(1)')).toBeNull();
    expect(readOrigin('ftp://x.example')).toBeNull();
  });

  it('?embed=1 (and only 1) asks for the embed view', () => {
    expect(wantsEmbed('?embed=1')).toBe(true);
    expect(wantsEmbed('?theme=dark&embed=1')).toBe(true);
    expect(wantsEmbed('?embed=0')).toBe(false);
    expect(wantsEmbed('')).toBe(false);
  });
});
