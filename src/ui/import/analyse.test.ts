import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyse } from './analyse';
import { parseIndex } from './examples';

const example = (file: string) => readFileSync(`public/examples/${file}`, 'utf8');

describe('analyse', () => {
  it('every shipped example can be applied, with its assumptions listed', () => {
    const index = parseIndex(JSON.parse(example('index.json')));
    expect(index.length).toBeGreaterThan(3);
    for (const { file } of index) {
      const a = analyse(example(file));
      expect(a.blocked, file).toBe('');
      expect(a.errors, file).toBe(0);
      expect(a.objects.length, file).toBeGreaterThanOrEqual(a.given);
    }
    expect(analyse(example('cloud-cluster-policy.yaml')).assumed).toContain(
      'a client on the internet at 198.51.100.23',
    );
  });

  it('says why Apply cannot run', () => {
    expect(analyse('').blocked).toBe('paste or type some manifests first');
    expect(analyse('kind: ConfigMap\nmetadata:\n  name: x\n').blocked).toBe(
      'no Service, EndpointSlice, Node or Pod found',
    );
    expect(analyse('kind: Node\nmetadata:\n  name: n1\n').blocked).toBe(
      'there is no Service to trace',
    );
    const broken = analyse('spec:\n  ports: [');
    expect(broken.blocked).toBe('fix the 1 error first');
    expect(broken.problems[0]).toMatchObject({ severity: 'error', line: 2, column: 11 });
  });

  it('names the kinds it skipped and keeps the text exactly', () => {
    const text =
      'kind: Deployment\nmetadata:\n  name: web\n---\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports: [{port: 80}]\n';
    const a = analyse(text);
    expect(a.skipped).toEqual(['Deployment web']);
    expect(a.text).toBe(text);
    expect(a.given).toBe(1);
  });
});

describe('parseIndex', () => {
  it('keeps well-formed entries only', () => {
    expect(
      parseIndex([
        { file: 'a.yaml', title: 'A', description: 'd' },
        { file: '../etc/passwd', title: 'x' },
        { file: 'b.json', title: 'B' },
        { file: 'c.yaml' },
        null,
      ]),
    ).toEqual([
      { file: 'a.yaml', title: 'A', description: 'd' },
      { file: 'b.json', title: 'B', description: '' },
    ]);
    expect(parseIndex({})).toEqual([]);
  });
});
