/**
 * Collects kube-proxy's nftables objects in the order its sync transaction creates them.
 * The kernel keeps chains and sets in creation order and `nft list` prints them in that
 * order, so the writer's order is the listing's order. Re-adding an existing chain or set is
 * a no-op, as `add chain` / `add set` are in nft.
 */
import { ruleText } from './format';
import type {
  NftBaseChain,
  NftChain,
  NftLookupKey,
  NftMap,
  NftMapElement,
  NftMatch,
  NftRule,
  NftSet,
  NftStatement,
} from './types';

/** Accumulates one table's chains, rules, sets, maps and elements. */
export class NftWriter {
  readonly chains = new Map<string, NftChain>();
  readonly sets = new Map<string, NftSet | NftMap>();

  /** `add chain` (idempotent); a base chain when `base` is given. */
  chain(name: string, opts: { base?: NftBaseChain; comment?: string } = {}): NftChain {
    const existing = this.chains.get(name);
    if (existing) return existing;
    const c: NftChain = { name, rules: [] };
    if (opts.base) c.base = opts.base;
    if (opts.comment !== undefined) c.comment = opts.comment;
    this.chains.set(name, c);
    return c;
  }

  /**
   * `add rule` to an existing chain.
   * @throws {Error} `no chain "<name>"` when the chain was not created first (nft refuses
   *   such a rule too).
   */
  rule(chain: string, matches: NftMatch[], statement: NftStatement, comment?: string): NftRule {
    const c = this.chains.get(chain);
    if (!c) throw new Error(`no chain "${chain}"`);
    const rule: NftRule = {
      id: `${chain}/${c.rules.length}`,
      chain,
      index: c.rules.length,
      matches,
      statement,
      text: ruleText(matches, statement, comment),
    };
    if (comment !== undefined) rule.comment = comment;
    c.rules.push(rule);
    return rule;
  }

  /** `add set … { type ipv4_addr ; … }` (idempotent). */
  set(name: string, opts: { comment?: string; timeoutSeconds?: number } = {}): NftSet {
    const existing = this.sets.get(name);
    if (existing?.kind === 'set') return existing;
    const s: NftSet = { kind: 'set', name, elements: [] };
    if (opts.comment !== undefined) s.comment = opts.comment;
    if (opts.timeoutSeconds !== undefined) s.timeoutSeconds = opts.timeoutSeconds;
    this.sets.set(name, s);
    return s;
  }

  /** `add map … { type KEY : verdict ; comment "…" ; }` (idempotent). */
  map(name: string, key: NftLookupKey, comment: string): NftMap {
    const existing = this.sets.get(name);
    if (existing?.kind === 'map') return existing;
    const m: NftMap = { kind: 'map', name, key, comment, elements: [] };
    this.sets.set(name, m);
    return m;
  }

  /** `delete set`: kube-proxy adds then deletes `nodeport-ips` when NodePorts match all IPs. */
  deleteSet(name: string): void {
    this.sets.delete(name);
  }

  /** `add element` to a set; an element already present is kept once. */
  setElement(name: string, ip: string): void {
    const s = this.sets.get(name);
    if (s?.kind !== 'set') throw new Error(`no set "${name}"`);
    if (!s.elements.includes(ip)) s.elements.push(ip);
  }

  /** `add element` to a verdict map; a key already present is replaced. */
  mapElement(name: string, element: NftMapElement): void {
    const m = this.sets.get(name);
    if (m?.kind !== 'map') throw new Error(`no map "${name}"`);
    const same = (e: NftMapElement) =>
      e.ip === element.ip && e.proto === element.proto && e.port === element.port;
    m.elements = [...m.elements.filter((e) => !same(e)), element];
  }
}
