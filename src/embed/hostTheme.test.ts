import { describe, expect, it } from 'vitest';
import { hostTheme } from './hostTheme';

const doc = (html: Record<string, string>, body: Record<string, string>) => ({
  documentElement: { getAttribute: (n: string) => html[n] ?? null },
  body: { getAttribute: (n: string) => body[n] ?? null },
});

describe('hostTheme: the docs site’s own theme switch', () => {
  it('Docusaurus / PyData: html[data-theme]', () => {
    expect(hostTheme(doc({ 'data-theme': 'dark' }, {}))).toBe('dark');
    expect(hostTheme(doc({ 'data-theme': 'light' }, {}))).toBe('light');
  });
  it('MkDocs Material: body[data-md-color-scheme], slate is dark', () => {
    expect(hostTheme(doc({}, { 'data-md-color-scheme': 'slate' }))).toBe('dark');
    expect(hostTheme(doc({}, { 'data-md-color-scheme': 'default' }))).toBe('light');
  });
  it('Furo: body[data-theme], auto follows the system', () => {
    expect(hostTheme(doc({}, { 'data-theme': 'dark' }))).toBe('dark');
    expect(hostTheme(doc({}, { 'data-theme': 'auto' }))).toBeNull();
  });
  it('nothing said: follow prefers-color-scheme', () => {
    expect(hostTheme(doc({}, {}))).toBeNull();
    expect(hostTheme({ documentElement: null, body: null })).toBeNull();
  });
});
